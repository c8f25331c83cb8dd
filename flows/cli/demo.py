"""`faith demo`: score the bundled sample and show what a user gets, end to end."""

from __future__ import annotations

import re
import shlex
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from flows.cli.options import SERVER_START
from flows.errors import InputUnreadable, RunAlarm
from flows.printable import printable

TICK_SECONDS = 20.0  # a line this often while nothing else prints (the server's start is silent)
# An option a reader's error names that `faith demo` does not take (--columns, --format, ...)
_NOT_DEMOS = re.compile(r"(?<![\w-])--(?!(?:source|db|prefect)\b)[a-z][a-z-]*")


def run_demo(source: Path, db: Path, *, prefect: bool, bundled: bool = True) -> int:
    """Score the sample into `db`, print pass rates by day, write the HTML report. `bundled`:
    `source` is the sample shipped with faithpipe (else the one --source names)."""
    from flows.cli.output import print_frame
    from flows.cli.routes import execute
    from flows.report import write_html_report
    from flows.run.settings import ScoreSettings
    from flows.run.summary import run_line
    from flows.store.db import connect, sql

    if not source.exists():
        if not bundled:  # the user's --source: no sample of faithpipe's is missing
            raise InputUnreadable(f"{source}: no such file (faith demo --source)")
        raise InputUnreadable(
            f"{source}: the bundled sample is missing (regenerate: python data/generate.py)"
        )
    say(doing(source, prefect=prefect))
    try:
        with ticking(TICK_SECONDS):
            run = execute(ScoreSettings(source=str(source), db=str(db)), prefect=prefect)
    except RunAlarm as exc:  # exit 8 or 11 after a run kept whole: its line, then the error
        if exc.run is not None:
            print(run_line(exc.run))
        raise
    except InputUnreadable as exc:  # the reader's advice names `faith score`'s options
        said = str(exc)
        if not _NOT_DEMOS.search(said):
            raise
        raise type(exc)(
            f"{said} (an option of `faith score {source}`: faith demo reads --source as it is)"
        ) from exc
    print(run_line(run))
    con = connect(db, read_only=True)
    try:
        days = con.sql(sql("demo_pass_rates"), params={"config_id": run["config_id"]}).pl()
        report = write_html_report(con, db.parent / "report.html")
    finally:
        con.close()
    title = f"pass rate by day (95% Wilson interval), config {run['config_id']}"
    print_frame(days, title=title)
    # `faith` as it was started (`make demo`: .venv/bin/faith, on no PATH); its own client, as
    # DuckDB's (`duckdb -readonly`) is not installed
    faith = sys.argv[0] if Path(sys.argv[0]).name == "faith" else "faith"
    query = shlex.join([faith, "sql", "SELECT * FROM pass_rates()", "--db", str(db)])
    print(printable(f"database: {db}   try: {query}"))
    print(
        printable(f"report:   {report}   (offline HTML; faith report --html FILE writes another)")
    )
    return 0


def say(line: str) -> None:
    """One line of the demo's own, at once (make and pipes buffer stdout otherwise)."""
    print(f"faith demo: {line}", flush=True)


def doing(source: Path, *, prefect: bool) -> str:
    """What the demo is about to do, and the wait a first run has ahead (Prefect's server)."""
    what = f"scoring {source.name} with the grounded judge"
    if not prefect:
        return f"{what} (plain local run)"
    from flows.orchestration.prefect_env import prefect_server_configured

    if prefect_server_configured():
        return f"{what} as a Prefect flow on the server PREFECT_API_URL names"
    return (
        f"{what} as a Prefect flow; no Prefect server is set, so Prefect first starts a "
        f"temporary one ({SERVER_START}; --prefect no skips it)"
    )


@contextmanager
def ticking(seconds: float) -> Iterator[None]:
    """Say every `seconds` that the demo is still at work, until the block ends."""
    done, started = threading.Event(), time.monotonic()

    def tick() -> None:
        while not done.wait(seconds):
            say(
                f"still at work, {time.monotonic() - started:.0f} s so far (Prefect's server "
                "starts first, then the run scores and logs its batches)"
            )

    ticker = threading.Thread(target=tick, name="demo-ticker", daemon=True)
    ticker.start()
    try:
        yield
    finally:
        done.set()
        ticker.join()
