"""A folder's files: every file below it (links followed, none skipped without a word) and
the log files among them, which a folder SOURCE reads."""

from __future__ import annotations

import os
from pathlib import Path
from typing import NoReturn

from flows.errors import InputUnreadable
from flows.read.read_options import ReadOptions, named_format
from flows.read.unread_names import check_unread_names, is_metadata


def files_below(folder: Path, options: ReadOptions | None = None) -> list[Path]:
    """Every file under `folder`, linked folders followed (a `region=us` link to another
    disk is logs like the rest; pathlib's rglob skips it without a word), each named by its
    path through the link, and a folder reached twice (a link to itself or above) read once.
    A link leading nowhere where `options` would read a log is refused."""
    found: list[Path] = []
    seen: set[tuple[int, int]] = set()
    for root, dirs, files in os.walk(folder, followlinks=True, onerror=_unlisted):
        stat = os.stat(root)
        if (stat.st_dev, stat.st_ino) in seen:
            dirs.clear()
            continue
        seen.add((stat.st_dev, stat.st_ino))
        dirs.sort()
        for name in files:
            if os.path.isfile(os.path.join(root, name)):
                found.append(Path(root, name))
            else:
                check_not_dangling(Path(root, name), options or ReadOptions())
                check_not_special(Path(root, name), options or ReadOptions())
    return found


def log_files_under(folder: Path, options: ReadOptions) -> list[Path]:
    """The folder's files of a format faithpipe reads. A CSV or JSON file under a name that
    starts with `_` or `.` is a table's metadata (Delta's `_delta_log/*.json`, Spark's
    `_SUCCESS`, hidden files), not logs: Parquet is read wherever it lies, as it always was."""
    below = files_below(folder, options)
    check_unread_names(below, folder)
    return sorted(
        path for path in below if named_format(path, options) and not is_metadata(path, folder)
    )


def check_not_dangling(path: Path, options: ReadOptions, *, any_name: bool = False) -> None:
    """A link that leads nowhere (a linked `region=us` folder on a disk not mounted, a log
    file moved away) held rows: exit 3 naming it, never skipped without a word. A hidden name
    (an editor's `.#a.jsonl` lock) is no log, nor, unless `any_name` (a glob with --format
    reads every file), a name no log is read by there (`notes.txt`, skipped as a file is)."""
    if path.name.startswith((".", "_")) or not path.is_symlink() or path.exists():
        return
    folder = not path.suffix or "=" in path.name  # `region=us`: its files' names unknown
    if any_name or folder or named_format(path, options):
        raise InputUnreadable(
            f"{path}: a link to {os.readlink(path)}, which does not exist (a disk not mounted, "
            "a file moved?): its rows cannot be read; mount or restore it, or remove the link"
        )


def check_not_special(path: Path, options: ReadOptions, *, any_name: bool = False) -> None:
    """A named pipe, a device or a socket under a log's name (a shipper's `live.jsonl`) is
    exit 3 naming it, as it is named alone, never skipped without a word; nothing opens it (a
    pipe's reader waits on its writer). Other names are skipped, as check_not_dangling's."""
    if path.name.startswith((".", "_")) or not path.exists() or path.is_file() or path.is_dir():
        return
    if any_name or named_format(path, options):
        raise InputUnreadable(
            f"{path}: not a file (a pipe, a device or a socket): its rows cannot be read as a "
            "log's; write the log to a file, or move it out of the source"
        )


def check_listable(folder: Path) -> None:
    """A SOURCE folder that cannot be listed is exit 3 naming it, before anything looks in."""
    try:
        os.scandir(folder).close()
    except OSError as error:
        _unlisted(error)


def _unlisted(error: OSError) -> NoReturn:
    """A folder os.walk cannot list would be skipped without a word: its rows are lost."""
    raise InputUnreadable(f"{error.filename}: cannot list this folder ({error.strerror})")
