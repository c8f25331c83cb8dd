"""`faith report --html FILE` where FILE cannot take the page: one `error:` line and exit 2
(a bad option value), said before any table when the path is wrong from the start. It once
ended in a bare IsADirectoryError or FileExistsError and exit 1."""

from __future__ import annotations

import errno
import resource
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from flows.cli.commands import main
from tests.support.builders import many_cases, write


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("scored")
    source = write(many_cases(6), folder / "cases.parquet")
    path = folder / "faith.duckdb"
    assert main(["score", str(source), "--db", str(path), "--prefect", "no"]) == 0
    return path


def report(db: Path, html: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(["report", "--db", str(db), "--html", str(html)])
    shown = capsys.readouterr()
    return code, shown.out, shown.err


def test_a_folder_is_a_usage_error_before_any_table(db: Path, tmp_path: Path, capsys) -> None:
    code, out, err = report(db, tmp_path, capsys)
    assert code == 2
    assert out == ""
    assert err.splitlines() == [
        f"error: cannot write the HTML report to {tmp_path}: it is a folder; "
        f"give --html a file name, e.g. {tmp_path / 'report.html'}"
    ]


def test_a_folder_not_made_yet_is_a_usage_error(db: Path, tmp_path: Path, capsys) -> None:
    """docs/report.md's `faith report --html reports/` where reports/ does not exist yet: the
    trailing slash names a folder, so no file called `reports` is written (it once was, exit
    0)."""
    capsys.readouterr()
    code = main(["report", "--db", str(db), "--html", f"{tmp_path / 'reports'}/"])
    shown = capsys.readouterr()
    assert code == 2
    assert shown.out == ""
    (line,) = shown.err.splitlines()
    assert line.startswith(f"error: cannot write the HTML report to {tmp_path / 'reports'}/: ")
    assert "it is a folder" in line
    assert not (tmp_path / "reports").exists()


def test_an_empty_path_is_said_to_be_empty(db: Path, capsys) -> None:
    """--html "" (an unset variable) was 'cannot write the HTML report to .: it is a folder'."""
    capsys.readouterr()
    assert main(["report", "--db", str(db), "--html", ""]) == 2
    assert capsys.readouterr().err.splitlines() == [
        "error: --html is empty: give it a file name (an unset variable?)"
    ]


@pytest.mark.parametrize("under", ["report.html", "sub/report.html"])
def test_a_path_under_a_file_is_a_usage_error(db: Path, tmp_path: Path, capsys, under: str) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    code, out, err = report(db, blocker / under, capsys)
    assert code == 2
    assert out == ""
    (line,) = err.splitlines()
    assert line.startswith("error: cannot write the HTML report to ")
    assert f"{blocker} is a file, not a folder" in line


@pytest.mark.parametrize(
    "target",
    ["the database read", "another database", "the database's WAL"],
)
def test_a_database_is_never_overwritten_by_the_page(
    db: Path, tmp_path: Path, capsys, target: str
) -> None:
    """`faith report --db faith.duckdb --html faith.duckdb` (the two options swapped or
    mistyped) wrote the page over the database it had just read, exit 0: every score lost.
    A DuckDB file, or the WAL of the database read, is refused as any path that cannot take the
    page is, and left as it was."""
    read = tmp_path / "faith.duckdb"
    read.write_bytes(db.read_bytes())
    other = tmp_path / "other.duckdb"
    other.write_bytes(db.read_bytes())
    wal = tmp_path / "faith.duckdb.wal"  # none now: the page there is replayed as a log
    html = {"the database read": read, "another database": other, "the database's WAL": wal}
    before = {path: path.read_bytes() for path in (read, other)}
    code, out, err = report(read, html[target], capsys)
    assert code == 2
    assert out == ""
    (line,) = err.splitlines()
    assert line.startswith(f"error: cannot write the HTML report to {html[target]}: it is ")
    assert line.endswith(f"; give --html another file, e.g. {html[target].with_suffix('.html')}")
    assert {path: path.read_bytes() for path in before} == before
    assert not wal.exists()


def test_a_refused_write_is_a_usage_error(
    db: Path, tmp_path: Path, capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise PermissionError(errno.EACCES, "Permission denied")

    monkeypatch.setattr(Path, "write_text", refuse)
    code, _, err = report(db, tmp_path / "report.html", capsys)
    assert code == 2
    (line,) = err.splitlines()
    assert "cannot write the HTML report to" in line
    assert "Permission denied" in line


def test_a_full_disk_is_not_a_usage_error(
    db: Path, tmp_path: Path, capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    def full(*args: object, **kwargs: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(Path, "write_text", full)
    code, _, err = report(db, tmp_path / "report.html", capsys)
    assert code == 7  # a full disk, wherever it is met (docs/exit-codes.md), not a usage error
    assert "No space left on device" in err


def test_a_good_path_is_written(db: Path, tmp_path: Path, capsys) -> None:
    target = tmp_path / "new" / "folder" / "report.html"
    code, out, _ = report(db, target, capsys)
    assert code == 0
    assert target.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert "HTML report:" in out
    # the next night's report is written over this one, and over an empty file
    empty = tmp_path / "touched.html"
    empty.touch()
    for again in (target, empty):
        assert report(db, again, capsys)[0] == 0
        assert again.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


def test_a_file_that_is_no_html_page_is_never_overwritten(db: Path, tmp_path: Path, capsys) -> None:
    """`--html logs/day1.parquet` (a path completed to the wrong file) wrote the page over the
    logs, exit 0."""
    logs = write(many_cases(2), tmp_path / "day1.parquet")
    before = logs.read_bytes()
    code, out, err = report(db, logs, capsys)
    assert (code, out) == (2, "")
    (line,) = err.splitlines()
    assert line.startswith(f"error: cannot write the HTML report to {logs}: it is a file that")
    assert logs.read_bytes() == before


def test_a_page_opening_with_a_comment_is_written_over(db: Path, tmp_path: Path, capsys) -> None:
    """An HTML page may open with a comment (a browser's `<!-- saved from url=... -->`, a
    header someone added to last night's report): it is a page, written over as one."""
    saved = tmp_path / "report.html"
    saved.write_text("<!-- saved from url=(0014)about:internet -->\n<!DOCTYPE html>\n<html></html>")
    assert report(db, saved, capsys)[0] == 0
    assert saved.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


def test_a_refused_html_name_is_not_offered_back(db: Path, tmp_path: Path, capsys) -> None:
    """A `.html` file holding a log is refused; the name offered instead is another one, not
    the refused name itself."""
    logged = tmp_path / "chat.html"
    logged.write_text('{"role": "user", "content": "hi"}\n')
    code, _, err = report(db, logged, capsys)
    assert code == 2
    (line,) = err.splitlines()
    assert not line.endswith(f"e.g. {logged}"), line
    assert logged.read_text() == '{"role": "user", "content": "hi"}\n'


ROOT = Path(__file__).resolve().parents[3]


def test_a_report_cut_short_leaves_the_last_one_whole(db: Path, tmp_path: Path, capsys) -> None:
    """A page that cannot be written whole (a full disk; here the file-size limit, EFBIG) is
    exit 7 and leaves last night's report as it was: it was truncated to the bytes written,
    half a page for the web server to serve, and no temporary file is left beside it."""
    target = tmp_path / "site" / "report.html"
    assert report(db, target, capsys)[0] == 0
    before = target.read_bytes()

    def limit() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (100_000, 100_000))

    done = subprocess.run(
        [sys.executable, "-m", "flows.cli", "report", "--db", str(db), "--html", str(target)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        preexec_fn=limit,  # the child only sets a limit before exec
    )
    assert done.returncode == 7, done.stderr
    assert "File too large" in done.stderr
    assert target.read_bytes() == before
    assert [p.name for p in target.parent.iterdir()] == ["report.html"]


def test_a_report_written_again_keeps_its_mode_and_its_link(
    db: Path, tmp_path: Path, capsys
) -> None:
    """The page replaces the file a link names, not the link, and keeps the file's mode (a
    report made readable to a web server stays so)."""
    served = tmp_path / "www" / "report.html"
    assert report(db, served, capsys)[0] == 0
    served.chmod(0o644)
    link = tmp_path / "report.html"
    link.symlink_to(served)
    served.write_text("<!DOCTYPE html><p>last night's</p>", encoding="utf-8")
    assert report(db, link, capsys)[0] == 0
    assert link.is_symlink()
    assert "faithpipe report" in served.read_text(encoding="utf-8")
    assert served.stat().st_mode & 0o777 == 0o644
    assert sorted(p.name for p in served.parent.iterdir()) == ["report.html"]


def test_a_report_whose_folder_takes_no_new_file_is_written_in_place(
    db: Path, tmp_path: Path, capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A report file you may write in a folder you may not add to (or a sticky /tmp holding
    another user's file): the rename is refused, and the page is written in place, as before
    it was written aside (root passes every permission check: the refusal is planted)."""
    target = tmp_path / "report.html"
    assert report(db, target, capsys)[0] == 0
    target.write_text("<!DOCTYPE html><p>last night's</p>", encoding="utf-8")

    def refuse(*args: object) -> None:
        raise PermissionError(errno.EPERM, "Operation not permitted")

    monkeypatch.setattr("os.replace", refuse)
    assert report(db, target, capsys)[0] == 0
    assert "faithpipe report" in target.read_text(encoding="utf-8")
    assert [p.name for p in tmp_path.iterdir()] == ["report.html"]
