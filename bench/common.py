"""Shared bench plumbing: generated inputs cached on disk, child processes with peak RSS."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "bench" / "out"


def generated_cases(
    rows: int, *, seed: int = 1, rows_per_file: int | None = None, shape: str | None = None
) -> Path:
    """Path of a generated wide-form source of `rows` cases (made once, then reused); written
    chunk by chunk, so 10M rows need no more memory than 100k. `shape` (bench/shapes.py:
    support, rag, repetitive) reshapes the project's generator; None keeps it as it is."""
    sys.path.insert(0, str(ROOT))
    from shapes import iter_shaped

    from data.generate import iter_cases, write_stream

    suffix = f"-{rows_per_file}" if rows_per_file else ""
    named = f"-{shape}" if shape else ""
    folder = OUT / f"cases-{rows}-s{seed}{suffix}{named}"
    path = folder / ("part" if rows_per_file else "cases.parquet")
    done = path.parent / ".done"
    if not done.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        started = time.perf_counter()
        frames = iter_shaped(rows, shape, seed=seed) if shape else iter_cases(rows, seed=seed)
        write_stream(frames, path, rows_per_file=rows_per_file)
        done.write_text("ok")
        print(f"generated {rows:,} cases in {time.perf_counter() - started:.1f} s -> {path}")
    return path


def run_child(code: str, *args: str) -> dict:
    """Run `code` in a fresh Python; it sets a dict `result`, printed as JSON with the
    child's own peak RSS in MB (so each measured path is alone in its process)."""
    # VmHWM, not ru_maxrss: Linux carries ru_maxrss over from the forking parent.
    footer = (
        "\nimport json as _j, re as _re\n"
        "_hwm = _re.search(r'VmHWM:\\s+(\\d+)', open('/proc/self/status').read()).group(1)\n"
        "result['peak_rss_mb'] = round(int(_hwm) / 1024, 1)\n"
        "print(_j.dumps(result))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code + footer, *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    if done.returncode:
        raise SystemExit(f"bench child failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def table(rows: list[dict], columns: list[str]) -> str:
    """A plain fixed-width table."""
    widths = [max(len(c), *(len(str(r.get(c, ""))) for r in rows)) for c in columns]
    line = "  ".join(c.ljust(w) for c, w in zip(columns, widths, strict=True))
    body = [
        "  ".join(str(r.get(c, "")).ljust(w) for c, w in zip(columns, widths, strict=True))
        for r in rows
    ]
    return "\n".join([line, "  ".join("-" * w for w in widths), *body])


def whole_number(text: str) -> int:
    """An argparse type: a count of rows, workers or cases, as faith's own options take one
    (imported when an option is parsed: this module stays light for the start-up benches)."""
    sys.path.insert(0, str(ROOT))
    from flows.cli.option_types import whole_number as bounded

    return bounded(1, 10**12)(text)


def whole_numbers(text: str) -> list[int]:
    """An argparse type: comma-separated counts, as whole_number takes each."""
    return [whole_number(part) for part in text.split(",")]


def refuse_unless_commit(parser: argparse.ArgumentParser, base: str) -> None:
    """argparse's one-line refusal, exit 2, unless `base` names a commit of this checkout."""
    found = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--verify", "--quiet", f"{base}^{{commit}}"],
        capture_output=True,
        check=False,
    )
    if found.returncode != 0:
        parser.error(f"{base}: not a commit of {ROOT}")
