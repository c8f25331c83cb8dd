"""Database faults have exit classes of their own, each one line (issue 22, item 8): a file
that cannot be written (read-only mount, immutable file) is exit 12, a damaged one (cut short,
a failed block checksum) exit 13, and a file that is no faithpipe database stays exit 5. The
command runs in this process (`main`, its stderr captured) but where the fault needs a process
of its own: the read-only mount, in a mount namespace of the child's own."""

from __future__ import annotations

import errno
import os
import shutil
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest

import flows.store.db
from flows.cli import main
from flows.cli.commands import failure
from flows.errors import DatabaseCorrupt, DatabaseUnwritable
from flows.run.pipeline import run_score
from flows.run.settings import ScoreSettings
from flows.store.db import database_fault, migrations, open_store
from tests.support.builders import many_cases, write

ROOT = Path(__file__).resolve().parents[3]
BLOCK = 262_144  # DuckDB's block size; the file's three header blocks come first
HEADERS = 3 * 4096
LATEST = migrations()[-1][0]


@pytest.fixture(scope="module")
def scored(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A source and a database that scored it (checkpointed on close: no WAL)."""
    folder = tmp_path_factory.mktemp("faults")
    source = write(many_cases(200), folder / "cases.parquet")
    db = folder / "good.duckdb"
    run_score(ScoreSettings(source=str(source), db=str(db), judge={"kind": "lexical"}))
    return source, db


def faith(*args: str, wrap: list[str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [*(wrap or []), sys.executable, "-m", "flows.cli", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def one_error(stderr: str) -> str:
    errors = [line for line in stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1, stderr
    assert "Traceback" not in stderr
    return errors[0]


SCORE = ["--prefect", "no", "--judge", "lexical"]


def score(source: Path, db: Path, wrap: list[str]) -> subprocess.CompletedProcess:
    return faith("score", str(source), "--db", str(db), *SCORE, wrap=wrap)


def score_here(source: Path, db: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    """`faith score` in this process: its exit code and its stderr."""
    capsys.readouterr()
    code = main(["score", str(source), "--db", str(db), *SCORE])
    return code, capsys.readouterr().err


def test_a_truncated_database_is_exit_13(
    scored: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source, good = scored
    db = tmp_path / "cut.duckdb"
    db.write_bytes(good.read_bytes()[: good.stat().st_size // 2])
    code, stderr = score_here(source, db, capsys)
    assert code == 13, stderr
    assert "corrupt" in one_error(stderr)
    assert main(["runs", "--db", str(db)]) == 13
    one_error(capsys.readouterr().err)


def test_a_block_failing_its_checksum_is_exit_13(
    scored: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source, good = scored
    data = bytearray(good.read_bytes())
    for start in range(HEADERS, len(data), BLOCK):
        data[min(start + 4096, len(data) - 1)] ^= 0xFF  # inside each block, past its checksum
    db = tmp_path / "flipped.duckdb"
    db.write_bytes(bytes(data))
    code, stderr = score_here(source, db, capsys)
    assert code == 13, stderr
    assert "checksum" in one_error(stderr)


def test_a_file_that_is_no_duckdb_database_stays_exit_5(
    scored: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source, good = scored
    data = bytearray(good.read_bytes())
    data[8:40] = b"not a database header, not at all"[:32]
    db = tmp_path / "foreign.duckdb"
    db.write_bytes(bytes(data))
    code, stderr = score_here(source, db, capsys)
    assert code == 5, stderr
    one_error(stderr)


@pytest.mark.parametrize("command", ["score", "report", "runs"])
def test_a_db_that_is_a_pipe_is_exit_5_and_left_as_it_was(
    scored: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    """A pipe, a device or a socket has size 0, as an empty file has: `faith score` unlinked
    it to make a new database there (`--db /dev/null`, run as root, deleted /dev/null)."""
    source, _ = scored
    db = tmp_path / "pipe.duckdb"
    os.mkfifo(db)
    capsys.readouterr()
    args = ["score", str(source), *SCORE] if command == "score" else [command]
    code = main([*args, "--db", str(db)])
    stderr = capsys.readouterr().err
    assert code == 5, stderr
    assert "not a database file but a pipe, a device or a socket" in one_error(stderr)
    assert db.is_fifo()


def test_an_immutable_database_is_exit_12(
    scored: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source, good = scored
    db = tmp_path / "immutable.duckdb"
    shutil.copyfile(good, db)
    if subprocess.run(["chattr", "+i", str(db)], capture_output=True, check=False).returncode:
        pytest.skip("chattr +i is not possible here (needs CAP_LINUX_IMMUTABLE)")
    try:
        code, stderr = score_here(source, db, capsys)
    finally:
        subprocess.run(["chattr", "-i", str(db)], check=True)
    assert code == 12, stderr
    assert "cannot be written" in one_error(stderr)


def test_a_database_on_a_read_only_mount_is_exit_12(
    scored: tuple[Path, Path], tmp_path: Path
) -> None:
    """A read-only bind mount in a mount namespace of the child's own (`unshare`)."""
    source, good = scored
    folder = tmp_path / "mounted"
    folder.mkdir()
    shutil.copyfile(good, folder / "f.duckdb")
    mount = ["unshare", "-rm", "sh", "-c", f'mount --bind -o ro "{folder}" "{folder}" && exec "$@"']
    probe = subprocess.run([*mount, "x", "true"], capture_output=True, check=False)
    if probe.returncode:
        pytest.skip(f"no read-only mount possible here ({probe.stderr.decode().strip()})")
    # an existing file, a new one, a new one in a folder to be made (was exit 1, an OSError)
    for db in (folder / "f.duckdb", folder / "new.duckdb", folder / "sub" / "new.duckdb"):
        done = score(source, db, wrap=[*mount, "x"])
        assert done.returncode == 12, done.stderr
        assert "read-only file system" in one_error(done.stderr).lower()


def test_a_db_folder_that_cannot_be_made_is_one_line_12(
    scored: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--db under a path that is a file: its folder cannot be made (was exit 1, FileExistsError
    with a hint to rerun with -v)."""
    source, _ = scored
    (tmp_path / "a-file").write_text("")
    code, stderr = score_here(source, tmp_path / "a-file" / "sub" / "f.duckdb", capsys)
    assert code == 12, stderr
    assert "its folder cannot be created" in one_error(stderr)


@pytest.mark.parametrize(
    ("number", "code"),
    [(errno.EACCES, 12), (errno.EROFS, 12), (errno.ENOSPC, 7), (errno.EDQUOT, 7)],
)
def test_the_db_folder_s_os_error_has_its_exit_code(
    scored: tuple[Path, Path],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    number: int,
    code: int,
) -> None:
    """What a non-root user meets (no permission on the parent) and a full disk."""
    source, _ = scored

    def refuse(self: Path, *args: object, **kwargs: object) -> None:
        raise OSError(number, os.strerror(number), str(self))

    monkeypatch.setattr(Path, "mkdir", refuse)
    got, stderr = score_here(source, tmp_path / "missing" / "f.duckdb", capsys)
    assert got == code, stderr
    assert os.strerror(number) in one_error(stderr)


@pytest.mark.parametrize(
    ("message", "kind"),
    [
        ('IO Error: Cannot open file "f.duckdb": Read-only file system', DatabaseUnwritable),
        ('IO Error: Cannot open file "f.duckdb": Operation not permitted', DatabaseUnwritable),
        ('IO Error: Cannot open file "f.duckdb": Permission denied', DatabaseUnwritable),
        ("IO Error: Could not read enough bytes from file: attempted to read 8", DatabaseCorrupt),
        ("Corrupt database file: computed checksum 1 does not match stored 2", DatabaseCorrupt),
    ],
)
def test_the_classification_reads_duckdb_and_the_os_words(message: str, kind: type) -> None:
    """What a non-root user meets (a 0444 file: permission denied) is classified alike."""
    fault = database_fault(duckdb.IOException(message), "f.duckdb")
    assert isinstance(fault, kind)
    code, line = failure(duckdb.IOException(message), "f.duckdb")
    assert code == kind.exit_code
    assert "\n" not in line


def test_other_duckdb_errors_are_not_database_faults() -> None:
    assert database_fault(duckdb.IOException("IO Error: No space left on device"), "f") is None
    assert database_fault(ValueError("Read-only file system"), "f") is None


def small_disk(folder: Path, size: str) -> list[str]:
    """A command prefix that runs the command with a tmpfs of `size` mounted on `folder`, in a
    mount namespace of its own (`unshare`): a disk that fills up for real."""
    script = f'mount -t tmpfs -o size={size} tmpfs "{folder}" && exec "$@"'
    mount = ["unshare", "-rm", "sh", "-c", script]
    probe = subprocess.run([*mount, "x", "true"], capture_output=True, check=False)
    if probe.returncode:
        pytest.skip(f"no tmpfs mount possible here ({probe.stderr.decode().strip()})")
    return [*mount, "x"]


def test_a_full_disk_before_the_first_batch_is_exit_7(
    scored: tuple[Path, Path], tmp_path: Path
) -> None:
    """A new database on a disk too full for its tables, and an existing one on a disk too
    full for the run's row: was exit 1 ("TransactionException: … No space left on device"),
    a bug's code, where exit-codes.md says a full disk is 7."""
    source, good = scored
    folder = tmp_path / "disk"
    folder.mkdir()
    new = score(source, folder / "new.duckdb", wrap=small_disk(folder, "64k"))
    assert new.returncode == 7, new.stderr
    assert "no space left on device" in one_error(new.stderr).lower()
    fill = f'cp "{good}" "{folder}/f.duckdb"; cat /dev/zero > "{folder}/filler"; exec "$@"'
    wrap = [*small_disk(folder, f"{good.stat().st_size + 65536}"), "sh", "-c", fill, "x"]
    existing = score(source, folder / "f.duckdb", wrap=wrap)
    assert existing.returncode == 7, existing.stderr
    assert "the disk is full" in one_error(existing.stderr)


@pytest.mark.parametrize("engine", ["local", "dask"])
def test_a_new_database_on_a_disk_already_full_is_exit_7(
    scored: tuple[Path, Path], tmp_path: Path, engine: str
) -> None:
    """DuckDB cannot even create the file's first block: `Could not write file ...: No space
    left on device` at connect was exit 5 ("not a faithpipe database"), raw DuckDB words and
    no remedy. Refused before a Dask cluster starts, too."""
    source, _ = scored
    folder = tmp_path / "disk"
    folder.mkdir()
    fill = f'cat /dev/zero > "{folder}/filler" 2>/dev/null; exec "$@"'
    wrap = [*small_disk(folder, "64k"), "sh", "-c", fill, "x"]
    done = faith(
        "score", str(source), "--db", str(folder / "new.duckdb"), *SCORE, "--engine", engine,
        wrap=wrap,
    )  # fmt: skip
    assert done.returncode == 7, done.stderr
    line = one_error(done.stderr)
    assert line.startswith(f"error: {folder / 'new.duckdb'}: the database cannot be created")
    assert "the disk is full" in line
    assert "No space left on device" in line


@pytest.mark.parametrize(
    "exc",
    [
        OSError(errno.ENOSPC, os.strerror(errno.ENOSPC)),
        duckdb.TransactionException(
            'TransactionContext Error: Failed to commit: Could not write file "f.duckdb.wal": '
            "No space left on device"
        ),
    ],
)
def test_a_full_disk_is_exit_7_wherever_it_is_raised(exc: BaseException) -> None:
    code, line = failure(exc, "f.duckdb")
    assert code == 7
    assert "free disk space" in line


# A command whose disk fills up as its run completes, just before its snapshot is written.
FILLED_BEFORE_SNAPSHOT = """
import sys
from flows.nightly import nightly_run
from flows.run import run_end
write_snapshot = run_end.write_snapshot
def fill_then_write(con, db):
    # at most 64 MiB, twice the test's tmpfs: never a real disk filled, should it be one
    with open(sys.argv[1], "wb", buffering=0) as filler:
        try:
            for _ in range(1024):
                filler.write(bytes(65536))
        except OSError:
            pass
    return write_snapshot(con, db)
run_end.write_snapshot = nightly_run.write_snapshot = fill_then_write
from flows.cli import main
sys.exit(main(sys.argv[2:]))
"""


@pytest.mark.parametrize("command", ["score", "nightly"])
def test_a_snapshot_the_disk_is_too_full_for_leaves_the_run_completed(
    scored: tuple[Path, Path], tmp_path: Path, command: str
) -> None:
    """The snapshot's checkpoint failing on a full disk invalidates the connection (DuckDB's
    FatalException): reading the run's row after it was exit 1, with no run line, for a run
    whose every batch was committed. The snapshot is best-effort: its failure is one line."""
    source, _ = scored
    folder = tmp_path / "disk"
    folder.mkdir()
    db = folder / "f.duckdb"
    argv = [sys.executable, "-c", FILLED_BEFORE_SNAPSHOT, str(folder / "filler")]
    argv += [command, str(source), "--db", str(db), "--snapshot", *SCORE]
    done = subprocess.run(
        [*small_disk(folder, "32m"), *argv],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "completed: 200 rows in = 200 scored" in done.stdout
    assert not [line for line in done.stderr.splitlines() if line.startswith("error:")]
    assert "no snapshot of" in done.stderr
    assert "no space left on device" in done.stderr.lower()


def test_an_upgrade_past_the_file_size_limit_is_exit_7_and_leaves_the_old_database(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A database an older faithpipe made (migrations to 7), upgraded by a run whose file size
    limit (`ulimit -f`, EFBIG) stops the migrations' write-ahead log: was exit 1, a bug's
    `TransactionException: … File too large`; the database stays as it was and opens later."""
    db = tmp_path / "old.duckdb"
    with monkeypatch.context() as old:
        old.setattr(flows.store.db, "migrations", lambda: [m for m in migrations() if m[0] <= 7])
        open_store(db).close()
    source = write(many_cases(20), tmp_path / "cases.parquet")

    limited = score(source, db, wrap=["sh", "-c", 'ulimit -f 1 && exec "$@"', "x"])
    assert limited.returncode == 7, limited.stderr
    assert "File too large" in one_error(limited.stderr)
    assert "(ulimit -f)" in one_error(limited.stderr)
    con = duckdb.connect(str(db), read_only=True)
    try:  # as the older faithpipe left it, or some migrations further: each is one transaction
        assert con.execute("SELECT max(version) FROM schema_migrations").fetchone()[0] < LATEST
    finally:
        con.close()

    assert score(source, db, wrap=[]).returncode == 0  # the limit lifted, the upgrade goes on


def test_a_file_past_its_size_limit_is_exit_7_wherever_it_is_raised() -> None:
    exc = duckdb.TransactionException(
        'TransactionContext Error: Failed to commit: Could not write file "f.duckdb.wal": '
        "File too large"
    )
    code, line = failure(exc, "f.duckdb")
    assert code == 7
    assert "raise the limit" in line
