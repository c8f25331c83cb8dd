"""What a run's judging cost, in `runs`: its prices, a dry run's estimated counts, and the
invalid-share limit it was checked against (columns of 009_judge_cost.sql)."""

from __future__ import annotations

import time
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from faith_udfs import MetricConfig
from flows.store.db import register, sql, transaction

if TYPE_CHECKING:
    import duckdb

    from schemas import ScoredBatch


def price_run(
    con: duckdb.DuckDBPyConnection,
    run_id: str,
    *,
    price_input_usd: float | None,
    price_output_usd: float | None,
    dry_run: bool,
) -> None:
    """Record the run's prices (USD per million tokens; `cost_usd` follows at its end) and
    whether it is a dry run."""
    con.execute(
        sql("price_run"),
        {
            "run_id": run_id,
            "price_input_usd": price_input_usd,
            "price_output_usd": price_output_usd,
            "dry_run": dry_run,
        },
    )


def count_unbatched_usage(
    con: duckdb.DuckDBPyConnection, run_id: str, spent: dict[str, int]
) -> None:
    """A stopped run's judge usage in all (`spent`: calls, cached, failed, prompt_tokens,
    completion_tokens over the run), its uncommitted batch's included: never below what its
    committed batches counted."""
    con.execute(sql("count_unbatched_usage"), {**spent, "run_id": run_id})


def count_shared_items(con: duckdb.DuckDBPyConnection, run_id: str, spent: dict[str, int]) -> None:
    """Add to a Dask run's counts the calls and tokens (`spent`) its flow process paid for
    the items its partitions share, asked before they started."""
    names = ("calls", "failed", "prompt_tokens", "completion_tokens")
    con.execute(sql("count_shared_items"), {"run_id": run_id, **{k: spent[k] for k in names}})


def record_max_invalid_share(
    con: duckdb.DuckDBPyConnection, run_id: str, max_invalid_share: float
) -> None:
    con.execute(
        sql("record_max_invalid_share"),
        {"run_id": run_id, "max_invalid_share": max_invalid_share},
    )


def count_dry_batch(
    con: duckdb.DuckDBPyConnection,
    scored: ScoredBatch,
    *,
    run_id: str,
    config_id: str,
    config: MetricConfig,
    seconds: dict[str, float],
    batch_no: int | None = None,
) -> float:
    """A dry run's write step: the batch's counts and estimated calls and tokens go to its
    `runs` row, and its quarantined rows' counts by check to `run_quarantine_checks`, nothing
    else (no score, verdict, truth or quarantine row). The stand-in judge's pass count means
    nothing, so none is recorded."""
    del config_id, config, batch_no  # the write step's signature; nothing is written by them
    started = time.perf_counter()
    register(con, "new_quarantine", scored.quarantined.select("check", "row_key"))
    with transaction(con):
        con.execute(sql("count_quarantine_checks"), {"run_id": run_id})
        con.execute(
            sql("count_batch"),
            {
                **scored.counts,
                "rows_passed": 0,
                **scored.spent,
                "run_id": run_id,
                "now": datetime.now(UTC).replace(tzinfo=None),
                "seconds_read": seconds.get("read", 0.0),
                "seconds_validate": seconds.get("validate", 0.0),
                "seconds_score": scored.seconds_score,
                "seconds_write": 0.0,
            },
        )
    con.unregister("new_quarantine")
    return time.perf_counter() - started


def record_max_quarantine_share(
    con: duckdb.DuckDBPyConnection, run_id: str, max_quarantine_share: float
) -> None:
    """The --max-quarantine-share the run was checked against, in `runs`."""
    con.execute(
        sql("record_max_quarantine_share"),
        {"run_id": run_id, "max_quarantine_share": max_quarantine_share},
    )


def top_quarantine_checks(
    con: duckdb.DuckDBPyConnection,
    run_id: str,
    limit: int = 3,
    excluding: tuple[str, ...] = (),
) -> list[tuple[str, int]]:
    """(check, rows) the run's quarantined rows failed most, most frequent first, but the
    checks `excluding` names."""
    params = {"run_id": run_id, "limit": limit, "excluding": list(excluding)}
    rows = con.execute(sql("run_quarantine_checks"), params).fetchall()
    return [(check, int(count)) for check, count in rows]


def top_new_quarantine_checks(
    con: duckdb.DuckDBPyConnection,
    run_id: str,
    limit: int = 3,
    excluding: tuple[str, ...] = (),
) -> list[tuple[str, int]]:
    """(check, rows) the rows this run quarantined for the first time failed most: what a
    night's alarm of new rows is about, not the checks of old rows read again (nor those
    `excluding` names)."""
    params = {"run_id": run_id, "limit": limit, "excluding": list(excluding)}
    rows = con.execute(sql("run_new_quarantine_checks"), params).fetchall()
    return [(check, int(count)) for check, count in rows]
