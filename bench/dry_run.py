"""Bench (not a test): how close `faith score --dry-run` comes to what the real run spends.

    python bench/dry_run.py [--model gpt-4o-mini]

Scores the bundled sample (data/sample/cases.parquet) into a fresh database with the LLM judge,
first as a dry run, then for real, against two local servers that count tokens their own way:
tests/support/openai_stub.py (4 characters a token, like the estimate) and
tests/support/counting_server.py (a word, number or punctuation mark a token, in its own
process). Prints calls, prompt and completion tokens and cost of each, and the estimate as a
ratio of the real figure (1.00 = exact; the target is within 0.85-1.15). Then a re-run's
dry run, which must find nothing left to pay.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "bench")]

from common import table  # noqa: E402

from flows.judges.settings import JudgeSettings  # noqa: E402
from flows.read.bundled import sample_path  # noqa: E402
from flows.run.pipeline import run_score  # noqa: E402
from flows.run.settings import ScoreSettings  # noqa: E402
from tests.support.counting_server import serving_elsewhere  # noqa: E402
from tests.support.openai_stub import StubServer  # noqa: E402

FIGURES = ("judge_calls", "prompt_tokens", "completion_tokens", "cost_usd")


@contextlib.contextmanager
def server(kind: str) -> Iterator[str]:
    """The base URL of a running server of `kind`."""
    if kind == "stub (chars / 4)":
        with StubServer() as stub:
            yield stub.base_url
    else:
        with serving_elsewhere() as counting:
            yield counting.base_url


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="gpt-4o-mini", help="priced by the built-in table")
    args = parser.parse_args()
    os.environ.setdefault("OPENAI_API_KEY", "sk-local")
    rows = []
    for kind in ("stub (chars / 4)", "counting (word tokens)"):
        with server(kind) as base_url, tempfile.TemporaryDirectory() as workdir:
            judge = JudgeSettings(kind="openai", model=args.model, base_url=base_url)
            settings = ScoreSettings(
                source=str(sample_path()), db=str(Path(workdir) / "f.duckdb"), judge=judge
            )
            dry = run_score(settings.model_copy(update={"dry_run": True}))
            real = run_score(settings)
            again = run_score(settings.model_copy(update={"dry_run": True}))
        for label, run in (("dry run", dry), ("real run", real), ("re-run's dry run", again)):
            rows.append({"server": kind, "run": label, **{f: _shown(run[f]) for f in FIGURES}})
        rows.append(
            {
                "server": kind,
                "run": "estimate / real",
                **{f: f"{dry[f] / real[f]:.2f}" if real[f] else "n/a" for f in FIGURES},
            }
        )
    print(f"bundled sample ({sample_path().name}), model {args.model}, packed mode")
    print(table(rows, ["server", "run", *FIGURES]))


def _shown(value: float | int | None) -> str:
    if value is None:
        return "unknown"
    return f"{value:.4f}" if isinstance(value, float) else f"{value:,}"


if __name__ == "__main__":
    main()
