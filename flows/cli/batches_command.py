"""`faith batches`: the judge batches `--judge-mode batch` submitted, with their state."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from flows.cli.option_types import MAX_LISTED, price, request_seconds, whole_number
from flows.cli.options import EXIT_OK, add_db_argument, add_lock_timeout_argument, add_wait_argument
from flows.printable import printable

if TYPE_CHECKING:
    import polars as pl

__all__ = ["add_batches_command"]


def add_batches_command(commands: argparse._SubParsersAction) -> None:
    """Add `faith batches` to the CLI's subcommands."""
    batches = commands.add_parser(
        "batches",
        help="judge batches submitted with --judge-mode batch, and their state",
        description="List the batches in judge_batches, newest first: state as last seen, "
        "whether a later run still has to collect them, requests, items, answers, age, the "
        "tokens of the answers and what they cost at the batch price (cost_usd: the built-in "
        "table's price halved, or --price-input/--price-output; empty when unknown). "
        "Read-only, unless --refresh asks the server for the state of unfinished batches "
        "(collecting their answers is the next `faith score` or `faith nightly`'s).",
    )
    add_db_argument(batches)
    batches.add_argument(
        "--limit",
        type=whole_number(1, MAX_LISTED),
        default=20,
        help="how many batches (default 20)",
    )
    add_wait_argument(batches)
    for name, tokens in (("input", "prompt"), ("output", "completion")):
        batches.add_argument(
            f"--price-{name}",
            type=price,
            metavar="USD",
            help=f"batch price, USD per million {tokens} tokens (default: the built-in table's, "
            "halved)",
        )
    refresh = batches.add_argument_group("refresh from the server")
    refresh.add_argument(
        "--refresh",
        action="store_true",
        help="first ask the server (--base-url) for the state of every unfinished batch "
        "submitted to it, and store it (needs the database's write lock)",
    )
    refresh.add_argument("--base-url", help="the endpoint the batches were submitted to")
    # Defaults None here, filled in by _refresh_options: given without --refresh, each is refused.
    refresh.add_argument(
        "--api-key-env",
        metavar="VAR",
        help="environment variable holding the API key (default OPENAI_API_KEY)",
    )
    refresh.add_argument("--timeout", type=request_seconds, help="seconds per request (default 60)")
    add_lock_timeout_argument(
        refresh, help="with --refresh: wait this long for a run holding the database (default 0)"
    )
    refresh.set_defaults(lock_timeout=None)
    batches.set_defaults(command=batches_command)


# The options of --refresh, and their values when it is given without them.
_REFRESH_DEFAULTS = {
    "base_url": None,
    "api_key_env": "OPENAI_API_KEY",
    "timeout": 60.0,
    "lock_timeout": 0.0,
}


def _refresh_options(args: argparse.Namespace) -> None:
    """Refuse a --refresh option given without --refresh (`faith batches --base-url URL`
    listed the stored states and asked no server), else fill in its default."""
    from faith_udfs.errors import ConfigError

    for name, default in _REFRESH_DEFAULTS.items():
        if getattr(args, name) is None:
            setattr(args, name, default)
        elif not args.refresh:
            option = "--" + name.replace("_", "-")
            raise ConfigError(
                f"{option} needs --refresh: without it, faith batches only lists the stored "
                "states and asks no server"
            )


def batches_command(args: argparse.Namespace) -> int:
    from flows.cli.output import print_frame
    from flows.store.batch_jobs import list_batches
    from flows.store.db import connect_for_reading

    _refresh_options(args)
    if args.refresh:
        from flows.cli.settings import settings_error
        from flows.errors import DatabaseError
        from flows.judges.batch.refresh import refresh_batch_states
        from flows.judges.settings import JudgeSettings
        from flows.store.db import holds_no_database

        if args.base_url:  # checked as a run's: a port that is no number is exit 2, not 1
            try:
                JudgeSettings(kind="openai", base_url=args.base_url)
            except ValueError as exc:
                raise settings_error(exc) from None

        # A database that is not there is refused, not made (a typo in --db was made into a
        # new database, 'refreshed the state of 0 of 0'), as without --refresh.
        if args.db.strip() and holds_no_database(args.db):
            raise DatabaseError(f"{args.db}: no such database; run `faith score` first")
        connect_for_reading(
            args.db, wait=args.lock_timeout, snapshot=False, option="--lock-timeout"
        ).close()  # the database itself: the refresh writes it, never its snapshot

        refreshed, unfinished, endpoint = refresh_batch_states(
            args.db,
            base_url=args.base_url,
            api_key_env=args.api_key_env,
            timeout=args.timeout,
            lock_timeout=args.lock_timeout,
        )
        print(
            f"refreshed the state of {refreshed} of {unfinished} unfinished batches at {endpoint}"
        )
    # After a refresh, the database itself: its snapshot is older.
    con = connect_for_reading(args.db, wait=args.wait, snapshot=not args.refresh)
    try:
        batches = list_batches(con, limit=args.limit)
        frame = _with_cost(batches.pl(), args) if batches is not None else None
    finally:
        con.close()
    if frame is None or frame.is_empty():  # no batch tables yet, or no batch in them
        print(
            printable(f"no judge batches in {args.db}: no run of --judge-mode batch has written it")
        )
    else:
        print_frame(frame, title=f"judge batches in {args.db}")
    return EXIT_OK


def _with_cost(frame: pl.DataFrame, args: argparse.Namespace) -> pl.DataFrame:
    """The listing with `cost_usd` (each batch's answers at its model's batch price, null
    when unknown) in place of the token split it is computed from."""
    import polars as pl

    from flows.judges.prices import cost_usd, judge_prices

    prices = {
        model: judge_prices("openai", model, args.price_input, args.price_output, mode="batch")
        for model in frame["model"].unique().to_list()
    }
    costs = [
        None if prompt is None else cost_usd(prompt, completion or 0, *prices[model])
        for model, prompt, completion in frame.select(
            "model", "prompt_tokens", "completion_tokens"
        ).iter_rows()
    ]
    return (
        frame.with_columns(cost_usd=pl.Series(costs, dtype=pl.Float64).round(6))
        .drop("prompt_tokens", "completion_tokens")
        .select(pl.exclude("error"), "error")
    )
