"""Scratch folders in the temporary folder that a killed process does not leave for good.

A run's scratch (mended copies of a log, DuckDB's spill) is removed when the run ends, but a
SIGKILL, the OOM killer or a lost machine ends it first: a night killed every time left a copy
of its log behind each night. A lock file in each folder is held (flock) by the process using
it; a later faithpipe process removes the folders whose lock nobody holds, once they are a
minute old (a folder just made is locked a moment after), whatever the process ids say (other
containers sharing the folder have other ones). The lock goes with the process, however it
ends."""

from __future__ import annotations

import contextlib
import fcntl
import os
import shutil
import stat
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

PREFIX = "faithpipe-"
# The scratch folders there are, by what they hold: only these names are ever swept (another
# program's, or a user's own `faithpipe-backup`, are not ours to remove).
KINDS = ("mended", "ids", "turns", "json")
# The file each folder's process holds locked: a file, which network file systems lock for
# every machine (flock on a folder fd is one kernel's lock only).
LOCK = ".faithpipe-lock"
# A folder younger than this is never swept: between its making and its lock, it is unlocked.
SWEEP_AFTER_SECONDS = 60.0


class _Swept:
    """Whether this process has swept already: once is enough (the folder may be long)."""

    done = False


@contextmanager
def scratch_folder(kind: str) -> Iterator[Path]:
    """A new folder `faithpipe-<kind>-*` in the temporary folder, locked while in use, removed
    after; dead processes' folders are swept first (once a process)."""
    if kind not in KINDS:
        raise ValueError(f"scratch folders are of the kinds {KINDS}, not {kind!r}")
    if not _Swept.done:
        _Swept.done = True
        sweep_dead_scratch()
    folder = Path(tempfile.mkdtemp(prefix=f"{PREFIX}{kind}-"))
    try:  # removed however it ends, a lock file it could not take (a full disk) included
        lock = os.open(folder / LOCK, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            # A file system without flock (some network ones) fails the sweepers' flock the
            # same way, so the folder is never swept there: the run goes on as before locks.
            with contextlib.suppress(OSError):
                fcntl.flock(lock, fcntl.LOCK_EX)
            yield folder
        finally:
            os.close(lock)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def sweep_dead_scratch(now: float | None = None) -> list[Path]:
    """Remove this user's scratch folders that no process holds and that are a minute old or
    more; returns those removed. Anything unexpected leaves a folder as it is."""
    now = time.time() if now is None else now
    removed = []
    for kind in KINDS:
        # mkdtemp's eight characters exactly: a user's `faithpipe-mended-keep` is not ours
        for folder in Path(tempfile.gettempdir()).glob(f"{PREFIX}{kind}-{'?' * 8}"):
            with contextlib.suppress(OSError):
                if _unheld(folder, now):
                    shutil.rmtree(folder)
                    removed.append(folder)
    return removed


def _unheld(folder: Path, now: float) -> bool:
    """Whether `folder` is an old scratch folder of this user that no process has locked."""
    facts = folder.lstat()  # a symlink is no folder here
    if not stat.S_ISDIR(facts.st_mode) or facts.st_uid != os.getuid():
        return False
    if now - facts.st_mtime < SWEEP_AFTER_SECONDS:
        return False
    try:
        lock = os.open(folder / LOCK, os.O_RDWR)
    except FileNotFoundError:
        return True  # an older faithpipe's (no lock file), a minute old: nobody's
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False  # its process is alive
    finally:
        os.close(lock)  # a lock taken here goes with it
    return True
