"""Readable names of metric configs for the report: judge, threshold, penalty, strict mode and
calibration from the stored config, with a short hash beside them so that two configs differing
only in a setting the label leaves out (a prompt version, a truths limit) are still told apart."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from faith_udfs.config import MetricConfig
from flows.printable import printable
from flows.store.db import sql

if TYPE_CHECKING:
    from collections.abc import Iterable

    import duckdb

CONFIG_PREFIX = "faith-"  # MetricConfig.config_id: faith-<16 hex digits of sha256>
SHORT_HASH = 8  # hex digits shown beside a label; more when two configs would share them


def judge_text(kind: str | None, model: str | None) -> str:
    """`grounded-v13`, `lexical-v1`, `openai:gpt-4o-mini`: the model alone when it names its
    kind."""
    if not kind and not model:
        return "judge unknown"
    if not model:
        return str(kind)
    if not kind or model.startswith(kind):
        return model
    return f"{kind}:{model}"


def _judge_of(config: str | None) -> dict[str, Any]:
    """The `judge` object of a run's stored config JSON (empty when none was recorded)."""
    if not config:
        return {}
    judge = json.loads(config).get("judge")
    return judge if isinstance(judge, dict) else {}


def describe_config(
    judge: dict[str, Any],
    threshold: float | None,
    penalize: bool | None,
    strict: bool | None,
    calibration: str | None = None,
) -> str:
    """'grounded-v13, threshold 0.5, penalize ambiguous, strict, calibration acme'."""
    parts = [judge_text(judge.get("kind"), judge.get("model"))]
    if threshold is not None:
        parts.append(f"threshold {threshold:g}")
    if penalize:
        parts.append("penalize ambiguous")
    if strict:
        parts.append("strict")
    if calibration:
        parts.append(f"calibration {calibration}")
    elif {"supported", "silent"} <= set(judge.get("options") or {}):
        parts.append("calibrated")  # cut-offs no stored calibration has (renamed or dropped)
    # the model is as --model was typed: its control characters (an ESC, a U+202E that drew
    # the rest of a line backwards) are shown in every table, legend and title, not obeyed
    return printable(", ".join(parts))


def short_hashes(config_ids: Iterable[str]) -> dict[str, str]:
    """Each config's hash cut to SHORT_HASH digits, longer where two would collide; an id not
    made by MetricConfig (a test's 'lex') is shown whole."""
    ids = sorted(set(config_ids))
    digits = {c: c.removeprefix(CONFIG_PREFIX) for c in ids}
    length = SHORT_HASH
    while length < max((len(d) for d in digits.values()), default=0):
        cut = [d[:length] for d in digits.values()]
        if len(set(cut)) == len(cut):
            break
        length += 4
    return {c: d[:length] for c, d in digits.items()}


Stored = tuple[str, str, float, float, Any, float, bool]


def _calibrations(con: duckdb.DuckDBPyConnection) -> list[Stored]:
    """(name, judge_model, supported, silent, weights, threshold, penalize_ambiguous_claims)
    of each stored calibration (none before 020; weights: a JSON object, or NULL for the
    judge's own)."""
    if not con.execute(sql("report_has_calibrations")).fetchall()[0][0]:
        return []
    rows = con.sql(sql("report_calibrations")).pl().to_dicts()
    columns = ("name", "judge_model", "supported", "silent")
    return [
        (
            *(row[c] for c in columns),
            row.get("weights"),
            row["threshold"],
            row["penalize_ambiguous_claims"],
        )
        for row in rows
    ]


def _keeps_judges_numbers(model: str, supported: float, silent: float, weights: Any) -> bool:
    """Whether a calibration kept its rules version's own cut-offs and weights: the judge it
    scores with then carries no numbers of its own (`GroundedJudge.__init__`)."""
    from faith_udfs.grounded import GROUNDED_JUDGES

    defaults = {judge.rules_version: judge.default_cutoffs for judge in GROUNDED_JUDGES}
    own = defaults.get(model)
    return (
        own is not None
        and weights is None
        and (own.supported, own.silent) == (float(supported), float(silent))
    )


def _calibration_name(
    judge: dict[str, Any], stored: list[Stored], threshold: float | None, penalize: bool | None
) -> str | None:
    """The stored calibrations whose numbers the judge ran with ('a or b': runs keep the
    numbers only, so which of two alike was named cannot be told). A calibration that kept
    the judge's own cut-offs and weights names the series of its threshold (and penalty),
    but for the default judge's own threshold: that series is the default judge's."""
    options = judge.get("options") or {}
    if "supported" not in options or "silent" not in options:
        if (
            judge.get("kind") != "grounded"
            or threshold is None
            or threshold == MetricConfig.threshold
        ):
            return None
        kept = [
            name
            for name, model, supported, silent, weights, fitted, penalized in stored
            if model == judge.get("model")
            and _keeps_judges_numbers(model, supported, silent, weights)
            and fitted == threshold
            and bool(penalized) == bool(penalize)
        ]
        return " or ".join(kept) or None
    ran_with = json.loads(options["weights"]) if "weights" in options else None
    names = [
        name
        for name, model, supported, silent, weights, *_ in stored
        if model == judge.get("model")
        and float(options["supported"]) == supported
        and float(options["silent"]) == silent
        and (None if weights is None else json.loads(weights)) == ran_with
    ]
    return " or ".join(names) or None


def config_labels(con: duckdb.DuckDBPyConnection) -> dict[str, str]:
    """A short description of each config: judge and the settings its runs used (no hash)."""
    stored = _calibrations(con)
    labels = {}
    for config_id, cases_threshold, penalize, strict, config in con.execute(
        sql("report_config_labels")
    ).fetchall():
        judge = _judge_of(config)
        threshold = cases_threshold
        if threshold is None and config:  # a config with runs but no case yet
            threshold = json.loads(config).get("threshold")
        labels[config_id] = describe_config(
            judge,
            threshold,
            penalize,
            strict,
            _calibration_name(judge, stored, threshold, penalize),
        )
    return labels


def config_names(con: duckdb.DuckDBPyConnection, also: Iterable[str] = ()) -> dict[str, str]:
    """Each config as the report shows it: 'grounded-v13, threshold 0.5 [1c8e3ae1]'; `also`:
    ids to name that metric_configs may not list (a comparison's), shown by hash alone."""
    labels = config_labels(con)
    hashes = short_hashes([*labels, *also])
    return {
        config_id: f"{labels[config_id]} [{short}]" if config_id in labels else f"[{short}]"
        for config_id, short in hashes.items()
    }


def name_of(names: dict[str, str], config_id: str | None) -> str:
    """`config_id`'s report name, the id itself when it is not known."""
    if config_id is None:
        return ""
    return names.get(config_id, config_id)
