"""`faith compare`'s numbers: two sides of the scored cases, their pass rates and mean scores
compared (macros of 017_comparisons), a seeded bootstrap, and the claims that changed most."""

from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass
from datetime import date
from typing import TYPE_CHECKING, Any

import polars as pl

from faith_udfs.compare_stats import (
    BOOTSTRAP_REPS,
    BOOTSTRAP_SEED,
    bootstrap_mean_diff,
    verdict_line,
)
from faith_udfs.errors import ConfigError
from flows.store.db import register, sql

if TYPE_CHECKING:
    import duckdb


@dataclass(frozen=True)
class Sides:
    """What each side holds: a config, a segment value, a window (None: not narrowed)."""

    a_config: str | None = None
    b_config: str | None = None
    segment: str | None = None
    a: str | None = None
    b: str | None = None
    since: date | None = None
    until: date | None = None
    a_since: date | None = None
    a_until: date | None = None
    b_since: date | None = None
    b_until: date | None = None
    threshold: float | None = None
    penalize_ambiguous: bool | None = None

    def params(self) -> dict[str, Any]:
        return asdict(self)

    def label(self, side: str, config: str) -> str:
        """How a side is named in the verdict: its segment value, window or config."""
        value = getattr(self, side)
        if value is not None:
            return str(value)
        since, until = getattr(self, f"{side}_since"), getattr(self, f"{side}_until")
        if since is not None or until is not None:
            return f"{since or '…'}..{until or '…'}"
        return config[:12]


def compare(
    con: duckdb.DuckDBPyConnection,
    sides: Sides,
    *,
    seed: int = BOOTSTRAP_SEED,
    reps: int = BOOTSTRAP_REPS,
    top_claims: int = 10,
) -> dict[str, Any]:
    """The whole comparison as one JSON-ready dict (what `faith compare --json` prints)."""
    if (sides.a is None) != (sides.b is None):
        raise ConfigError("--a and --b come together (two values of --segment)")
    if sides.a is not None and sides.segment is None:
        raise ConfigError("--a and --b are values of a segment column: give --segment")
    params = sides.params()
    a_config, b_config = con.sql(
        sql("compare_sides"), params=_used(params, "compare_sides")
    ).fetchall()[0]
    if a_config is None:
        raise ConfigError("nothing scored to compare")
    rates = _one_row(con, "compare_pass_rates", params)
    scores = _one_row(con, "compare_scores", params)
    cases = con.sql(sql("compare_cases"), params=params).pl()
    paired = bool(rates["paired"])
    interval = bootstrap_mean_diff(
        cases["a_score"], cases["b_score"], paired=paired, reps=reps, seed=seed
    )
    a_label, b_label = sides.label("a", a_config), sides.label("b", b_config)
    if a_label == b_label:
        a_label, b_label = f"A ({a_label})", f"B ({b_label})"
    counted = int(rates["pairs"]) if paired else int(rates["n_a"]) + int(rates["n_b"])
    verdict = verdict_line(
        b_label,
        rates["diff"],
        interval=(rates["ci_low"], rates["ci_high"]),
        p_value=rates["p_value"],
        cases=counted,
        paired=paired,
    )
    return {
        "a": {"label": a_label, "config_id": a_config},
        "b": {"label": b_label, "config_id": b_config},
        "sides": {k: (str(v) if isinstance(v, date) else v) for k, v in params.items()},
        "paired": paired,
        "verdict": verdict,
        "pass_rates": rates,
        "scores": {
            **scores,
            "bootstrap_low": None if interval is None else interval[0],
            "bootstrap_high": None if interval is None else interval[1],
            "bootstrap_reps": reps,
            "bootstrap_seed": seed,
        },
        "claims": changed_claims(con, cases, a_config, b_config, top_claims),
    }


def changed_claims(
    con: duckdb.DuckDBPyConnection, cases: pl.DataFrame, a_config: str, b_config: str, limit: int
) -> list[dict[str, Any]]:
    """Claims whose failures per 100 compared cases moved most between the sides."""
    side_a = cases.filter(pl.col("a_score").is_not_null()).select("case_id")
    side_b = cases.filter(pl.col("b_score").is_not_null()).select("case_id")
    if side_a.is_empty() or side_b.is_empty():
        return []
    register(con, "compared_a", side_a)
    register(con, "compared_b", side_b)
    try:
        frame = con.sql(
            sql("compare_claims"),
            params={
                "a_config": a_config,
                "b_config": b_config,
                "n_a": side_a.height,
                "n_b": side_b.height,
                "limit": limit,
            },
        ).pl()
    finally:
        con.unregister("compared_a")
        con.unregister("compared_b")
    return frame.to_dicts()


def store_comparison(con: duckdb.DuckDBPyConnection, result: dict[str, Any], at: Any) -> None:
    """One row of `comparisons`, for the report's 'latest comparison'."""
    rates, scores = result["pass_rates"], result["scores"]
    con.execute(
        sql("comparison_insert"),
        {
            "compared_at": at,
            "a_label": result["a"]["label"],
            "b_label": result["b"]["label"],
            "paired": result["paired"],
            "n_a": rates["n_a"],
            "n_b": rates["n_b"],
            "pairs": rates["pairs"],
            "rate_a": rates["rate_a"],
            "rate_b": rates["rate_b"],
            "diff": rates["diff"],
            "ci_low": rates["ci_low"],
            "ci_high": rates["ci_high"],
            "p_value": rates["p_value"],
            "score_diff": scores["diff"],
            "score_low": scores["bootstrap_low"],
            "score_high": scores["bootstrap_high"],
            "verdict": result["verdict"],
            "result": json.dumps(result, default=str),
        },
    )


def _one_row(con: duckdb.DuckDBPyConnection, name: str, params: dict[str, Any]) -> dict[str, Any]:
    return con.sql(sql(name), params=params).pl().to_dicts()[0]


def _used(params: dict[str, Any], name: str) -> dict[str, Any]:
    named = set(re.findall(r"\$(\w+)", sql(name)))
    return {key: value for key, value in params.items() if key in named}
