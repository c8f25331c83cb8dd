"""Bench (not a test): what `faith`'s imports cost a whole process, against the floor's own
start (`import duckdb`), against the same imports with the openai client loaded as well, as
every run loaded it before the reply cap moved to flows/judges/endpoint/reply_cap.py, and
against the same imports with what they did before 2026-12-07: load measure()'s one-case twin
(~0.3 s of regexes) and open DuckDB's default database (the SQL functions' types).

    python bench/imports.py [--rounds 5]

Each round starts one fresh interpreter per line, alternating; prints medians and ranges of
wall time and of CPU time (user + system: less moved by a loaded machine), and the ratios of
the CPU medians.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import whole_number

LINES = {
    "faith's CLI (flows.cli.commands)": "import flows.cli.commands",
    "the same, openai loaded too (before)": "import openai, flows.cli.commands",
    "the same, twin and default database too (before 2026-12-07)": (
        "import faith_udfs.one_case, flows.cli.commands, duckdb; duckdb.list_type('VARCHAR')"
    ),
    "the floor's start (import duckdb)": "import duckdb",
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=whole_number, default=5)
    args = parser.parse_args()
    seconds: dict[str, list[float]] = {name: [] for name in LINES}
    cpu: dict[str, list[float]] = {name: [] for name in LINES}
    for _ in range(args.rounds):
        for name, code in LINES.items():
            used = _children_cpu()
            started = time.perf_counter()
            subprocess.run([sys.executable, "-c", code], check=True)
            seconds[name].append(time.perf_counter() - started)
            cpu[name].append(_children_cpu() - used)
    for name, values in seconds.items():
        print(f"{name}: median {statistics.median(values):.2f} s "
              f"({min(values):.2f}-{max(values):.2f}), CPU {statistics.median(cpu[name]):.2f} s "
              f"({min(cpu[name]):.2f}-{max(cpu[name]):.2f})")  # fmt: skip
    now, openai, twin = (statistics.median(cpu[name]) for name in list(LINES)[:3])
    print(f"faith's imports now / with openai: {now / openai:.2f}x")
    print(f"faith's imports now / with the twin and default database: {now / twin:.2f}x")


def _children_cpu() -> float:
    """User and system CPU seconds of this process's finished children."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


if __name__ == "__main__":
    main()
