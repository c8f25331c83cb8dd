"""One scoring run: validate, classify, score and write each batch, with progress and the
judge's accounting. No argparse, no Prefect.

Public: `run_score(settings)` and the settings objects, `from flows.run import ...`; loaded
on first use, so importing one module of the room stays cheap.
"""

from __future__ import annotations

from typing import Any

__all__ = ["JudgeSettings", "ScoreSettings", "run_score"]


def __getattr__(name: str) -> Any:
    if name == "run_score":
        from flows.run.pipeline import run_score

        return run_score
    if name in ("JudgeSettings", "ScoreSettings"):
        from flows.run import settings

        return getattr(settings, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
