"""Judges that do I/O: the OpenAI-compatible LLM judge (live or through the Batch API), its
settings, the factory that picks a judge from them, the judge check and the price table.

Rooms: `endpoint/` talks to the endpoint, `live/` is the judge that answers now (and its
dry run), `batch/` the Batch API. Public: the names in `__all__`, loaded on first use so that
importing the settings stays cheap (no HTTP client, no polars plan).
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the same names, for the type checker
    from flows.judges.batch.judge import BatchJudge
    from flows.judges.check import run_judge_check
    from flows.judges.factory import build_judge, close_judge
    from flows.judges.live.dry_run import EstimatingJudge
    from flows.judges.live.judge import OpenAIJudge
    from flows.judges.prices import judge_prices
    from flows.judges.settings import JudgeSettings

__all__ = [
    "BatchJudge",
    "EstimatingJudge",
    "JudgeSettings",
    "OpenAIJudge",
    "build_judge",
    "close_judge",
    "judge_prices",
    "run_judge_check",
]

_HOMES = {
    "BatchJudge": "flows.judges.batch.judge",
    "EstimatingJudge": "flows.judges.live.dry_run",
    "JudgeSettings": "flows.judges.settings",
    "OpenAIJudge": "flows.judges.live.judge",
    "build_judge": "flows.judges.factory",
    "close_judge": "flows.judges.factory",
    "judge_prices": "flows.judges.prices",
    "run_judge_check": "flows.judges.check",
}


def __getattr__(name: str) -> Any:
    if name in _HOMES:
        return getattr(import_module(_HOMES[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
