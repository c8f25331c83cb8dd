"""`faith runs` at 80 columns: every column and date whole (one block a run when the table is
wider than the terminal), and plain aligned text when piped."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from flows.store.db import open_store

ANSI = re.compile(r"\x1b\[[0-9;]*m")
BOX = set("│┃━─┏┓└┘┡┩")


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("runs") / "faith.duckdb"
    con = open_store(path)
    for i in range(3):
        con.execute(
            "INSERT INTO runs (run_id, flow, config_id, config, source, status, started_at, "
            "rows_in, rows_scored, rows_newly_scored, rows_passed) VALUES "
            "(?, 'nightly', 'faith-ec398a547331a401', '{}', 'logs/', 'completed', "
            "TIMESTAMP '2026-10-21 02:00:00' + INTERVAL (?) DAY, 12412, 12412, 12412, 12001)",
            [f"20261021T020000-0000000{i}", i],
        )
    con.close()
    return path


def faith_runs(db: Path, **env: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "flows.cli", "runs", "--db", str(db)],
        capture_output=True,
        text=True,
        timeout=60,
        env={**{k: v for k, v in os.environ.items() if k != "FORCE_COLOR"}, **env},
        check=True,
    )
    return ANSI.sub("", done.stdout)


def test_runs_in_an_80_column_terminal_keep_every_value_whole(db: Path) -> None:
    text = faith_runs(db, COLUMNS="80", FORCE_COLOR="1")
    assert max(len(line) for line in text.splitlines()) <= 80
    assert "…" not in text
    for day in ("2026-10-21 02:00", "2026-10-22 02:00", "2026-10-23 02:00"):
        assert day in text
    assert text.count("20261021T020000-0000000") == 3
    assert re.search(r"pass_rate\s+0\.967", text)
    assert re.search(r"cost_per_1000\s", text)  # the last column too


def test_runs_in_a_wide_terminal_are_a_table(db: Path) -> None:
    text = faith_runs(db, COLUMNS="240", FORCE_COLOR="1")
    assert BOX & set(text)
    assert "2026-10-23 02:00" in text
    assert "…" not in text


def test_piped_runs_are_plain_aligned_text(db: Path) -> None:
    text = faith_runs(db)
    assert not BOX & set(text)
    header, first = text.splitlines()[1:3]
    assert header.split()[:4] == ["run_id", "flow", "status", "started"]
    assert first.split()[:5] == [
        "20261021T020000-00000002",
        "nightly",
        "completed",
        "2026-10-23",
        "02:00",
    ]
    assert header.index("pass_rate") == first.index("0.967")
