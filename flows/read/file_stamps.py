"""Whether a source's files stayed as they were while they were read. Each file's stamp (its
inode, size and modification time) is taken once, as the source is resolved and before any of
its bytes are read (flows/read/finding.py), and taken again after each batch read from it,
before the batch is handed on to be committed (flows/read/streaming.py): a file an exporter
was still writing (a CSV whose last line was cut, its answer judged as if whole), replaced by
a rename, or removed while a night read it fails the run (exit 3) naming it, and nothing read
of it since the last committed batch is written."""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

from flows.errors import InputUnreadable

# (device, inode, size, modification time in ns): what a write, an append, a truncation or a
# rename over the file changes.
Stamp = tuple[int, int, int, int]


def stamp_of(path: Path) -> Stamp | None:
    """The file's stamp now; None when it is gone (or cannot be looked at)."""
    try:
        found = os.stat(path)
    except OSError:
        return None
    return (found.st_dev, found.st_ino, found.st_size, found.st_mtime_ns)


def stamps_of(paths: Iterable[Path]) -> dict[Path, Stamp]:
    """The stamps of the files that are there (a file already gone fails when it is read)."""
    found = {path: stamp_of(path) for path in paths}
    return {path: stamp for path, stamp in found.items() if stamp is not None}


def changed_file(stamps: dict[Path, Stamp], paths: Iterable[Path]) -> InputUnreadable | None:
    """The error naming the first of `paths` that is no longer as its stamp says; None when
    each is (a file not stamped is left to its reader)."""
    for path in paths:
        before = stamps.get(path)
        if before is None:
            continue
        now = stamp_of(path)
        if now == before:
            continue
        kept = "nothing read of it since the last committed batch was written"
        if now is None:
            said = f"the file was removed while it was read: {kept}; restore it, or run again"
        elif now[:2] != before[:2]:
            said = (
                f"the file was replaced by another (renamed over it) while it was read: {kept}; "
                "run again to read the new one"
            )
        else:
            grown = (
                f"{before[2]:,} bytes when the run began, {now[2]:,} now"
                if now[2] != before[2]
                else "written to since the run began"
            )
            said = (
                f"the file changed while it was read ({grown}): a file still being written? "
                f"Write it under another name ({path.name}.tmp) and rename it when complete; "
                f"{kept}, and the next run reads it again"
            )
        return InputUnreadable(f"{path}: {said}")
    return None


def check_unchanged(stamps: dict[Path, Stamp], paths: Iterable[Path]) -> None:
    """Raise changed_file's error, if any."""
    error = changed_file(stamps, paths)
    if error is not None:
        raise error


@contextmanager
def said_if_changed(stamps: dict[Path, Stamp], paths: Iterable[Path]) -> Iterator[None]:
    """A read that failed (its reader's error, or the file gone: FileNotFoundError, a bug's
    exit 1) because one of `paths` changed under it fails naming that file and what changed."""
    try:
        yield
    except (InputUnreadable, OSError) as exc:
        changed = changed_file(stamps, paths)
        if changed is None:
            raise
        raise changed from exc
