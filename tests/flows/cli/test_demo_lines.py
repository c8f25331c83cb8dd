"""`faith demo` says what it is about to do, and keeps saying it is at work while Prefect's
temporary server starts in silence (issue 21, item 7)."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import polars as pl
import pytest

from flows.cli import demo
from flows.cli.options import SERVER_START

ROOT = Path(__file__).resolve().parents[3]


def test_the_first_line_names_the_route_and_the_servers_cost(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    sample = tmp_path / "cases.parquet"
    monkeypatch.delenv("PREFECT_API_URL", raising=False)
    monkeypatch.delenv("PREFECT_PROFILE", raising=False)
    monkeypatch.setenv("PREFECT_HOME", str(tmp_path))  # no profile: no server configured
    line = demo.doing(sample, prefect=True)
    assert line.startswith("scoring cases.parquet with the grounded judge as a Prefect flow")
    assert f"temporary one ({SERVER_START}; --prefect no skips it)" in line
    assert demo.doing(sample, prefect=False).endswith("(plain local run)")
    monkeypatch.setenv("PREFECT_API_URL", "http://127.0.0.1:4200/api")
    assert "on the server PREFECT_API_URL names" in demo.doing(sample, prefect=True)


@pytest.mark.timeout(30)
def test_a_long_step_is_ticked_until_it_ends(monkeypatch: pytest.MonkeyPatch) -> None:
    said: list[str] = []
    ticked = threading.Event()

    def record(line: str) -> None:
        said.append(line)
        if len(said) == 2:
            ticked.set()

    monkeypatch.setattr(demo, "say", record)
    with demo.ticking(0.01):
        assert ticked.wait(20)  # the block lasts until two ticks were said: no clock promise
    ended = len(said)
    assert all(line.startswith("still at work, ") for line in said)
    assert "s so far (Prefect's server starts first" in said[0]
    threading.Event().wait(0.1)  # ten periods after the block: the ticker has stopped
    assert len(said) == ended


@pytest.mark.slow
def test_the_demo_on_a_temporary_server_ends_without_a_prefect_error(tmp_path: Path) -> None:
    """The README's first command, on its real route: Prefect starts a temporary server, the
    flow runs, the server stops. `faith` ends with os._exit, so the flow's queued logs used
    to be sent after atexit had stopped the server: every run ended in '--- Error logging to
    API ---'. They are sent first now (stop_signals.send_prefect_logs)."""
    env = {k: v for k, v in os.environ.items() if k != "PREFECT_API_URL"}
    sample, db = tmp_path / "cases.parquet", tmp_path / "f.duckdb"
    pl.read_parquet(ROOT / "data" / "sample" / "cases.parquet").head(50).write_parquet(sample)
    done = subprocess.run(
        [sys.executable, "-m", "flows", "demo", "--source", str(sample), "--db", str(db)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=540,  # the server's start: ~10 s quiet, minutes under load (a hang guard)
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "Starting temporary server" in done.stderr
    assert "Error logging to API" not in done.stdout + done.stderr
    assert "Stopping temporary server" in done.stderr.rstrip().splitlines()[-1]  # the last word


def test_a_demo_source_past_the_quarantine_share_prints_its_run_line_then_exits_11(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`faith demo --source FILE` on a source whose rows are half quarantined keeps the run
    and ends 11, as `faith score` does: its run line on stdout first (docs/exit-codes.md),
    where the demo used to print only the error line."""
    from flows.cli import main

    sample = tmp_path / "cases.parquet"
    cases = pl.read_parquet(ROOT / "data" / "sample" / "cases.parquet").head(4)
    cases.with_columns(
        actual_output=pl.when(pl.int_range(pl.len()) < 2)
        .then(pl.lit("  "))
        .otherwise(pl.col("actual_output"))
    ).write_parquet(sample)
    code = main(["demo", "--prefect", "no", "--source", str(sample), "--db", str(tmp_path / "d")])
    out, err = capsys.readouterr()
    assert code == 11
    assert "4 rows in = 2 scored (2 new) + 0 invalid + 0 pending + 2 quarantined" in out
    assert "error: run " in err
    assert "--max-quarantine-share" in err


def test_a_demo_source_of_other_column_names_points_to_faith_score_for_columns(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The reader's advice `name yours with --columns ...` named an option `faith demo` does
    not have (it refuses `--columns` with exit 2): the line now says whose option it is."""
    from flows.cli import main

    sample = tmp_path / "cases.parquet"
    cases = pl.read_parquet(ROOT / "data" / "sample" / "cases.parquet").head(4)
    cases.rename({"actual_output": "answer"}).write_parquet(sample)
    code = main(["demo", "--prefect", "no", "--source", str(sample), "--db", str(tmp_path / "d")])
    (line,) = capsys.readouterr().err.splitlines()
    assert code == 3
    assert "missing required column actual_output" in line
    assert line.endswith(
        f"--columns NAME=COLUMN,... (an option of `faith score {sample}`: faith demo reads "
        "--source as it is)"
    )
    with pytest.raises(SystemExit) as refused:  # argparse's exit, in this process
        main(["demo", "--source", str(sample), "--columns", "actual_output=answer"])
    assert refused.value.code == 2
    assert "unrecognized arguments: --columns" in capsys.readouterr().err


def test_a_demo_source_that_does_not_exist_is_named_not_the_bundled_sample(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`faith demo --source typo.parquet` said the bundled sample was missing and to
    regenerate it with data/generate.py; the sample was there, the user's file was not."""
    from flows.cli import main

    missing = tmp_path / "typo.parquet"
    code = main(["demo", "--prefect", "no", "--source", str(missing), "--db", str(tmp_path / "d")])
    (line,) = capsys.readouterr().err.splitlines()
    assert code == 3
    assert line == f"error: {missing}: no such file (faith demo --source)"
    assert not list(tmp_path.glob("d*"))
