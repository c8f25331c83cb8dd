"""What the stop trials (tests/flows/run/test_stops*.py) share: a multi-batch `faith score` in
a child process, the signal sent at a chosen progress line, and the stop's bound measured
against the same child's start-up. The child holds with three batches left until the test has
sent its signal, so a few batches suffice however slow the machine. Split over several
files so `--dist loadfile` runs them on both workers; each file builds its own source and
uninterrupted baseline."""

from __future__ import annotations

import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from polars.testing import assert_frame_equal

from flows.run.pipeline import run_score
from flows.run.settings import ScoreSettings
from flows.store.db import open_store
from tests.flows.run.test_crash_resume import runs, snapshot
from tests.support.builders import many_cases, write

ROOT = Path(__file__).resolve().parents[2]
# Eight batches (a batch costs about the same whatever its rows): "batch 5:" leaves three.
N_CASES, BATCH = 160, 20
# The hold is at the latest cue ("batch 5:"), with three batches left: a test starved at load 8
# read its "batch 3:" cue only once the child held, and a hold with one batch left let that
# batch, already under way, commit as the stop drained: the run ended `completed`.
HOLD_AT = N_CASES // BATCH - 3
# The promise (docs/scoring.md, Stopping): a stop ends the process within 5 s. A loaded machine
# slows exiting as it slows starting, so each bound adds the child's own start (spawn to first
# line), measured in the same test: on a quiet machine that is ~1-2 s, under load it grows.
EXIT_WITHIN = 5.0
OPTIONS = ["--batch-size", str(BATCH), "--prefect", "no", "--judge", "lexical"]
PREFECT = ["--batch-size", str(BATCH), "--prefect", "yes", "--judge", "lexical"]
# `faith score` in a child (its real entry point: `main()` reads sys.argv and ends the process);
# after committing batch HOLD_AT it holds until the test, having signalled, writes a line to its
# stdin: the run cannot end before the signal lands. `slow-commit` also keeps DuckDB busy for
# seconds inside the second batch's transaction (a long query after its inserts), so a signal
# lands mid-commit.
CHILD = """
import sys
from flows.run.progress import LogProgress
from flows.store import batch_writes
advance, held = LogProgress.advance, []
def advance_then_hold(self, rows, run):
    advance(self, rows, run)
    if run["batches"] == HOLD_AT and not held:  # once (a Prefect run has two displays)
        held.append(1)
        print("holding for the test's signal", flush=True)
        sys.stdin.readline()
LogProgress.advance = advance_then_hold
if sys.argv[1] == "slow-commit":
    original, commits = batch_writes.run_sql_file, []
    def run_then_dawdle(con, name, params=None):
        original(con, name, params)
        if name == "insert_results":
            commits.append(name)
            if len(commits) == 2:
                print("dawdling inside batch 2's commit", flush=True)  # the trials' cue
                con.execute("SET enable_progress_bar = false")
                con.execute("SELECT count(*) FROM range(2000000000) WHERE range % 7 = 3").fetchall()
    batch_writes.run_sql_file = run_then_dawdle
if sys.argv[1] == "slow-classify":  # the main thread's own DuckDB query outlasts the signal
    from flows.run import pipeline
    classify, calls = pipeline.classify, []
    def dawdle_then_classify(reader, *args, **options):
        calls.append(1)
        if len(calls) == 4:  # ~2 s quiet: longer than the 0.2 s to the signal, under any load
            import time
            reader.execute("SET enable_progress_bar = false")
            query = "SELECT count(*) FROM range(500000000) WHERE range % 7 = 3"
            began = time.monotonic()
            try:
                reader.execute(query).fetchall()
            finally:  # the stop's bound: the signal is acted on when this query ends
                print(f"dawdled {time.monotonic() - began:.3f} s", flush=True)
        return classify(reader, *args, **options)
    pipeline.classify = dawdle_then_classify
from flows.cli import main
sys.argv = ["faith", *sys.argv[2:]]
sys.exit(main())
""".replace("HOLD_AT", str(HOLD_AT))


def settings(source: Path, db: Path) -> ScoreSettings:
    return ScoreSettings(
        source=str(source), db=str(db), batch_size=BATCH, judge={"kind": "lexical"}
    )


def faith_score(
    mode: str,
    source: Path,
    db: Path,
    options: list[str] = OPTIONS,
    env: dict[str, str] | None = None,
) -> subprocess.Popen:
    argv = [sys.executable, "-c", CHILD, mode, "score", str(source), "--db", str(db), *options]
    return spawn(argv, env)


def spawn(argv: list[str], env: dict[str, str] | None = None) -> subprocess.Popen:
    """A child whose start-up (spawn to first line) `first_line` measures: the baseline."""
    child = subprocess.Popen(
        argv,
        cwd=ROOT,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    child.spawned = time.monotonic()  # type: ignore[attr-defined]
    return child


def first_line(child: subprocess.Popen, out: str) -> str:
    """Note the child's start-up the first time it prints (`child.start_up`, seconds)."""
    if not hasattr(child, "start_up"):
        child.start_up = time.monotonic() - child.spawned  # type: ignore[attr-defined]
    return out


def exit_within(child: subprocess.Popen, seconds: float = EXIT_WITHIN) -> float:
    """The stop's bound on this machine now: its budget plus the child's measured start."""
    return seconds + child.start_up  # type: ignore[attr-defined]


def hang_guard(child: subprocess.Popen) -> float:
    """How long to wait for a signalled child before calling it hung: 30 s, stretched by its
    measured start-up as a loaded machine stretches both (at load 25 a start took a minute)."""
    return 30 + 3 * child.start_up  # type: ignore[attr-defined]


def signal_at(
    child: subprocess.Popen,
    line: str,
    offset: float,
    sig: int,
    said: dict[str, float] | None = None,
) -> tuple[float, str]:
    """Send `sig` `offset` s after the child prints `line`; returns (seconds to exit, output).
    `said`: lines to watch for after the signal, filled with the seconds each took to appear."""
    seen: list[str] = []
    assert child.stdout is not None
    for out in child.stdout:
        seen.append(first_line(child, out))
        if line in out:
            time.sleep(offset)
            sent = time.monotonic()
            child.send_signal(sig)
            release(child)
            break
    else:
        pytest.fail("the run ended before the signal:\n" + "".join(seen[-20:]))
    waiting = set(said or ())
    for out in child.stdout if waiting else ():
        seen.append(out)
        for text in [text for text in waiting if text in out]:
            said[text] = time.monotonic() - sent  # type: ignore[index]
            waiting.discard(text)
        if not waiting:
            break
    try:
        child.wait(timeout=hang_guard(child))  # a hang fails here, never blocks the suite
    except subprocess.TimeoutExpired:
        child.kill()
        child.wait()
        pytest.fail(
            f"still running {hang_guard(child):.0f} s after the signal:\n" + "".join(seen[-20:])
        )
    took = time.monotonic() - sent
    seen.extend(child.stdout.readlines())
    child.stdout.close()
    return took, "".join(seen)


def release(child: subprocess.Popen) -> None:
    """Let a child holding after batch HOLD_AT go on (a child that never held ignores it)."""
    assert child.stdin is not None
    try:
        child.stdin.write("go\n")
        child.stdin.close()
    except (BrokenPipeError, OSError):  # it ended already
        pass


def write_source(directory: Path) -> Path:
    """The trials' source: N_CASES cases in one Parquet file."""
    return write(many_cases(N_CASES), directory / "cases.parquet")


def score_uninterrupted(source: Path, db: Path) -> tuple:
    """The baseline every stopped-then-resumed run must equal: its snapshot."""
    run = run_score(settings(source, db))
    assert (run["status"], run["rows_newly_scored"]) == ("completed", N_CASES)
    return snapshot(db)


def stop_and_resume(
    source: Path,
    uninterrupted: tuple,
    db: Path,
    moment: tuple[int, str, str, float],
) -> None:
    """Signal a child `faith score` at `moment` (signal, child mode, progress line, seconds
    after it): it exits promptly with its code and one line, the run is marked, whole batches
    kept, the lock released, and a re-run ends with the uninterrupted run's tables."""
    sig, mode, line, offset = moment
    child = faith_score(mode, source, db)
    took, output = signal_at(child, line, offset, sig)
    assert child.returncode == (130 if sig == signal.SIGINT else 143), output
    # A signal delivered to another thread while the main thread waits in a DuckDB query is
    # acted on when the query ends (docs/development.md): the child says how long its dawdle
    # took, and the stop's budget starts from there (a fixed 20 s failed at load 20: 25.3 s).
    dawdled = re.search(r"dawdled ([0-9.]+) s", output) if mode == "slow-classify" else None
    assert took < exit_within(child) + (float(dawdled[1]) if dawdled else 0.0), output
    assert output.count("Traceback") == 0, output
    assert f"interrupted ({signal.Signals(sig).name})" in output, output
    if mode == "slow-commit":  # the commit outlasted its grace and was rolled back
        assert "the batch being committed is rolled back" in output, output

    ((_, stopped),) = runs(db).items()
    assert stopped["status"] == "interrupted", stopped
    assert stopped["error"] == f"interrupted by {signal.Signals(sig).name}"
    assert stopped["rows_newly_scored"] < N_CASES
    assert stopped["rows_newly_scored"] == stopped["batches"] * BATCH  # whole batches only

    open_store(db).close()  # the lock was released
    resumed = run_score(settings(source, db))
    assert resumed["rows_newly_scored"] == N_CASES - stopped["rows_newly_scored"]
    scores, verdicts = snapshot(db)
    assert_frame_equal(scores, uninterrupted[0])
    assert_frame_equal(verdicts, uninterrupted[1])


def moment_id(moment: tuple[int, str, str, float]) -> str:
    """A trial's name in pytest's output: `SIGINT-slow-commit-batch 1:+0.3`."""
    sig, mode, line, offset = moment
    return f"{signal.Signals(sig).name}-{mode}-{line}+{offset}"
