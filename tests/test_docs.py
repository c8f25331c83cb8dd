"""The README's links reach the manual's pages and headings, and the site takes a page that
its nav does not list (under "More", docs/_hooks/more_pages.py) without an edit of mkdocs.yml.

`make test` builds the real site with `mkdocs build --strict`; here a copy is built with one
page added, as another branch would add it.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from markdown.extensions.toc import slugify

ROOT = Path(__file__).resolve().parents[1]
LINK = re.compile(r"\]\(([^)\s]+)\)")


def headings(page: Path) -> set[str]:
    """The anchors MkDocs gives a page's headings (its toc slugify), outside code fences."""
    anchors, fenced = set(), False
    for line in page.read_text().splitlines():
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and (heading := re.match(r"#{1,6} (.+)", line)):
            anchors.add(slugify(heading.group(1).replace("`", ""), "-"))
    return anchors


def test_every_relative_link_of_the_readme_reaches_a_page_and_heading() -> None:
    links = [link for link in LINK.findall((ROOT / "README.md").read_text()) if "://" not in link]
    assert len(links) >= 15
    for link in links:
        path, _, anchor = link.partition("#")
        target = ROOT / path
        assert target.exists(), f"README links to {link}: no such file"
        if anchor:
            assert anchor in headings(target), f"README links to {link}: no such heading"


def test_the_readme_stays_a_page_a_newcomer_reads() -> None:
    readme = (ROOT / "README.md").read_text()
    assert readme.count("\n") <= 300
    assert "make demo" in readme
    assert "make test" in readme
    assert "__" not in readme.replace("__init__", ""), "a placeholder was left in the README"


@pytest.mark.timeout(120)
def test_a_page_the_nav_does_not_list_is_built_under_more(tmp_path: Path) -> None:
    shutil.copytree(ROOT / "docs", tmp_path / "docs")
    shutil.copy(ROOT / "mkdocs.yml", tmp_path / "mkdocs.yml")
    (tmp_path / "docs" / "zz-added-later.md").write_text(
        "# Added later\n\nA page of another branch, linking [home](index.md).\n"
    )
    built = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "s")],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=110,
        check=False,
        env={"NO_MKDOCS_2_WARNING": "1", "PATH": ""},
    )
    assert built.returncode == 0, built.stderr
    assert (tmp_path / "s" / "zz-added-later" / "index.html").exists()
    home = (tmp_path / "s" / "index.html").read_text()
    more = re.search(r">\s*More\s*<", home)
    assert more, "the nav has no More section"
    assert "Added later" in home[more.end() :], "the unlisted page is not under More"


def test_the_readmes_python_examples_run(capsys) -> None:
    """Each ```python block of the README runs as written (the DeepEval one asserts its score)."""
    blocks = re.findall(r"```python\n(.*?)```", (ROOT / "README.md").read_text(), flags=re.DOTALL)
    assert len(blocks) >= 2
    for block in blocks:
        exec(compile(block, "README.md", "exec"), {})
    assert "Faithfulness: 100.00% pass rate (1/1)" in capsys.readouterr().out


def test_every_main_command_of_the_readme_is_one_the_cli_takes() -> None:
    """The README's "Main commands" block, line by line, through `faith`'s own parser (parsed,
    not run): a renamed option or command fails here first."""
    import shlex

    from flows.cli.commands import build_parser

    readme = (ROOT / "README.md").read_text()
    block = readme.split("## Main commands", 1)[1].split("```bash\n", 1)[1].split("```", 1)[0]
    lines = [line.split("#", 1)[0].strip() for line in block.splitlines()]
    commands = [shlex.split(line) for line in lines if line.startswith("faith ")]
    assert ["faith", "calibrate"] in [c[:2] for c in commands]
    parser = build_parser()
    for command in commands:
        if command[1].startswith("-"):  # `faith --help`: argparse exits on it, by design
            continue
        parser.parse_args(command[1:])


def test_the_readmes_demo_output_is_what_the_demo_prints(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The pass rate, the config id and the days the README shows of `make demo`'s table are
    the judge's of today: a new rules version must bring the README along (the figures once
    stayed v3's, the config id v4's)."""
    from flows.cli import main

    readme = (ROOT / "README.md").read_text()
    block = readme.split("## What the demo prints", 1)[1].split("```", 2)[1]
    shown_rate = re.search(r"pass rate (\d+\.\d)%", block)
    assert shown_rate is not None
    days = [
        [cell.strip() for cell in line.strip("│ ").split("│")]
        for line in block.splitlines()
        if line.startswith("│ 2026-")
    ]
    assert len(days) == 5
    assert main(["demo", "--prefect", "no", "--db", str(tmp_path / "d.duckdb")]) == 0
    printed = capsys.readouterr().out
    assert f"pass rate {shown_rate.group(1)}%" in printed
    shown_configs = set(re.findall(r"faith-[0-9a-f]{16}", block))
    assert shown_configs, "the README's demo output names no config id"
    for config_id in shown_configs:
        assert f"config {config_id}" in printed, config_id
    for day in days:
        assert re.search(r"\s+".join(map(re.escape, day)), printed), day
    # its way into the database is one the environment has (`faith` as make demo starts it)
    (database,) = [line for line in block.splitlines() if line.startswith("database: ")]
    database = database.replace(".venv/bin/faith", "faith").replace(
        "data/faithpipe.duckdb", str(tmp_path / "d.duckdb")
    )
    assert database in printed.splitlines()


def test_every_option_of_faith_score_is_named_on_the_scoring_page() -> None:
    """docs/scoring.md lists `faith score`'s options; 16 of them, --max-quarantine-share
    (whose exit 11 a run may end in) among them, were named on other pages only."""
    import argparse

    from flows.cli.commands import build_parser

    subcommands = next(
        action
        for action in build_parser()._actions
        if isinstance(action, argparse._SubParsersAction)
    )
    score = subcommands.choices["score"]
    options = {
        option
        for action in score._actions
        for option in action.option_strings
        if option.startswith("--") and option != "--help"
    }
    page = (ROOT / "docs" / "scoring.md").read_text()
    missing = sorted(o for o in options if not re.search(rf"`{re.escape(o)}(?![\w-])", page))
    assert len(options) > 40
    assert missing == []


def test_every_option_of_faith_report_is_named_in_its_synopsis() -> None:
    """docs/sql.md's `faith report` section names each option of the command, so a new one
    (--segment-top, --segment-rank) cannot ship undocumented."""
    import argparse

    from flows.cli.commands import build_parser

    subcommands = next(
        action
        for action in build_parser()._actions
        if isinstance(action, argparse._SubParsersAction)
    )
    options = {
        option.replace("--no-", "--", 1)
        for action in subcommands.choices["report"]._actions
        for option in action.option_strings
        if option.startswith("--") and option != "--help"
    }
    section = (ROOT / "docs" / "sql.md").read_text().split("## `faith report`")[1]
    synopsis = section.split("```")[1]
    missing = sorted(
        o for o in options if not re.search(rf"\[{re.escape(o)}|\]{re.escape(o[2:])}\b", synopsis)
    )
    assert len(options) >= 13
    assert missing == []


def test_the_manual_names_todays_default_rules_version() -> None:
    """The site's nav read "Judge quality (grounded-v2)" and metric.md's SALAD row "grounded
    (v3)", with v3's figures, while the default judge was grounded-v10: a new rules version
    must bring both along."""
    from faith_udfs.grounded import GROUNDED_RULES_VERSION

    nav = re.search(r"Judge quality \((grounded-v\d+)\)", (ROOT / "mkdocs.yml").read_text())
    assert nav is not None
    assert nav.group(1) == GROUNDED_RULES_VERSION
    metric = (ROOT / "docs" / "metric.md").read_text()
    row = re.search(r"^\| grounded \((v\d+)\) \|", metric, flags=re.MULTILINE)
    assert row is not None
    assert f"grounded-{row.group(1)}" == GROUNDED_RULES_VERSION


def test_make_lint_does_what_make_help_says() -> None:
    """`make help` says lint is "ruff check and format check"; its recipe ran `ruff check`
    alone, so a file ruff format would rewrite passed it."""
    makefile = (ROOT / "Makefile").read_text()
    target = re.search(r"^lint:[^\n]*## ([^\n]*)\n((?:\t[^\n]*\n)+)", makefile, re.MULTILINE)
    assert target is not None
    assert "format check" in target.group(1)
    recipe = target.group(2)
    assert "ruff check ." in recipe
    assert "ruff format --check ." in recipe


@pytest.mark.timeout(180)
def test_every_faith_sql_line_of_the_sql_page_runs_as_written(tmp_path: Path) -> None:
    """The pages opened the database with `duckdb -readonly …`, DuckDB's own CLI, which `make
    setup` does not install: a new user's first query was `duckdb: command not found`.
    docs/sql.md gives `faith sql`, and each of its examples runs, by a shell as a user pastes
    it, in the folder of data/ (a weekly.sql of the page's weekly query beside it): the
    second one read a `failing_claims` view that no database has (exit 2, `Table ... does
    not exist`)."""
    from flows.cli.commands import main
    from tests.support.builders import many_cases, write

    page = (ROOT / "docs" / "sql.md").read_text()
    assert "does not install" in page.split("## Examples")[0]
    lines = re.findall(r"^faith sql .+$", page, flags=re.M)
    assert len(lines) >= 3
    source = write(many_cases(6), tmp_path / "cases.parquet")
    db = tmp_path / "data" / "faithpipe.duckdb"
    assert main(["score", str(source), "--db", str(db), "--prefect", "no"]) == 0
    (tmp_path / "weekly.sql").write_text("SELECT * FROM pass_rates(grain := 'week');\n")
    faith = f"{shlex.quote(sys.executable)} -m flows.cli"
    shown = []
    for line in lines:
        ran = subprocess.run(
            ["bash", "-c", faith + line.removeprefix("faith")],
            cwd=tmp_path,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        assert (ran.returncode, ran.stderr) == (0, ""), line
        shown.append(ran.stdout)
    assert "pass_rate" in shown[0]
    assert "period" in shown[0]
    assert (tmp_path / "failing.csv").read_text().startswith("config_id,case_id,logged_at,cause,")


def test_every_paragraph_that_opens_the_database_with_duckdbs_client_gives_faith_sql_too() -> None:
    """The README's "`duckdb -readonly data/faithpipe.duckdb` opens the tables" and
    output-tables.md's "Open it read-only: `duckdb -readonly …`" sent a newcomer to DuckDB's
    own command-line client, which `make demo` does not install (`duckdb: command not
    found`): where a paragraph names it, it names `faith sql`, which is installed, too."""
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    bare = []
    for page in pages:
        for paragraph in re.split(r"\n\s*\n", page.read_text()):
            if "duckdb -readonly data/faithpipe.duckdb`" in paragraph and "faith sql" not in (
                paragraph
            ):
                bare.append(f"{page.name}: {paragraph.strip()[:80]}")
    assert bare == []
