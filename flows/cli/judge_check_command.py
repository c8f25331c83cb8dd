"""`faith judge-check`: is an OpenAI-compatible endpoint usable as the judge? (before a night
pays for thousands of calls)."""

from __future__ import annotations

import argparse

from flows.cli.option_types import request_seconds
from flows.cli.options import EXIT_OK, add_endpoint_arguments
from flows.cli.settings import judge_settings
from flows.printable import printable


def add_judge_check_command(commands: argparse._SubParsersAction) -> None:
    """Add `faith judge-check` to the CLI's subcommands."""
    check = commands.add_parser(
        "judge-check",
        help="check an LLM endpoint on the seed's three examples before paying for a run",
        description="Send the seed's three examples through every judge stage (a handful of "
        "small requests) and report the structured-output mode the endpoint accepts, the "
        "latency of each call, whether the replies parse, and the scores against the "
        "expected 1.0 / 1.0 / 0.5. Without --judge-mode, packed is tried first and per-item "
        "when packed cannot be used; with --db the mode that works and its latency are "
        "remembered, and `faith score`/`faith nightly` use them unless told otherwise. "
        "Exits 9 when no mode can be used, 6 when the endpoint refuses the key or the model.",
    )
    add_endpoint_arguments(check, model_required=True)
    check.add_argument(
        "--timeout", type=request_seconds, default=60.0, help="seconds per call (60)"
    )
    check.add_argument(
        "--concurrency",
        type=int,
        default=1,
        metavar="N",
        help="calls sent at once (default 1: each latency is the server's own, without "
        "queueing; give the run's --concurrency to measure what a run will see)",
    )
    check.add_argument(
        "--max-output-tokens", type=int, metavar="N", help="max_tokens of every request"
    )
    check.add_argument(
        "--db",
        help="also remember the mode found and the check in this faithpipe database (the "
        "nightly preflight reads it)",
    )
    check.add_argument("-v", "--verbose", action="store_true", help="debug log lines")
    check.set_defaults(command=judge_check_command)


def judge_check_command(args: argparse.Namespace) -> int:
    from faith_udfs.errors import ConfigError
    from flows.errors import JudgeEndpointError, JudgeUnusable
    from flows.judges.check import run_judge_check
    from flows.store.db import open_store
    from flows.store.judge_memory import JudgeMemory

    settings = judge_settings(args, kind="openai")
    # `--db "$UNSET"`: refused (exit 5) by open_store, not taken as no --db
    con = open_store(args.db) if args.db is not None else None
    memory = JudgeMemory(con) if con is not None else None
    if args.concurrency < 1:
        raise ConfigError(f"--concurrency must be at least 1, got {args.concurrency}")
    try:
        search = run_judge_check(settings, memory, concurrency=args.concurrency)
    finally:
        if memory is not None:
            memory.close()
        if con is not None:
            con.close()
    for line in search.lines():
        print(printable(line))  # server text, its control characters shown
    if search.usable_mode is not None:
        if memory is not None:
            print(f"remembered in {args.db}: judge mode {search.usable_mode} for this endpoint")
        return EXIT_OK
    problem = search.problem
    if search.unreachable or (problem and problem.startswith("the endpoint")):
        raise JudgeEndpointError(problem)
    raise JudgeUnusable(f"the judge {args.model} cannot be used: {problem}")
