"""`faith demo`: score the bundled sample and show what a user gets, end to end."""

from __future__ import annotations

from pathlib import Path

from flows.errors import InputUnreadable
from flows.printable import printable


def run_demo(source: Path, db: Path, *, prefect: bool) -> int:
    """Score the sample into `db`, print pass rates by day, write the HTML report."""
    from flows.cli.output import print_frame
    from flows.cli.routes import execute
    from flows.report import write_html_report
    from flows.run.settings import ScoreSettings
    from flows.run.summary import run_line
    from flows.store.db import connect, sql

    if not source.exists():
        raise InputUnreadable(f"{source}: the bundled sample is missing (regenerate: see README)")
    run = execute(ScoreSettings(source=str(source), db=str(db)), prefect=prefect)
    print(run_line(run))
    con = connect(db, read_only=True)
    try:
        days = con.sql(sql("demo_pass_rates"), params={"config_id": run["config_id"]}).pl()
        report = write_html_report(con, db.parent / "report.html")
    finally:
        con.close()
    title = f"pass rate by day (95% Wilson interval), config {run['config_id']}"
    print_frame(days, title=title)
    print(printable(f"database: {db}   try: duckdb -readonly {db} 'SELECT * FROM pass_rates()'"))
    print(
        printable(f"report:   {report}   (offline HTML; faith report --html FILE writes another)")
    )
    return 0
