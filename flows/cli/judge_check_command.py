"""`faith judge-check`: is an OpenAI-compatible endpoint usable as the judge? (before a night
pays for thousands of calls)."""

from __future__ import annotations

import argparse

from flows.cli.options import EXIT_OK, add_endpoint_arguments, settings_error
from flows.printable import printable


def add_judge_check_command(commands: argparse._SubParsersAction) -> None:
    """Add `faith judge-check` to the CLI's subcommands."""
    check = commands.add_parser(
        "judge-check",
        help="check an LLM endpoint on the seed's three examples before paying for a run",
        description="Send the seed's three examples through every judge stage (a handful of "
        "small requests) and report the structured-output mode the endpoint accepts, the "
        "latency of each call, whether the replies parse, and the scores against the "
        "expected 1.0 / 1.0 / 0.5. Exits 9 when the judge cannot be used, 6 when the endpoint "
        "refuses the key or the model.",
    )
    add_endpoint_arguments(check, model_required=True)
    check.add_argument("--timeout", type=float, default=60.0, help="seconds per call (60)")
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
    from pydantic import ValidationError

    from flows.errors import JudgeEndpointError, JudgeUnusable
    from flows.judges.check import run_judge_check
    from flows.judges.settings import JudgeSettings
    from flows.store.db import open_store
    from flows.store.judge_memory import JudgeMemory

    try:
        settings = JudgeSettings(
            kind="openai",
            model=args.model,
            base_url=args.base_url,
            api_key_env=args.api_key_env,
            mode=args.mode,
            timeout=args.timeout,
            max_output_tokens=args.max_output_tokens,
        )
    except ValidationError as exc:
        raise settings_error(exc) from None
    con = open_store(args.db) if args.db else None
    memory = JudgeMemory(con) if con is not None else None
    try:
        report = run_judge_check(settings, memory)
    finally:
        if memory is not None:
            memory.close()
        if con is not None:
            con.close()
    for line in report.lines():
        print(printable(line))  # server text, its control characters shown
    if report.usable:
        return EXIT_OK
    if report.problem and report.problem.startswith("the endpoint"):
        raise JudgeEndpointError(report.problem)
    raise JudgeUnusable(f"the judge {args.model} cannot be used: {report.problem}")
