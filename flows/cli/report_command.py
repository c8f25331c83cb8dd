"""`faith report`: its options and the command."""

from __future__ import annotations

import argparse
import sys
from datetime import date

from rich.text import Text

from flows.cli.option_types import MAX_LISTED, share, whole_number
from flows.cli.options import add_db_argument, add_wait_argument
from flows.cli.output import StdoutConsole
from flows.report.queries import DEFAULT_SEGMENT
from flows.report.segments import DEFAULT_SEGMENT_TOP, SEGMENT_RANKS


def _segment_top(text: str) -> int | None:
    """--segment-top: a whole number of values, or `all` (None: every value)."""
    if text.strip().lower() == "all":
        return None
    try:
        return whole_number(1, MAX_LISTED)(text)
    except argparse.ArgumentTypeError as exc:
        raise argparse.ArgumentTypeError(f"{exc}; or all, to list every value") from None


def add_report_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of `faith report`; also sets `command=report_command` as a default."""
    add_db_argument(parser)
    parser.add_argument(
        "--since", type=date.fromisoformat, metavar="D", help="first day (YYYY-MM-DD)"
    )
    parser.add_argument("--until", type=date.fromisoformat, metavar="D", help="last day, inclusive")
    parser.add_argument(
        "--segment",
        metavar="COL",
        help=f"segment column to slice by (default {DEFAULT_SEGMENT} when the logs have it)",
    )
    parser.add_argument(
        "--segment-top",
        type=_segment_top,
        default=DEFAULT_SEGMENT_TOP,
        metavar="N|all",
        help=f"segment values listed per config ({DEFAULT_SEGMENT_TOP}; all: every one); a "
        "line says how many were left out",
    )
    parser.add_argument(
        "--segment-rank",
        choices=tuple(SEGMENT_RANKS),
        default="cases",
        help="list the segment values with the most cases, or the most failing cases (cases)",
    )
    parser.add_argument(  # as typed: Path() would drop the slash of `reports/`, a folder
        "--html", metavar="FILE", help="also write a self-contained HTML report"
    )
    parser.add_argument(
        "--grain", choices=("day", "week", "month"), default="day", help="period (default day)"
    )
    parser.add_argument(
        "--periods",
        type=whole_number(1, MAX_LISTED),
        default=7,
        metavar="N",
        help="latest periods per config shown (7)",
    )
    parser.add_argument(
        "--threshold",
        type=share,
        help="recompute success at this pass mark (default: as each run was configured)",
    )
    parser.add_argument(
        "--penalize-ambiguous",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="recompute scores counting idk claims as unfaithful, or not (default: as configured)",
    )
    parser.add_argument(
        "--max-invalid-share",
        type=share,
        metavar="F",
        help="flag periods whose invalid share is above F (default: each config's latest "
        "run's --max-invalid-share, else 0.1)",
    )
    add_wait_argument(parser)
    parser.set_defaults(command=report_command)


def report_command(args: argparse.Namespace) -> int:
    """Print the latest periods; write the HTML report when --html is given."""
    # here, not at the top: every command builds this parser, only this one draws (plotly)
    from flows.report import ReportOptions, render_terminal, write_html_report
    from flows.report.html import check_report_path
    from flows.report.quarantine import print_quarantine
    from flows.store.db import connect_for_reading

    if args.html is not None:
        # before any work: a wrong --html is a usage error (and never the database read)
        check_report_path(args.html, args.db)

    options = ReportOptions(
        since=args.since,
        until=args.until,
        grain=args.grain,
        periods=args.periods,
        threshold=args.threshold,
        penalize_ambiguous=args.penalize_ambiguous,
        segment=args.segment,
        segment_top=args.segment_top,
        segment_rank=args.segment_rank,
        max_invalid_share=args.max_invalid_share,
    )
    con = connect_for_reading(args.db, wait=args.wait)
    try:
        # The file first: `faith report --html r.html | head` ends the printing early (exit
        # 141), and the report asked for is written all the same.
        path = None if args.html is None else write_html_report(con, args.html, options=options)
        # Piped output (a log, a CI page) gets room for the tables instead of rich's 80 columns.
        console = StdoutConsole(width=None if sys.stdout.isatty() else 150)
        render_terminal(con, options, console)
        print_quarantine(con, console, args.since, args.until)
        if path is not None:
            console.print(Text(f"HTML report: {path}"))
    finally:
        con.close()
    return 0
