"""Bench (not a test): how long a Dask run with the LLM judge takes to stop on SIGINT/SIGTERM.

    python bench/dask_stop.py [--trials 10] [--workers 2] [--signal both|SIGINT|SIGTERM]

Each trial scores 200 generated cases with `--engine dask --judge openai --judge-mode
per-item` against the local stub server (tests/support/openai_stub.py, 50 ms a call), sends
the signal once 30 calls were answered (workers inside judge calls, holding leases), and
times, from the signal: the `interrupted (...)` line on stderr (the run stopped, its row
written, the cluster closed) and the process's exit (the exit hooks run). It checks what
tests/flows/engines/test_dask_stops.py checks (exit code, no ERROR or traceback, the run row
`interrupted`) and prints each trial, then the median and the most of both times.
"""

from __future__ import annotations

import argparse
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import ROOT, table, whole_number

sys.path.insert(0, str(ROOT))
from data.generate import generate_cases
from tests.support.db_reading import query
from tests.support.openai_stub import serving

KEY = "sk-dask-stop-bench"


def trial(folder: Path, sig: signal.Signals, workers: int) -> dict:
    """One run stopped mid-judging: its times from the signal, and whether it stopped clean."""
    source = folder / "cases.parquet"
    if not source.exists():
        generate_cases(200, seed=11).write_parquet(source)
    db = folder / f"stop-{time.monotonic_ns()}.duckdb"
    with serving(api_key=KEY, delay=0.05) as stub:
        command = [
            sys.executable, "-m", "flows", "score", str(source), "--db", str(db),
            "--engine", "dask", "--workers", str(workers), "--prefect", "no",
            "--batch-size", "20", "--judge", "openai", "--model", "stub",
            "--base-url", stub.base_url, "--judge-mode", "per-item", "--concurrency", "4",
        ]  # fmt: skip
        child = subprocess.Popen(
            command,
            cwd=ROOT,
            env={**os.environ, "OPENAI_API_KEY": KEY},
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        lines: list[tuple[float, str]] = []
        reader = threading.Thread(
            target=lambda: lines.extend((time.monotonic(), line) for line in child.stderr or ()),
            daemon=True,
        )
        reader.start()
        give_up = time.monotonic() + 300
        while stub.requests < 30 and child.poll() is None and time.monotonic() < give_up:
            time.sleep(0.02)
        sent = time.monotonic()
        child.send_signal(sig)
        try:
            child.wait(timeout=120)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()
        exited = time.monotonic()
        reader.join(10)
    said = [at for at, line in lines if line.startswith("interrupted")]
    text = "".join(line for _, line in lines)
    clean = (
        child.returncode == 128 + sig
        and "ERROR" not in text
        and "Traceback" not in text
        and query(db, "SELECT status FROM runs") == [("interrupted",)]
    )
    if not clean:
        print(f"not clean (exit {child.returncode}):\n{text[-2000:]}", file=sys.stderr)
    return {
        "signal": sig.name,
        "to_line_s": round(said[0] - sent, 2) if said else None,
        "to_exit_s": round(exited - sent, 2),
        "exit": child.returncode,
        "clean": clean,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=whole_number, default=10)
    parser.add_argument("--workers", type=whole_number, default=2)
    parser.add_argument("--signal", choices=["both", "SIGINT", "SIGTERM"], default="both")
    args = parser.parse_args()
    signals = (
        [signal.SIGINT, signal.SIGTERM] if args.signal == "both" else [signal.Signals[args.signal]]
    )
    rows = []
    with tempfile.TemporaryDirectory(prefix="faith-dask-stop-") as tmp:
        for number in range(args.trials):
            row = trial(Path(tmp), signals[number % len(signals)], args.workers)
            rows.append({"trial": number + 1, **row})
            print(table([rows[-1]], list(rows[-1])).splitlines()[-1], flush=True)
    print(table(rows, list(rows[0])))
    for key in ("to_line_s", "to_exit_s"):
        values = [r[key] for r in rows if r[key] is not None]
        if values:
            print(f"{key}: median {statistics.median(values):.2f} s, max {max(values):.2f} s")
    print(f"clean stops: {sum(r['clean'] for r in rows)} of {len(rows)}")


if __name__ == "__main__":
    main()
