"""Bench (not a test): what `faith`'s imports cost a whole process, against the floor's own
start (`import duckdb`) and against the same imports with the openai client loaded as well, as
every run loaded it before the reply cap moved to flows/judges/endpoint/reply_cap.py.

    python bench/imports.py [--rounds 5]

Each round starts one fresh interpreter per line, alternating; prints medians and ranges.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time

LINES = {
    "faith's CLI (flows.cli.commands)": "import flows.cli.commands",
    "the same, openai loaded too (before)": "import openai, flows.cli.commands",
    "the floor's start (import duckdb)": "import duckdb",
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    seconds: dict[str, list[float]] = {name: [] for name in LINES}
    for _ in range(args.rounds):
        for name, code in LINES.items():
            started = time.perf_counter()
            subprocess.run([sys.executable, "-c", code], check=True)
            seconds[name].append(time.perf_counter() - started)
    for name, values in seconds.items():
        print(f"{name}: median {statistics.median(values):.2f} s "
              f"({min(values):.2f}-{max(values):.2f})")  # fmt: skip
    now, before = (statistics.median(seconds[name]) for name in list(LINES)[:2])
    print(f"faith's imports now / before: {now / before:.2f}x")


if __name__ == "__main__":
    main()
