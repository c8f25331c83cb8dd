"""Database files hold logged conversations: new ones (and their WAL and snapshot) are
created 0600 unless --db-mode says otherwise (issue 22, item 12; they were 0644 under the
default umask)."""

from __future__ import annotations

import stat
import subprocess
import sys
from pathlib import Path

import pytest

from flows.cli.options import file_mode, umask_for
from tests.support.builders import many_cases, write

ROOT = Path(__file__).resolve().parents[3]
OPTIONS = ["--snapshot", "--prefect", "no", "--judge", "lexical"]
# `faith score` in a child whose umask is the usual 022, then, in the same process (the
# command's mode is the process's from then on), a write that leaves DuckDB's WAL in place.
CHILD = """
import os, sys
import duckdb
from flows.cli.commands import main
os.umask(0o022)
code = main(sys.argv[1:])
db = sys.argv[sys.argv.index("--db") + 1]
con = duckdb.connect(db)
con.execute("SET checkpoint_threshold = '1GB'")
con.execute("CREATE TABLE scratch AS SELECT 1 AS x")
print(code, oct(os.stat(db + ".wal").st_mode & 0o777))
os._exit(0)  # leave the WAL as it is
"""


def mode_of(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


# The default, and a mode written without its leading 0 (how "0640" parses: below).
@pytest.mark.parametrize(("given", "wanted"), [(None, 0o600), ("660", 0o660)])
def test_new_database_files_get_the_db_mode(tmp_path: Path, given: str | None, wanted: int) -> None:
    source = write(many_cases(20), tmp_path / "cases.parquet")
    db = tmp_path / "data" / "f.duckdb"
    mode = ["--db-mode", given] if given else []
    done = subprocess.run(
        [sys.executable, "-c", CHILD, "score", str(source), "--db", str(db), *mode, *OPTIONS],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    code, wal_mode = done.stdout.splitlines()[-1].split()
    assert code == "0"
    assert mode_of(db) == wanted
    assert int(wal_mode, 8) == wanted
    assert mode_of(db.with_name("f.duckdb.snapshot.duckdb")) == wanted
    assert mode_of(db.parent) & 0o700 == 0o700  # a folder it made stays usable


def test_modes_are_octal_with_or_without_the_leading_0() -> None:
    assert [file_mode(text) for text in ("0640", "640", "0660", "660")] == [0o640] * 2 + [0o660] * 2


@pytest.mark.parametrize("text", ["0400", "0644x", "0755", "1600"])
def test_a_mode_the_database_cannot_live_with_is_refused(text: str) -> None:
    with pytest.raises(Exception, match=r"mode|owner"):
        file_mode(text)


def test_the_umask_keeps_folders_enterable() -> None:
    assert umask_for(0o600) == 0o066
    assert umask_for(0o640) == 0o026
    assert (0o777 & ~umask_for(0o600)) == 0o711  # what a new folder gets
