"""`faith compare`: did side B pass less often than side A, beyond noise? (docs/compare.md)"""

from __future__ import annotations

import argparse
import json
import sys
from datetime import UTC, date, datetime
from typing import Any

from flows.cli.options import EXIT_OK, add_db_argument, add_lock_timeout_argument


def add_compare_command(commands: argparse._SubParsersAction) -> None:
    """Add `faith compare` to the CLI's subcommands."""
    from faith_udfs.compare_stats import BOOTSTRAP_REPS, BOOTSTRAP_SEED

    parser = commands.add_parser(
        "compare",
        help="compare two configs, segment values or windows: pass rate and mean score",
        description="Two sides of the scored cases: a config each (--a-config/--b-config), two "
        "values of a segment column (--segment app_version --a 2.4.0 --b 2.4.1) or two windows "
        "(--a-since/--a-until, --b-since/--b-until). Two configs are compared case by case "
        "(paired: exact McNemar test); otherwise the sides hold different cases (unpaired: "
        "Newcombe interval). Differences are B minus A. The result is kept in the table "
        "comparisons for `faith report`.",
    )
    add_db_argument(parser)
    parser.add_argument("--a-config", metavar="ID", help="config of side A (default: latest)")
    parser.add_argument("--b-config", metavar="ID", help="config of side B (default: A's)")
    parser.add_argument("--segment", metavar="COL", help="segment column --a and --b are values of")
    parser.add_argument("--a", metavar="VALUE", help="side A's value of --segment")
    parser.add_argument("--b", metavar="VALUE", help="side B's value of --segment")
    day = date.fromisoformat
    parser.add_argument("--since", type=day, metavar="D", help="first day of both sides")
    parser.add_argument("--until", type=day, metavar="D", help="last day of both, inclusive")
    for side in ("a", "b"):
        name = side.upper()
        parser.add_argument(f"--{side}-since", type=day, metavar="D", help=f"first day of {name}")
        parser.add_argument(f"--{side}-until", type=day, metavar="D", help=f"last day of {name}")
    parser.add_argument("--threshold", type=float, help="recompute success at this pass mark")
    parser.add_argument(
        "--penalize-ambiguous",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="recompute scores counting idk claims as unfaithful, or not",
    )
    parser.add_argument("--seed", type=int, default=BOOTSTRAP_SEED, help="bootstrap seed")
    parser.add_argument(
        "--reps", type=int, default=BOOTSTRAP_REPS, help=f"bootstrap resamples ({BOOTSTRAP_REPS})"
    )
    parser.add_argument("--claims", type=int, default=10, metavar="N", help="claims listed (10)")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    parser.add_argument(
        "--store",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="keep the result in the table comparisons (default yes; --no-store only reads)",
    )
    add_lock_timeout_argument(parser, help="wait this long for a run holding the database")
    parser.set_defaults(command=compare_command)


def compare_command(args: argparse.Namespace) -> int:
    """Compare, print the verdict (or JSON), and keep the result."""
    from faith_udfs.config import check_threshold
    from flows.report.compare import Sides, compare, store_comparison
    from flows.store.db import connect_for_reading, open_store

    if args.threshold is not None:
        check_threshold(args.threshold, "--threshold")
    sides = Sides(
        a_config=args.a_config,
        b_config=args.b_config,
        segment=args.segment,
        a=args.a,
        b=args.b,
        since=args.since,
        until=args.until,
        a_since=args.a_since,
        a_until=args.a_until,
        b_since=args.b_since,
        b_until=args.b_until,
        threshold=args.threshold,
        penalize_ambiguous=args.penalize_ambiguous,
    )
    con = (
        open_store(args.db, lock_timeout=args.lock_timeout)
        if args.store
        else connect_for_reading(args.db)
    )
    try:
        result = compare(con, sides, seed=args.seed, reps=args.reps, top_claims=args.claims)
        if args.store:
            at = datetime.now(UTC).replace(tzinfo=None)
            store_comparison(con, result, at)
    finally:
        con.close()
    if args.json:
        print(json.dumps(result, indent=2, default=str, ensure_ascii=False))
    else:
        print_comparison(result)
    return EXIT_OK


def print_comparison(result: dict[str, Any]) -> None:
    """The verdict line, both sides' figures, the score difference and the changed claims."""
    from rich.console import Console
    from rich.table import Table

    from faith_udfs.compare_stats import signed

    out = Console(width=None if sys.stdout.isatty() else 100, highlight=False)
    rates, scores = result["pass_rates"], result["scores"]
    out.print(result["verdict"], markup=False)
    out.print(f"method: {rates['method']}", markup=False)
    for side in ("a", "b"):
        n, passed, rate = rates[f"n_{side}"], rates[f"passed_{side}"], rates[f"rate_{side}"]
        shown = "-" if rate is None else f"{rate:.1%}"
        out.print(
            f"{side.upper()} {result[side]['label']} (config {result[side]['config_id'][:12]}): "
            f"{passed:,} of {n:,} pass, {shown}",
            markup=False,
        )
    if scores["diff"] is not None and scores["bootstrap_low"] is not None:
        out.print(
            f"mean score B − A: {signed(scores['diff'] * 100)} points, 95% bootstrap CI "
            f"[{signed(scores['bootstrap_low'] * 100)}, {signed(scores['bootstrap_high'] * 100)}] "
            f"({scores['bootstrap_reps']} resamples, seed {scores['bootstrap_seed']})",
            markup=False,
        )
    if result["claims"]:
        out.print("claims that changed most (failures per 100 cases, B − A):")
        table = Table()
        table.add_column("change", justify="right", no_wrap=True)
        table.add_column("A fails", justify="right", no_wrap=True)
        table.add_column("B fails", justify="right", no_wrap=True)
        table.add_column("claim", overflow="fold", min_width=20)
        for claim in result["claims"]:
            table.add_row(
                signed(claim["change"]),
                str(claim["failed_a"]),
                str(claim["failed_b"]),
                claim["claim"],
            )
        out.print(table)
