"""Recording a judge check on the golden set: `judge_checks`, its items, the run's warning."""

from __future__ import annotations

from typing import TYPE_CHECKING

from flows.store.db import register, run_sql_file, transaction
from flows.store.run_registry import mark_run_warning

if TYPE_CHECKING:
    import duckdb

    from schemas import JudgeCheck

__all__ = ["record_check"]


def record_check(con: duckdb.DuckDBPyConnection, run_id: str, check: JudgeCheck) -> None:
    """Store the check in `judge_checks` and its items, and warn on the run, in one transaction."""
    register(con, "check_items", check.items)
    try:
        with transaction(con):
            run_sql_file(
                con,
                "record_judge_check",
                {
                    "run_id": run_id,
                    "config_id": check.config_id,
                    "golden": check.golden,
                    "golden_hash": check.golden_hash,
                    "checked_at": check.checked_at,
                    "cases": check.cases,
                    "cases_invalid": check.cases_invalid,
                    "cases_pending": check.cases_pending,
                    "items": check.items.height,
                    "agreed": check.agreed,
                    "agreement": check.agreement,
                    "floor": check.floor,
                    "passed": check.passed,
                    "seconds": check.seconds,
                    "judge_calls": check.judge_calls,
                    "prompt_tokens": check.prompt_tokens,
                    "completion_tokens": check.completion_tokens,
                },
            )
            if check.warning:
                mark_run_warning(con, run_id, check.warning)
    finally:
        con.unregister("check_items")
