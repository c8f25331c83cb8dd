"""The LLM judge's mode and --timeout as `faith judge-check` remembered them, read into the
settings once by the run that holds the database (workers get them from there)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from flows.judges.modes import with_remembered_mode
from flows.run.settings import ScoreSettings
from flows.store.judge_memory import JudgeMemory

if TYPE_CHECKING:
    import duckdb

__all__ = ["remembered_judge"]


def remembered_judge(settings: ScoreSettings, con: duckdb.DuckDBPyConnection) -> ScoreSettings:
    """`settings` with the LLM judge's mode (and --timeout) as `faith judge-check` found them
    for the endpoint and model, where the run did not give them (flows/judges/modes.py)."""
    if settings.judge.kind != "openai":
        return settings
    memory = JudgeMemory(con)
    try:
        judge = with_remembered_mode(settings.judge, memory)
    finally:
        memory.close()
    return settings if judge is settings.judge else settings.model_copy(update={"judge": judge})
