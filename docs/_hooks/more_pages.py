"""MkDocs hook: a page of docs/ that mkdocs.yml's nav does not list goes under "More".

So a page added on another branch is built, searchable and in the nav before anyone edits
mkdocs.yml; the lead moves it into the nav proper when it has a place (docs/development.md).
"""

from __future__ import annotations

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import Files
from mkdocs.structure.nav import Navigation, Section
from mkdocs.structure.pages import Page

MORE = "More"


def unlisted_pages(nav: Navigation, files: Files) -> list[Page]:
    """Pages of the docs folder that the nav leaves out, by file name."""
    listed = {page.file.src_uri for page in nav.pages}
    pages = [
        file.page
        for file in sorted(files.documentation_pages(), key=lambda file: file.src_uri)
        if file.src_uri not in listed and file.inclusion.is_in_nav()
    ]
    return [page for page in pages if isinstance(page, Page)]


def on_nav(nav: Navigation, config: MkDocsConfig, files: Files) -> Navigation:
    """Append the unlisted pages to the "More" section (made last if the nav has none)."""
    extra = unlisted_pages(nav, files)
    if not extra:
        return nav
    more = next((i for i in nav.items if isinstance(i, Section) and i.title == MORE), None)
    if more is None:
        more = Section(MORE, [])
        nav.items.append(more)
    for page in extra:
        page.parent = more
        more.children.append(page)
    nav.pages.extend(extra)
    for before, after in zip(nav.pages, nav.pages[1:], strict=False):
        before.next_page, after.previous_page = after, before
    return nav
