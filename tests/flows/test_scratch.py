"""A run's scratch folders (mended copies of a log, DuckDB's spill) are removed when it ends;
those of a process killed first (SIGKILL, the OOM killer) are removed by the next faithpipe
process, never those of a process still using them."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

import flows.scratch
from flows.scratch import scratch_folder, sweep_dead_scratch

ROOT = Path(__file__).resolve().parents[2]

HOLDER = """
import sys, time
from flows.scratch import scratch_folder
with scratch_folder("turns") as folder:
    (folder / "spill.tmp").write_bytes(b"x" * 1000)
    print(folder, flush=True)
    time.sleep(600)
"""
LATER = 3600.0  # sweeps as if an hour had passed: every folder old enough


@pytest.fixture
def temp_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The temporary folder of this test's processes: the machine's is left alone."""
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    return tmp_path


def holder() -> tuple[subprocess.Popen[str], Path]:
    """A process using a scratch folder, and that folder."""
    child = subprocess.Popen(
        [sys.executable, "-c", HOLDER], cwd=ROOT, stdout=subprocess.PIPE, text=True
    )
    assert child.stdout is not None
    return child, Path(child.stdout.readline().strip())


def test_a_killed_processs_folder_is_swept_and_a_live_ones_is_not(temp_folder: Path) -> None:
    alive, kept = holder()
    killed, left = holder()
    try:
        killed.send_signal(signal.SIGKILL)
        killed.wait(timeout=60)
        assert left.is_dir()  # what a SIGKILL leaves
        assert sweep_dead_scratch(now=time.time() + LATER) == [left]
        assert not left.exists()
        assert (kept / "spill.tmp").stat().st_size == 1000  # in use: untouched
    finally:
        for child in (alive, killed):
            child.kill()
            child.wait(timeout=60)
            assert child.stdout is not None
            child.stdout.close()
    assert sweep_dead_scratch(now=time.time() + LATER) == [kept]


def test_a_folder_a_minute_old_or_less_is_not_swept(temp_folder: Path) -> None:
    """Between mkdtemp and its lock a folder is unlocked: only older ones are looked at."""
    young = Path(tempfile.mkdtemp(prefix="faithpipe-turns-"))
    assert sweep_dead_scratch() == []
    assert young.is_dir()
    assert sweep_dead_scratch(now=time.time() + LATER) == [young]


def test_only_faithpipes_scratch_kinds_are_swept(temp_folder: Path) -> None:
    """A user's own `faithpipe-backup` or `faithpipe-mended-keep`, the Prefect test server's
    folder, a symlink named like scratch: none is faithpipe's scratch to remove."""
    theirs = temp_folder / "faithpipe-backup"
    theirs.mkdir()
    server = Path(tempfile.mkdtemp(prefix="faithpipe-prefect-"))
    elsewhere = temp_folder / "elsewhere"
    elsewhere.mkdir()
    (temp_folder / "faithpipe-json-linklink").symlink_to(elsewhere)  # mkdtemp's length
    (temp_folder / "faithpipe-mended-keep").mkdir()
    assert sweep_dead_scratch(now=time.time() + LATER) == []
    assert (temp_folder / "faithpipe-mended-keep").is_dir()
    assert theirs.is_dir()
    assert server.is_dir()
    assert elsewhere.is_dir()


def test_a_scratch_folder_is_removed_after_use_and_sweeps_once_a_process(
    temp_folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(flows.scratch._Swept, "done", False)
    dead = Path(tempfile.mkdtemp(prefix="faithpipe-mended-"))
    os.utime(dead, (time.time() - LATER, time.time() - LATER))  # an hour old, nobody's
    with scratch_folder("ids") as folder:
        assert not dead.exists()  # swept on the way in
        (folder / "part").write_text("spilled")
        again = Path(tempfile.mkdtemp(prefix="faithpipe-mended-"))
        os.utime(again, (time.time() - LATER, time.time() - LATER))
        with scratch_folder("json") as inner:
            assert again.is_dir()  # not twice a process: the folder may be long
            assert inner.is_dir()
    assert not folder.exists()
    assert sorted(p.name for p in temp_folder.iterdir()) == [again.name]
    with pytest.raises(ValueError, match="kinds"), scratch_folder("other"):
        pass


def test_a_folder_whose_lock_file_cannot_be_made_is_removed_all_the_same(
    temp_folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The lock file refused (here: its folder missing; a full disk alike): the error is the
    caller's, and the scratch folder mkdtemp made is not left behind."""
    monkeypatch.setattr(flows.scratch, "LOCK", "missing/.faithpipe-lock")
    with pytest.raises(FileNotFoundError), scratch_folder("turns"):
        pass
    assert list(temp_folder.iterdir()) == []
