"""The `key=value` folders between a source's root and a file: read as columns of its rows
(text, as written), by every form that reads folders (one table, three tables, Dask)."""

from __future__ import annotations

import functools
import urllib.parse
from pathlib import Path


def hive_values(path: Path, root: Path | None) -> dict[str, str]:
    """`key=value` folders between the source root and the file, as columns."""
    return dict(_folder_values(path.parent, root))


@functools.lru_cache(maxsize=4096)
def _folder_values(folder: Path, root: Path | None) -> tuple[tuple[str, str], ...]:
    """A folder's `key=value` values below `root` (once a folder: its files share them)."""
    try:
        relative = folder.relative_to(root) if root else folder
    except ValueError:
        relative = folder
    values = {}
    for part in relative.parts:
        key, sep, value = part.partition("=")
        if sep and key:
            values[key] = urllib.parse.unquote(value)
    return tuple(values.items())
