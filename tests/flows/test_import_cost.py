"""A run with a local judge never loads the openai client: it was most of `faith`'s start-up
(bench/imports.py), and whole-process `faith score` is what bench/pipeline.py measures."""

from __future__ import annotations

import subprocess
import sys

# What `faith score --prefect no --judge grounded` imports before it reads a row.
PLAIN_ROUTE = (
    "import sys, flows.cli.commands, flows.run.pipeline, flows.judges.factory\n"
    "print(','.join(sorted(m for m in ('openai', 'prefect') if m in sys.modules)))\n"
)


def test_the_plain_route_imports_no_openai_client() -> None:
    done = subprocess.run(
        [sys.executable, "-c", PLAIN_ROUTE], capture_output=True, text=True, timeout=300, check=True
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
