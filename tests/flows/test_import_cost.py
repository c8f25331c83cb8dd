"""A run with a local judge never loads the openai client: it was most of `faith`'s start-up
(bench/imports.py), and whole-process `faith score` is what bench/pipeline.py measures. Nor
the one-case twin of the offline judges (measure()'s path), whose regexes took ~0.3 s."""

from __future__ import annotations

import subprocess
import sys

# What `faith score --prefect no --judge grounded` imports before it reads a row.
PLAIN_ROUTE = (
    "import sys, flows.cli.commands, flows.run.pipeline, flows.judges.factory\n"
    "print(','.join(sorted(m for m in LOADED_LATE if m in sys.modules)))\n"
)
LOADED_LATE = ("openai", "prefect", "faith_udfs.one_case", "faith_udfs.one_case_grounded")


def test_the_plain_route_loads_neither_the_openai_client_nor_the_one_case_twin() -> None:
    done = subprocess.run(
        [sys.executable, "-c", f"LOADED_LATE = {LOADED_LATE!r}\n" + PLAIN_ROUTE],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    assert done.stdout.strip() == ""


def test_the_openai_judge_still_finds_its_client() -> None:
    done = subprocess.run(
        [sys.executable, "-c", "import flows.judges.endpoint.capped_http as c, sys\n"
         "print(c.DEFAULT_MAX_REPLY_BYTES, c.too_large(c.ReplyTooLarge(5)) is not None,"
         " 'openai' in sys.modules)"],
        capture_output=True, text=True, timeout=300, check=True,
    )  # fmt: skip
    assert done.stdout.split() == [str(8 * 1024 * 1024), "True", "True"]
