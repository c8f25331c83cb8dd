"""A file the command reads whole (a labels file, a golden set) must be a regular file: a
named pipe no program writes to was waited on for ever, and a folder was read as a Parquet
data set of whatever files it held."""

from __future__ import annotations

import stat
from pathlib import Path

from flows.errors import InputUnreadable

__all__ = ["require_regular_file"]


def require_regular_file(path: Path, what: str, expected: str) -> None:
    """Refuse (InputUnreadable, exit 3) a `path` that exists but is a folder, a named pipe, a
    device or a socket, naming it as `what` and saying what was `expected`; a missing path is
    left to the reader, which names it."""
    try:
        mode = path.stat().st_mode
    except OSError:  # missing, or not even listable: the reader's error says which
        return
    if stat.S_ISREG(mode):
        return
    kind = "a folder" if stat.S_ISDIR(mode) else "a named pipe, a device or a socket"
    raise InputUnreadable(f"{what} {path}: not a file but {kind}; {expected}")
