"""New database files as copies of one migrated empty database, made once per process.

Creating a database runs every table's, macro's and view's statement (~80 of the ~125 CPU-ms
open_store takes on a new file); a process that makes many (the test suite, a script that
scores into many databases) copies a template instead, made the second time it needs one (a
`faith score` makes one database: it creates it as before, at no extra cost). Linux only (an
unnamed file linked into place); elsewhere every database is made in place. The copy's
migration and definition times are set to its own creation, as if it had been made there."""

from __future__ import annotations

import os
import shutil
import tempfile
import threading
from collections.abc import Callable
from pathlib import Path

import duckdb

from flows.errors import DatabaseError
from flows.store.sql_files import sql


class _Template:
    """The process's template: the texts it is made of, how many databases of those were made
    in place, then the bytes of one (None: not made yet, or its making failed)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.made_of: object = None
        self.made_in_place = 0
        self.data: bytes | None = None
        self.failed = False


_TEMPLATE = _Template()


def place_new_database(
    path: Path, make: Callable[[Path], None], *, made_of: Callable[[], object]
) -> bool:
    """Put a migrated empty database at `path`, where there is no file, as a copy of the
    process's template of the schema texts `made_of()` (`make(file)` creates one there and
    closes it, the second time a database of those texts is needed); False when none was
    placed: the caller creates the database itself, as it always did (the first new database
    of a process or of other texts; a file already there, or a WAL a killed run left without
    its database, which DuckDB discards only when it makes the file itself; a template that
    could not be made; a folder or system that cannot take the copy, whose own error the
    caller reports)."""
    if str(path) == ":memory:" or path.exists() or not path.parent.is_dir():
        return False
    if Path(f"{path}.wal").exists():
        return False  # a copy is an existing database: DuckDB would replay that WAL into it
    texts = made_of()
    with _TEMPLATE.lock:
        if texts != _TEMPLATE.made_of:  # texts patched by a test, say: start again
            _TEMPLATE.made_of, _TEMPLATE.made_in_place = texts, 0
            _TEMPLATE.data, _TEMPLATE.failed = None, False
        if _TEMPLATE.failed:
            return False
        if _TEMPLATE.data is None:
            _TEMPLATE.made_in_place += 1
            if _TEMPLATE.made_in_place < 2:
                return False
            try:
                _TEMPLATE.data = _made_template(make)
            # the temporary folder refused it, or DuckDB or a migration did: the caller makes
            # the database as it always did, and says what is wrong with it (a bug is raised)
            except (OSError, duckdb.Error, DatabaseError):
                _TEMPLATE.failed = True
                return False
        data = _TEMPLATE.data
    return _copied(data, path)


def _made_template(make: Callable[[Path], None]) -> bytes:
    """The bytes of a closed, migrated empty database made by `make` in a temporary folder,
    which is removed at once."""
    folder = Path(tempfile.mkdtemp(prefix="faithpipe-template-"))
    try:
        file = folder / "template.duckdb"
        make(file)
        return file.read_bytes()
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _copied(template: bytes, path: Path) -> bool:
    """Write `template` to a file without a name in `path`'s folder (Linux's O_TMPFILE), on
    disk before it gets one, then link it at `path`: atomic, never over a file another process
    created meanwhile (link refuses it), and a process killed on the way leaves nothing behind.
    Any OS error, or a system without O_TMPFILE: False, nothing written."""
    unnamed = getattr(os, "O_TMPFILE", None)
    if unnamed is None:
        return False
    try:
        folder = os.open(path.parent, os.O_RDONLY | os.O_DIRECTORY)
    except OSError:
        return False
    try:
        fd = os.open(path.parent, unnamed | os.O_WRONLY, 0o666)  # umask applies, as to DuckDB
    except OSError:
        os.close(folder)
        return False
    try:
        with os.fdopen(fd, "wb", closefd=False) as out:
            out.write(template)
        os.fsync(fd)
        # linkat(2) with AT_SYMLINK_FOLLOW (a dir fd makes os.link use it; plain link(2) does
        # not follow /proc's link to the unnamed file: EXDEV)
        os.link(f"/proc/self/fd/{fd}", path.name, dst_dir_fd=folder, follow_symlinks=True)
    except OSError:
        return False
    finally:
        os.close(fd)
        os.close(folder)
    return True


def date_as_new(con: duckdb.DuckDBPyConnection) -> None:
    """A copied database's migrations and definitions dated now, as made in place."""
    con.execute(sql("date_new_database"))
    (defined,) = con.execute(sql("has_table"), {"name": "analysis_definitions"}).fetchall()[0]
    if defined:
        con.execute(sql("date_new_definitions"))
