"""Options the commands share, each defined once (their values become settings in
flows/cli/settings.py)."""

from __future__ import annotations

import argparse

from flows.cli.option_types import (
    batch_seconds,
    byte_count,
    price,
    request_seconds,
    run_seconds,
    seconds,
    share,
    whole_number,
)
from flows.judges.endpoint.breaker import DEFAULT_BREAKER_FAILURES
from flows.judges.endpoint.reply_cap import DEFAULT_MAX_REPLY_BYTES
from flows.read.source import DEFAULT_BATCH_SIZE, MAX_BATCH_SIZE
from flows.store.db import DEFAULT_DB, DEFAULT_READ_WAIT
from schemas.sizes import (
    DEFAULT_MAX_ANSWER_BYTES,
    DEFAULT_MAX_CONTEXT_BYTES,
    DEFAULT_MAX_SENTENCE_PAIRS,
)

# Prefect's temporary server, started by a flow run when no server is set: measured with
# `time make demo` from a fresh clone (docs/development.md, "The first make demo"); the README,
# `faith demo` and this help quote it.
SERVER_START = "~45 s, minutes on a loaded machine"

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2


def add_db_argument(parser: argparse.ArgumentParser | argparse._ArgumentGroup) -> None:
    """--db: the DuckDB file every command reads or writes; --db-mode: the mode of files it
    creates (the database, its WAL, snapshots, shards), 0600 unless given."""
    parser.add_argument("--db", default=str(DEFAULT_DB), help=f"DuckDB file (default {DEFAULT_DB})")
    parser.add_argument(
        "--db-mode",
        type=file_mode,
        default=DEFAULT_DB_MODE,
        metavar="OCTAL",
        help="permissions of the files this command creates: the database, its WAL and "
        f"snapshot, Dask shards (default {DEFAULT_DB_MODE:04o}: they hold logged "
        "conversations; e.g. 0640 to let the group read)",
    )


# New database files hold the logged conversations: readable by their owner only.
DEFAULT_DB_MODE = 0o600


def file_mode(text: str) -> int:
    """An octal mode such as 0600 or 640; the owner must keep read and write (DuckDB needs
    both), and execute bits mean nothing for a database."""
    try:
        mode = int(text, 8)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an octal mode such as 0600") from None
    if not 0 <= mode <= 0o777 or mode & 0o600 != 0o600 or mode & 0o111:
        raise argparse.ArgumentTypeError(
            f"{text}: give read and write to the owner and no execute bit (e.g. 0600, 0640)"
        )
    return mode


def umask_for(mode: int) -> int:
    """The umask that creates files with `mode` (from 0666) and keeps folders enterable."""
    return (0o777 & ~mode) & ~0o111


def add_source_argument(parser: argparse.ArgumentParser) -> None:
    """SOURCE: the logs a command reads."""
    parser.add_argument(
        "source",
        metavar="SOURCE",
        help="Parquet file, CSV or JSON(L) file (or .gz), folder or glob",
    )


def add_read_arguments(parser: argparse.ArgumentParser) -> None:
    """--format, --columns, --case-id, --conversation-window: how SOURCE is read
    (docs/conversations.md)."""
    from flows.read.read_options import FORMAT_CHOICES

    read = parser.add_argument_group("reading SOURCE (docs/conversations.md)")
    read.add_argument(
        "--format",
        choices=FORMAT_CHOICES,
        default="auto",
        help="auto (default): by extension (.parquet; .csv, .json, .jsonl, .ndjson, each "
        "optionally .gz); otherwise read every file as this format",
    )
    read.add_argument(
        "--columns",
        metavar="NAME=COLUMN,...",
        help="which of SOURCE's columns are the contract's, e.g. "
        "input=question,actual_output=answer,retrieval_context=contexts,logged_at=ts; a "
        "name holding a comma in double quotes: 'actual_output=\"answer, final\"'",
    )
    read.add_argument(
        "--case-id",
        dest="case_id",
        choices=("given", "content"),
        default="given",
        help="given (default): SOURCE's case_id column; content: a hash of each row's input, "
        "answer, passages and time (a re-delivered row with the same content is the same case)",
    )
    read.add_argument(
        "--conversation-window",
        type=int,
        default=4,
        metavar="N",
        help="conversations: an assistant turn may rely on the last N turns before it (default 4)",
    )


def add_lock_timeout_argument(
    parser: argparse.ArgumentParser | argparse._ArgumentGroup, *, help: str | None
) -> None:
    """--lock-timeout: how long a writer waits for another run holding the database."""
    parser.add_argument("--lock-timeout", type=seconds, default=0.0, metavar="SECONDS", help=help)


def add_wait_argument(parser: argparse.ArgumentParser) -> None:
    """--wait: how long a reader waits for a run holding the database (see connect_for_reading)."""
    parser.add_argument(
        "--wait",
        type=seconds,
        default=DEFAULT_READ_WAIT,
        metavar="SECONDS",
        help="while a run writes the database and there is no snapshot of it to read, wait "
        f"this long for the run to finish (default {DEFAULT_READ_WAIT:g})",
    )


def add_endpoint_arguments(
    group: argparse.ArgumentParser | argparse._ArgumentGroup,
    *,
    model_required: bool,
    modes: tuple[str, ...] = ("packed", "per-item"),
) -> None:
    """--model, --base-url, --api-key-env, --judge-mode: which LLM endpoint judges, and how."""
    group.add_argument(
        "--model",
        required=model_required,
        help="model name for --judge openai (e.g. gpt-4o-mini)",
    )
    group.add_argument("--base-url", help="endpoint, e.g. http://localhost:8000/v1 (vLLM, Ollama)")
    group.add_argument(
        "--api-key-env",
        default="OPENAI_API_KEY",
        metavar="VAR",
        help="environment variable holding the API key (default OPENAI_API_KEY)",
    )
    group.add_argument(
        "--judge-mode",
        dest="mode",
        choices=modes,
        help="LLM call layout: packed (default; ~0.3 calls a case) or per-item (~2.5)"
        + (
            "; batch: packed requests through the Batch API (half price, answers within 24 h, "
            "collected and scored by later runs; see `faith batches`)"
            if "batch" in modes
            else ""
        ),
    )


def add_run_arguments(parser: argparse.ArgumentParser) -> None:
    """Options shared by `score` and `nightly`: database, judge, metric, batching, route."""
    add_db_argument(parser)
    judge = parser.add_argument_group("judge")
    judge.add_argument(
        "--judge",
        choices=("grounded", "lexical", "openai"),
        default="grounded",
        help="grounded: offline, deterministic, graded per-claim support (default; "
        "--model grounded-v12, grounded-v11, grounded-v10, grounded-v9, grounded-v8, grounded-v7, "
        "grounded-v6, grounded-v5, grounded-v4, grounded-v3, grounded-v2 or grounded-v1 for an "
        "older rules' series); "
        "lexical: the seed tutorial's word rules; openai: any OpenAI-compatible endpoint",
    )
    add_endpoint_arguments(judge, model_required=False, modes=("packed", "per-item", "batch"))
    judge.add_argument(
        "--calibration",
        metavar="NAME",
        help="the grounded judge with the cut-offs, threshold and (when refitted) feature "
        "weights `faith calibrate` stored under NAME in --db: its own config series "
        "(docs/calibration.md)",
    )
    judge.add_argument("--llm-reason", action="store_true", help="ask the LLM for prose reasons")
    judge.add_argument("--concurrency", type=int, default=8, help="parallel judge calls (8)")
    judge.add_argument(
        "--batch-wait",
        type=batch_seconds,
        default=0.0,
        metavar="SECONDS",
        help="batch mode: wait up to this long in all for the run's batches to finish, "
        "collecting them and going on to the next stage in the same run (default 0: the "
        "cases stay pending for a later run)",
    )
    judge.add_argument(
        "--timeout",
        type=request_seconds,
        help="seconds per judge call (default 60, or 3x the slowest call `faith judge-check "
        "--db` measured for this endpoint and model, whichever is larger)",
    )
    judge.add_argument("--max-calls", type=int, help="cap on judge calls this run; rest pending")
    judge.add_argument("--max-tokens", type=int, help="cap on judge tokens this run; rest pending")
    judge.add_argument(
        "--rpm", type=int, metavar="N", help="at most N judge requests in any 60 s window"
    )
    judge.add_argument(
        "--tpm", type=int, metavar="N", help="at most N judge tokens in any 60 s window"
    )
    judge.add_argument(
        "--price-input",
        type=price,
        metavar="USD",
        help="USD per million prompt tokens (default: the built-in table for well-known models)",
    )
    judge.add_argument(
        "--price-output",
        type=price,
        metavar="USD",
        help="USD per million completion tokens (default: the built-in table)",
    )
    judge.add_argument(
        "--max-output-tokens",
        type=int,
        metavar="N",
        help="max_tokens of every judge request (default: sized from the question and its "
        "items, 256..8192; see docs/llm-judge.md, Bounded replies)",
    )
    judge.add_argument(
        "--max-reply-bytes",
        type=byte_count,
        default=DEFAULT_MAX_REPLY_BYTES,
        metavar="N",
        help="a judge answer larger than this (bytes, 1K to 1024M; 512K, 8M) is a reply error, "
        "never read whole (default 8M)",
    )
    judge.add_argument(
        "--breaker-failures",
        type=int,
        default=DEFAULT_BREAKER_FAILURES,
        metavar="N",
        help="after N judge-call failures of one kind in a row (refused, DNS, TLS, timeout, "
        "5xx, a 200 that is no chat completion, a Retry-After the run cannot wait, a call "
        "given up after a 429 at every retry) stop calling: exit 6, cases left pending "
        f"(default {DEFAULT_BREAKER_FAILURES})",
    )
    metric = parser.add_argument_group("metric (DeepEval's FaithfulnessMetric settings)")
    metric.add_argument(
        "--threshold",
        type=share,
        help="pass mark (default 0.5, or the threshold of the --calibration)",
    )
    metric.add_argument(
        "--penalize-ambiguous-claims",
        action="store_true",
        help="count idk claims as unfaithful (score = share of yes)",
    )
    metric.add_argument(
        "--strict-mode", action="store_true", help="threshold 1; a score below 1 becomes 0"
    )
    metric.add_argument(
        "--no-reason",
        dest="include_reason",
        action="store_false",
        help="skip the per-case reason",
    )
    metric.add_argument(
        "--truths-extraction-limit",
        type=int,
        metavar="N",
        help="at most N truths per passage (default: all)",
    )
    run = parser.add_argument_group("run")
    run.add_argument(
        "--batch-size",
        type=whole_number(1, MAX_BATCH_SIZE),
        default=DEFAULT_BATCH_SIZE,
        help=f"rows per batch and transaction (default {DEFAULT_BATCH_SIZE:,})",
    )
    add_lock_timeout_argument(
        run, help="wait this long for another run holding the database (default 0)"
    )
    run.add_argument(
        "--max-invalid-share",
        type=float,
        default=0.1,
        metavar="F",
        help="exit 8 (everything kept, runs.warning set) when more than this share of the "
        "cases judged ended invalid (default 0.1)",
    )
    run.add_argument(
        "--max-quarantine-share",
        type=float,
        default=0.1,
        metavar="F",
        help="exit 11 (everything kept, runs.warning set, the top failing checks named) when "
        "more than this share of the rows read was quarantined (default 0.1)",
    )
    run.add_argument(
        "--max-answer-bytes",
        type=int,
        default=DEFAULT_MAX_ANSWER_BYTES,
        metavar="N",
        help="quarantine a row whose actual_output or input holds more than N bytes "
        f"(check actual_output_too_large / input_too_large; default {DEFAULT_MAX_ANSWER_BYTES:,})",
    )
    run.add_argument(
        "--max-context-bytes",
        type=int,
        default=DEFAULT_MAX_CONTEXT_BYTES,
        metavar="N",
        help="quarantine a row whose retrieval_context passages hold more than N bytes together "
        f"(check retrieval_context_too_large; default {DEFAULT_MAX_CONTEXT_BYTES:,})",
    )
    run.add_argument(
        "--max-sentence-pairs",
        type=int,
        default=DEFAULT_MAX_SENTENCE_PAIRS,
        metavar="N",
        help="quarantine a row whose answer sentences times context sentences pass N: the "
        "judge's memory grows with them (check too_many_sentence_pairs; default "
        f"{DEFAULT_MAX_SENTENCE_PAIRS:,})",
    )
    run.add_argument(
        "--snapshot",
        action="store_true",
        help="after the run, copy the database to DB.snapshot.duckdb, which dashboards, "
        "`faith report` and `faith runs` read while the next run holds the database",
    )
    run.add_argument(
        "--prefect",
        choices=("auto", "yes", "no"),
        default="auto",
        help="auto (default): a Prefect flow when PREFECT_API_URL names a server, plain local "
        f"run otherwise; yes: always a flow (without a server, Prefect starts a temporary "
        f"one: {SERVER_START}); no: never",
    )
    run.add_argument(
        "--engine",
        choices=("local", "dask"),
        default="local",
        help="local (default): this process; dask: a Dask cluster (pip install "
        "'faithpipe[dask]'), --workers local processes or the cluster at --scheduler",
    )
    run.add_argument("--workers", type=int, help="--engine dask: local worker processes (2)")
    run.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="--engine dask: an existing scheduler, tcp://host:8786",
    )
    run.add_argument(
        "--task-timeout",
        type=float,
        default=3600.0,
        metavar="SECONDS",
        help="--engine dask: end the run (exit 10) when no worker joins, or no partition "
        "finishes, within this long (default 3600)",
    )
    run.add_argument("-v", "--verbose", action="store_true", help="debug log lines")


def add_run_timeout_argument(parser: argparse.ArgumentParser, *, default: float | None) -> None:
    """--run-timeout of `score`, `nightly` and `serve` (each scheduled run's): the run's own
    deadline (flows/run/deadline.py)."""
    shown = f"{default:g}, 6 h" if default else "none"
    parser.add_argument(
        "--run-timeout",
        type=run_seconds,
        default=default,
        metavar="SECONDS",
        help="stop the run this long after it starts, as on SIGTERM: committed batches are "
        f"kept, the run is `interrupted`, exit 14 (default {shown}; 0: none)",
    )


def add_dry_run_argument(parser: argparse.ArgumentParser) -> None:
    """--dry-run of `score` and `nightly` (`serve --dry-run` prints its deployment instead)."""
    parser.add_argument(
        "--dry-run",
        dest="dry_run_estimate",
        action="store_true",
        help="read and validate SOURCE, work out the judge calls, tokens and cost it would take "
        "after deduplication and the judge cache, and print them: no judge call, nothing "
        "written but a `runs` row marked dry_run",
    )
