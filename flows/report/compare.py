"""`faith compare`'s numbers: two sides of the scored cases, their pass rates and mean scores
compared (macros of 017_comparisons), a seeded bootstrap, and the claims that changed most."""

from __future__ import annotations

import json
import math
import re
from dataclasses import asdict, dataclass
from datetime import date
from typing import TYPE_CHECKING, Any, NoReturn

import polars as pl

from faith_udfs.compare_stats import (
    BOOTSTRAP_REPS,
    BOOTSTRAP_SEED,
    bootstrap_mean_diff,
    verdict_line,
)
from faith_udfs.errors import ConfigError
from flows.store.db import register, sql

# The bounds of `faith compare`'s numbers, checked before anything is opened: a seed numpy
# takes, resamples that end in minutes at most (a million: ~1 s of case scores; values mostly
# distinct are resampled case by case, ~2 min a side of 20,000), and as many claims as a LIMIT
# takes.
MAX_SEED = 2**31 - 1
MAX_REPS = 1_000_000
MAX_CLAIMS = 2**31 - 1

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

    def check(self) -> None:
        """Refuse --a/--b without each other or without --segment, and --segment without
        them (it was ignored: every case compared), exit 2, before anything is opened."""
        if (self.a is None) != (self.b is None):
            raise ConfigError("--a and --b come together (two values of --segment)")
        if self.a is not None and self.segment is None:
            raise ConfigError("--a and --b are values of a segment column: give --segment")
        if self.segment is not None and self.a is None:
            raise ConfigError(
                f"--segment {self.segment} needs the two values to compare: give --a VALUE "
                "--b VALUE (or leave --segment out to compare every case)"
            )
        for side in ("a", "b"):
            self._check_window(side)

    def _check_window(self, side: str) -> None:
        """Refuse a side's window that ends before it starts (it read as "the sides are the
        same" or "no case", exit 2 either way but saying something else), naming the options
        that set its ends: a side's own, else the shared --since / --until."""
        ends = []
        for end in ("since", "until"):
            own = getattr(self, f"{side}_{end}")
            shared = (f"--{end}", getattr(self, end))
            ends.append((f"--{side}-{end}", own) if own is not None else shared)
        (since_option, since), (until_option, until) = ends
        if since is not None and until is not None and since > until:
            raise ConfigError(
                f"{since_option} {since} is after {until_option} {until}: no day is in side "
                f"{side.upper()}'s window"
            )

    def config_option(self, side: str) -> str | None:
        """The option that names a side's config: its own, or --a-config for B by default;
        None when the side reads the config scored most recently."""
        if getattr(self, f"{side}_config") is not None:
            return f"--{side}-config"
        return "--a-config" if self.a_config is not None else None

    def options(self, side: str, config: str) -> str:
        """What selects one side, as the options that say it: 'config X (--b-config), --segment
        app_version --b 2.4.0, --b-since 2026-10-01', for an error naming the side."""
        parts = [f"config {config} ({self.config_option(side) or 'the latest scored'})"]
        value = getattr(self, side)
        if value is not None:
            parts.append(f"--segment {self.segment} --{side} {value}")
        for end in ("since", "until"):
            own = getattr(self, f"{side}_{end}")
            if own is not None:
                parts.append(f"--{side}-{end} {own}")
            elif getattr(self, end) is not None:
                parts.append(f"--{end} {getattr(self, end)}")
        return ", ".join(parts)

    def window(self, side: str) -> tuple[date | None, date | None]:
        """A side's days: its own --X-since/--X-until, else --since/--until."""
        since, until = getattr(self, f"{side}_since"), getattr(self, f"{side}_until")
        return (self.since if since is None else since, self.until if until is None else until)

    def same_cases(self, a_config: str, b_config: str) -> bool:
        """Whether both sides select the same cases under the same config: nothing to compare."""
        same_window = self.window("a") == self.window("b")
        return a_config == b_config and self.a == self.b and same_window

    def labels(self, a_config: str, b_config: str) -> tuple[str, str]:
        """How the sides are named in the verdict: by what tells them apart, their segment
        values, else their windows, else their configs (whole: what --a-config takes)."""
        if self.a != self.b:
            return str(self.a), str(self.b)
        if self.window("a") != self.window("b"):
            return window_label(*self.window("a")), window_label(*self.window("b"))
        return a_config, b_config


def window_label(since: date | None, until: date | None) -> str:
    """A side's days in words: '2026-11-01..2026-11-05', 'from 2026-11-06', 'until
    2026-11-05', 'all days' (a side with no window was '…..…')."""
    if since is not None and until is not None:
        return f"{since}..{until}"
    if since is not None:
        return f"from {since}"
    return f"until {until}" if until is not None else "all days"


def compare(
    con: duckdb.DuckDBPyConnection,
    sides: Sides,
    *,
    seed: int = BOOTSTRAP_SEED,
    reps: int = BOOTSTRAP_REPS,
    top_claims: int = 10,
) -> dict[str, Any]:
    """The whole comparison as one JSON-ready dict (what `faith compare --json` prints).
    A side that selects no scored case, or two configs with no case in common, is refused
    (ConfigError, exit 2): nothing is printed or kept."""
    check_numbers(seed=seed, reps=reps, top_claims=top_claims)
    sides.check()
    params = sides.params()
    a_config, b_config = con.sql(
        sql("compare_sides"), params=_used(params, "compare_sides")
    ).fetchall()[0]
    if a_config is not None and sides.same_cases(a_config, b_config):
        stored = {row[0] for row in con.sql(sql("compare_configs")).fetchall()}
        if a_config not in stored:  # a mistyped --a-config is named, not called the same
            refuse_nothing_compared(con, sides, a_config, b_config)
        # --b-config alone is compared with the latest config: that may be the one given
        other = (
            "--a-config another config (side A is the config scored most recently when "
            "--a-config is not given)"
            if sides.b_config is not None and sides.a_config is None
            else "--b-config another config"
        )
        raise ConfigError(
            f"side A and side B are the same ({sides.options('a', a_config)}): nothing to "
            f"compare; give {other}, --segment COL --a VALUE --b VALUE, or two windows"
        )
    rates = _one_row(con, "compare_pass_rates", params)
    if rates["n_a"] == 0 or rates["n_b"] == 0:
        refuse_nothing_compared(con, sides, a_config, b_config)
    # an outside insert's infinite score: its mean, difference and interval are no number
    # (`Infinity`, `NaN` in --json: no JSON to a strict parser), said as null, as the bootstrap's
    scores = {
        key: None if isinstance(value, float) and not math.isfinite(value) else value
        for key, value in _one_row(con, "compare_scores", params).items()
    }
    cases = con.sql(sql("compare_cases"), params=params).pl()
    paired = bool(rates["paired"])
    interval = bootstrap_mean_diff(
        cases["a_score"], cases["b_score"], paired=paired, reps=reps, seed=seed
    )
    a_label, b_label = sides.labels(a_config, b_config)
    counted = int(rates["pairs"]) if paired else int(rates["n_a"]) + int(rates["n_b"])
    verdict = verdict_line(
        b_label,
        rates["diff"],
        interval=(rates["ci_low"], rates["ci_high"]),
        p_value=rates["p_value"],
        cases=counted,
        paired=paired,
    )
    # Ids both configs scored, each with another content (re-delivered): no pair, said so
    # beside the pairs, so a comparison of a few pairs is not read as one of every case.
    left_out = _ids_left_out(con, params, a_config, b_config, counted) if paired else 0
    if left_out:
        verdict += f"; {left_out:,} case ids scored under both with another content left out"
    return {
        "a": {"label": a_label, "config_id": a_config},
        "b": {"label": b_label, "config_id": b_config},
        "sides": {k: (str(v) if isinstance(v, date) else v) for k, v in params.items()},
        "paired": paired,
        "ids_left_out": left_out,
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


def _ids_left_out(
    con: duckdb.DuckDBPyConnection, params: dict, a_config: str, b_config: str, pairs: int
) -> int:
    """How many case ids both configs scored beyond the pairs: each with another content."""
    return max(_common_ids(con, params, a_config, b_config) - pairs, 0)


def _common_ids(con: duckdb.DuckDBPyConnection, params: dict, a_config: str, b_config: str) -> int:
    """How many case ids both configs scored on their sides, whatever their contents."""
    both = {**_used(params, "compare_common_ids"), "a_config": a_config, "b_config": b_config}
    return int(con.sql(sql("compare_common_ids"), params=both).fetchall()[0][0])


def check_numbers(*, seed: int, reps: int, top_claims: int) -> None:
    """Refuse a seed, a number of resamples or of claims out of range (exit 2), naming the
    option and its range: they reached polars and DuckDB as internal errors (exit 1)."""
    for option, value, low, high in (
        ("--seed", seed, 0, MAX_SEED),
        ("--reps", reps, 1, MAX_REPS),
        ("--claims", top_claims, 0, MAX_CLAIMS),
    ):
        if not low <= value <= high:
            raise ConfigError(f"{option} must be {low} to {high:,}, got {value}")


def refuse_nothing_compared(
    con: duckdb.DuckDBPyConnection, sides: Sides, a_config: str | None, b_config: str | None
) -> NoReturn:
    """Say why a side of the comparison is empty (ConfigError, exit 2): nothing is scored, a
    config is not stored (listing those that are), a side's options select no scored case
    (naming them), or two paired configs share no case (or its ids only, each with another
    content: said so, since the user scored those ids under both). Such a comparison printed
    '0 of 0' and exited 0, and was kept as the report's latest."""
    stored = [row[0] for row in con.sql(sql("compare_configs")).fetchall()]
    if not stored or a_config is None or b_config is None:
        raise ConfigError("nothing scored to compare: run `faith score` first")
    params = {**_used(sides.params(), "compare_side_counts"), "a_config": a_config}
    n_a, n_b = con.sql(
        sql("compare_side_counts"), params={**params, "b_config": b_config}
    ).fetchall()[0]
    for side, config, n in (("a", a_config, n_a), ("b", b_config, n_b)):
        if n > 0:
            continue
        if config not in stored:
            option = sides.config_option(side) or "the config scored most recently"
            raise ConfigError(
                f"{option} {config!r}: no case is scored under this config (configs with "
                f"scored cases, latest first: {', '.join(stored)})"
            )
        raise ConfigError(
            f"side {side.upper()} selects no scored case: {sides.options(side, config)}"
        )
    common = _common_ids(con, sides.params(), a_config, b_config)
    where = f"(side A: {sides.options('a', a_config)}; side B: {sides.options('b', b_config)})"
    if common:  # the same ids, re-delivered with another content under one config
        raise ConfigError(
            f"configs {a_config} and {b_config} both scored {common:,} case ids, but each with "
            "another content (re-delivered with another answer, question or passages): "
            "nothing to pair, as a pair is one content judged under both; score the same "
            f"delivery under both configs {where}"
        )
    raise ConfigError(
        f"configs {a_config} and {b_config} have no scored case in common: nothing to pair " + where
    )


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
