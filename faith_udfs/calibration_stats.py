"""Agreement of a judge's decisions with human labels, for calibration: balanced accuracy,
Cohen's kappa and ROC AUC as polars aggregations, seeded folds and seeded bootstrap intervals
(stdlib `random`: the same seed gives the same figures on every machine)."""

from __future__ import annotations

import random

import polars as pl

from faith_udfs.errors import ConfigError

METRICS = ("balanced_accuracy", "cohen_kappa", "roc_auc")
CONFIDENCE = 0.95
# Bootstrap draws (resamples x labelled cases) held at once: ~85 bytes each, so ~85 MB.
BOOTSTRAP_DRAWS = 1_000_000


def balanced_accuracy_expr(label: pl.Expr, success: pl.Expr) -> pl.Expr:
    """Mean of the recall of label 1 and of label 0 (null when one class is absent)."""
    positives = label.sum()
    negatives = (~label).sum()
    hit = (label & success).sum() / positives
    rejected = (~label & ~success).sum() / negatives
    return pl.when((positives > 0) & (negatives > 0)).then((hit + rejected) / 2)


def cohen_kappa_expr(label: pl.Expr, success: pl.Expr) -> pl.Expr:
    """Agreement of `success` with `label` beyond chance (null when chance explains all)."""
    n = pl.len().cast(pl.Float64)
    observed = (label == success).sum() / n
    chance = (label.sum() * success.sum() + (~label).sum() * (~success).sum()) / (n * n)
    return pl.when(chance < 1.0).then((observed - chance) / (1.0 - chance))


def roc_auc_expr(label: pl.Expr, score: pl.Expr) -> pl.Expr:
    """Chance that a label-1 case outscores a label-0 one, ties counting half (Mann-Whitney)."""
    positives = label.sum().cast(pl.Float64)
    negatives = (~label).sum().cast(pl.Float64)
    ranks = score.rank("average").filter(label).sum()
    auc = (ranks - positives * (positives + 1) / 2) / (positives * negatives)
    return pl.when((positives > 0) & (negatives > 0)).then(auc)


def agreement_exprs() -> list[pl.Expr]:
    """The three metrics of `label`, `success` and `score` in one group."""
    label, success, score = pl.col("label"), pl.col("success"), pl.col("score")
    return [
        balanced_accuracy_expr(label, success).alias("balanced_accuracy"),
        cohen_kappa_expr(label, success).alias("cohen_kappa"),
        roc_auc_expr(label, score).alias("roc_auc"),
    ]


def stratified_folds(labels: pl.DataFrame, *, folds: int, seed: int) -> pl.DataFrame:
    """`case_id`, `label`, `fold`: each class shuffled (seeded, from case_id order) and dealt
    round the folds, so every fold holds both classes in about the labels' proportion. Cases
    sharing a `fold_group` (when labels have one: the turns of one conversation, copies of one
    content) are kept in one fold, so none is measured on a near copy of what it was fitted on."""
    grouped = "fold_group" in labels.columns
    if not grouped or labels["fold_group"].drop_nulls().is_unique().all():
        return _dealt_by_case(labels, folds=folds, seed=seed)
    return _dealt_by_group(labels, folds=folds, seed=seed)


def _dealt_by_case(labels: pl.DataFrame, *, folds: int, seed: int) -> pl.DataFrame:
    rng = random.Random(seed)  # noqa: S311 - reproducible folds, not secrets
    dealt = []
    start = 0
    for label in (True, False):
        ids = sorted(labels.filter(pl.col("label") == label)["case_id"].to_list())
        rng.shuffle(ids)
        dealt += [(case_id, label, (start + i) % folds) for i, case_id in enumerate(ids)]
        start += len(ids)
    return _folds_frame(dealt)


def _dealt_by_group(labels: pl.DataFrame, *, folds: int, seed: int) -> pl.DataFrame:
    """Groups (a case without one is a group of its own) shuffled (seeded, from their order
    by first case_id), the largest first, each into the fold where its classes weigh least
    against that class's total: stratified as far as whole groups allow."""
    units = (
        labels.select(
            "case_id",
            "label",
            unit=pl.coalesce("fold_group", pl.lit("case ") + pl.col("case_id")),
        )
        .group_by("unit")
        .agg(pl.col("case_id").sort(), pl.col("label").sort_by("case_id"))
        .sort(pl.col("case_id").list.first())
    )
    members = [
        list(zip(ids, marks, strict=True))
        for ids, marks in units.select("case_id", "label").iter_rows()
    ]
    if len(members) < folds:
        raise ConfigError(
            f"the {labels.height} labelled cases make {len(members)} groups kept whole in one "
            f"fold each (a conversation's turns, copies of one content), fewer than --folds "
            f"{folds}: label cases of more conversations, or lower --folds"
        )
    random.Random(seed).shuffle(members)  # noqa: S311 - reproducible folds, not secrets
    members.sort(key=len, reverse=True)  # stable: equal sizes keep the shuffled order
    totals = {
        True: max(1, int(labels["label"].sum())),
        False: max(1, int((~labels["label"]).sum())),
    }
    held = [{True: 0, False: 0} for _ in range(folds)]
    dealt = []
    for unit in members:
        adds = {True: sum(mark for _, mark in unit), False: sum(not mark for _, mark in unit)}

        def weight(fold: int, adds: dict[bool, int] = adds) -> tuple[float, int, int]:
            shares = [(held[fold][c] + adds[c]) / totals[c] for c in (True, False) if adds[c]]
            return max(shares), held[fold][True] + held[fold][False], fold

        fold = min(range(folds), key=weight)
        for c in (True, False):
            held[fold][c] += adds[c]
        dealt += [(case_id, mark, fold) for case_id, mark in unit]
    return _folds_frame(dealt)


def _folds_frame(dealt: list[tuple[str, bool, int]]) -> pl.DataFrame:
    return pl.DataFrame(
        dealt, schema={"case_id": pl.String, "label": pl.Boolean, "fold": pl.Int32}, orient="row"
    )


def agreement_table(
    labels: pl.DataFrame, predictions: dict[str, pl.DataFrame], seed: int, resamples: int
) -> pl.DataFrame:
    """One row a metric: each judge's figure on all cases with its bootstrap interval, and the
    first judge's lead over the second (paired: both resampled on the same cases). Cases
    sharing a `fold_group` (a conversation's turns) are drawn together, group by group: drawn
    case by case, near copies made the intervals narrower than the figures are sure."""
    (first, first_frame), (second, second_frame) = predictions.items()
    # in case_id order, whatever order the frames come in: a join keeps none, and a resample
    # draws cases by their place
    grouped = "fold_group" in labels.columns
    cases = (
        labels.select("case_id", "label", *(["fold_group"] if grouped else []))
        .join(first_frame.select("case_id", "score", "success"), on="case_id")
        .join(second_frame.select("case_id", "score", "success"), on="case_id", suffix="_2")
        .sort("case_id")
        .with_row_index("row")
    )
    units = _units(cases) if grouped else None
    cases = cases.drop("case_id", "fold_group", strict=False)
    rng = random.Random(seed)  # noqa: S311 - a reproducible bootstrap, not secrets
    n = cases.height
    # resample 0 is the cases themselves: the figure reported; the rest give its interval
    parts = [_resampled(cases, pl.repeat(0, n, eager=True), cases["row"])]
    # drawn a slice of resamples at a time, in the order one draw of them all would take:
    # 5,000 labels x 100,000 resamples at once held ~40 GB and was killed for it
    step = max(1, BOOTSTRAP_DRAWS // max(n, 1))
    for start in range(1, resamples + 1, step):
        count = min(step, resamples + 1 - start)
        if units is None:
            ids = pl.int_range(start, start + count, eager=True).repeat_by(n).explode()
            rows = pl.Series(rng.choices(range(n), k=n * count), dtype=pl.UInt32)
        else:
            ids, rows = _groups_drawn(units, range(start, start + count), rng)
        parts.append(_resampled(cases, ids, rows))
    per_resample = pl.concat(parts).sort("resample")
    per_judge = {
        name: per_resample.select("resample", *(pl.col(f"{m}{suffix}").alias(m) for m in METRICS))
        for name, suffix in ((first, ""), (second, "_2"))
    }
    lead = per_judge[first].select("resample", *(pl.col(m) - per_judge[second][m] for m in METRICS))
    rows_out = []
    for metric in METRICS:
        row: dict[str, object] = {"metric": metric}
        for name, frame in (*per_judge.items(), ("difference", lead)):
            row[name], row[f"{name}_low"], row[f"{name}_high"] = _with_interval(frame, metric)
        rows_out.append(row)
    return pl.DataFrame(rows_out)


def _units(cases: pl.DataFrame) -> list[list[int]] | None:
    """The rows of each group of cases drawn together (a case without a `fold_group` alone),
    in the order of their first case; None when every case stands alone (drawn one by one,
    the same draws as labels without groups)."""
    unit = pl.coalesce("fold_group", pl.lit("case ") + pl.col("case_id"))
    rows = (
        cases.group_by(unit.alias("unit"))
        .agg(pl.col("row").sort())
        .sort(pl.col("row").list.first())
    )
    if rows.height == cases.height:
        return None
    return [list(each) for each in rows["row"]]


def _groups_drawn(
    units: list[list[int]], resamples: range, rng: random.Random
) -> tuple[pl.Series, pl.Series]:
    """(resample, row) of each drawn case: for each resample as many groups as there are,
    drawn with replacement, each with all its rows."""
    ids: list[int] = []
    rows: list[int] = []
    for resample in resamples:
        drawn = [row for unit in rng.choices(units, k=len(units)) for row in unit]
        rows += drawn
        ids += [resample] * len(drawn)
    return pl.Series(ids, dtype=pl.Int64), pl.Series(rows, dtype=pl.UInt32)


def _resampled(cases: pl.DataFrame, resample: pl.Series, row: pl.Series) -> pl.DataFrame:
    """Each judge's metrics (the second's suffixed `_2`) on each resample of `cases`, whose
    rows are drawn as `row`."""
    sample = pl.DataFrame({"resample": resample.cast(pl.Int64), "row": row.cast(pl.UInt32)})
    sample = sample.join(cases, on="row")
    first, second = (
        sample.select(
            "resample", "label", score=pl.col(f"score{suffix}"), success=pl.col(f"success{suffix}")
        )
        .group_by("resample")
        .agg(agreement_exprs())
        for suffix in ("", "_2")
    )
    return first.join(second, on="resample", suffix="_2")


def _with_interval(frame: pl.DataFrame, metric: str) -> tuple[float | None, ...]:
    """The figure on all cases (resample 0) and the percentile interval of the resamples."""
    point = frame.filter(pl.col("resample") == 0)[metric].item()
    spread = frame.filter(pl.col("resample") > 0)[metric].drop_nulls()
    if spread.is_empty():
        return point, None, None
    tail = (1.0 - CONFIDENCE) / 2
    low = spread.quantile(tail, "linear")
    high = spread.quantile(1.0 - tail, "linear")
    return point, low, high
