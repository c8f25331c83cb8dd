"""The nightly run: score what is new, then check the judge on the golden set.

Public: `run_nightly(settings, golden=, agreement_floor=)`, `from flows.nightly import run_nightly`.
"""

from __future__ import annotations

from typing import Any

__all__ = ["run_nightly"]


def __getattr__(name: str) -> Any:
    if name == "run_nightly":
        from flows.nightly.nightly_run import run_nightly

        return run_nightly
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
