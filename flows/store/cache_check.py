"""`faith cache check`: find, and with `drop` remove, stored answers that are not their own
item's (issue 27), in caches written before faithpipe checked every answer it stores.

Every `judge_cache` row holding its item (migration 018) is held to the rules a fresh answer
meets (faith_udfs/packed_replies.py); a claims row cached before 018 is matched to its item
through `legacy_key` (the judge's key recipe, given by the caller) over every stored case's
answer; other rows without an item cannot be checked and are counted. Stored claims
(`claim_verdicts`) are held to their case's answer too: dropping a case's rows makes the next
run score it again.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from contextlib import nullcontext
from dataclasses import dataclass, field

import duckdb

from faith_udfs.packed_replies import cached_answer_problem, misfiled_statement
from flows.store.db import reader_memory, run_sql_file, sql, transaction

__all__ = ["CacheCheck", "check_cache"]

# Rows read at a time: a cache of millions of answers is never all in memory.
_CHUNK = 10_000
# Cases whose claims one read gathers: the cases of a large database are read in parts (a
# million cases' claims in one read took 300-800 MB of DuckDB's memory).
_CASES_PER_PART = 250_000

# (model, prompt_version, schema_name, answer text) -> the cache key such an answer has.
LegacyKey = Callable[[str, str, str, str], str]


@dataclass
class CacheCheck:
    """What `check_cache` found (and dropped)."""

    checked: int = 0
    unverifiable: int = 0  # cached before migration 018, item not found
    wrong: dict[str, str] = field(default_factory=dict)  # cache_key -> why
    cases_checked: int = 0
    cases_wrong: dict[tuple[str, str], str] = field(default_factory=dict)  # (config, case) -> why
    dropped: bool = False

    def lines(self) -> list[str]:
        """The report as terminal lines."""
        done = "dropped" if self.dropped else "found"
        out = [
            f"judge_cache: {self.checked} answers checked, {len(self.wrong)} not their item's "
            f"({done}), {self.unverifiable} cached before version 18 with no item to check",
            f"case_scores: {self.cases_checked} cases' stored claims checked, "
            f"{len(self.cases_wrong)} hold claims not from their answer ({done})",
        ]
        for key, why in list(self.wrong.items())[:5]:
            out.append(f"  cache {key[:12]}: {why}")
        for (config_id, case_id), why in list(self.cases_wrong.items())[:5]:
            out.append(f"  case {case_id} ({config_id}): {why}")
        if not self.dropped and (self.wrong or self.cases_wrong):
            out.append("run `faith cache check --drop` to remove them; the next run asks again")
        elif self.dropped and self.cases_wrong:
            out.append("the dropped cases are scored again by the next run")
        return out


def check_cache(
    con: duckdb.DuckDBPyConnection, *, drop: bool = False, legacy_key: LegacyKey | None = None
) -> CacheCheck:
    """Check every cached answer and every case's stored claims; `drop` deletes what fails,
    in one transaction."""
    report = CacheCheck()
    # The writer's connection (`drop`) reads as a reader does: every case's claims do not fit
    # the memory limit a run writes under (1M cases ran out of it, exit 7).
    with reader_memory(con) if drop else nullcontext(con):
        _find_problems(con, report, legacy_key)
    if drop and (report.wrong or report.cases_wrong):
        with transaction(con):
            con.execute(sql("cache_check_drop"), {"keys": list(report.wrong)})
            run_sql_file(
                con,
                "cache_check_drop_cases",
                {
                    "config_ids": [config_id for config_id, _ in report.cases_wrong],
                    "case_ids": [case_id for _, case_id in report.cases_wrong],
                },
            )
    report.dropped = drop
    return report


def _find_problems(
    con: duckdb.DuckDBPyConnection, report: CacheCheck, legacy_key: LegacyKey | None
) -> None:
    """Hold every cached answer and every case's stored claims to their item, into `report`."""
    legacy = _legacy_items(con, legacy_key) if legacy_key is not None else {}
    cursor = con.cursor()
    try:
        cursor.execute(sql("cache_check_rows"))
        while rows := cursor.fetchmany(_CHUNK):
            for cache_key, schema_name, reply, stored_item in rows:
                item = stored_item if stored_item is not None else legacy.get(cache_key)
                if item is None:
                    report.unverifiable += 1
                    continue
                report.checked += 1
                why = cached_answer_problem(schema_name, reply, item)
                if why is not None:
                    report.wrong[cache_key] = why
        (cases,) = cursor.execute(sql("cache_check_cases")).fetchall()[0]
        parts = max(1, -(-cases // _CASES_PER_PART))
        for part in range(parts):
            cursor.execute(sql("cache_check_claims"), {"parts": parts, "part": part})
            while rows := cursor.fetchmany(_CHUNK):
                for config_id, case_id, answer, claims in rows:
                    report.cases_checked += 1
                    why = misfiled_statement(claims, answer)
                    if why is not None:
                        report.cases_wrong[(config_id, case_id)] = why
    finally:
        cursor.close()


def _legacy_items(con: duckdb.DuckDBPyConnection, legacy_key: LegacyKey) -> dict[str, str]:
    """cache key -> item JSON for the claims questions stored cases may have asked."""
    items: dict[str, str] = {}
    cursor = con.cursor()
    try:
        cursor.execute(sql("cache_check_legacy"))
        while rows := cursor.fetchmany(_CHUNK):
            for model, prompt_version, schema_name, answer in rows:
                key = legacy_key(model, prompt_version, schema_name, answer)
                items[key] = json.dumps({"text": answer}, ensure_ascii=False)
    finally:
        cursor.close()
    return items
