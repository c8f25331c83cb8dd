"""The human-labelled development sets (../shared/devsets, read in place, never copied):
loading them in one shape, and the figures every judge-quality script reports."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from pathlib import Path

import polars as pl

from faith_udfs.words import content_words, normalized

# Beside the repository: /work/main -> /work/shared/devsets; a clone next to `shared/` alike.
DEVSETS = Path(__file__).resolve().parents[1].parent / "shared" / "devsets"
SETS = ("salad", "wice", "begin", "qags", "summedits")
_LOGGED_AT = dt.datetime(2026, 1, 1)


def load_devset(name: str, root: Path = DEVSETS) -> pl.DataFrame | None:
    """One set as `case_id`, `actual_output`, `retrieval_context`, `logged_at`, `faithful`,
    `part`, `document` (a hash of the context), `sentences` (`text`, `supported`, or null),
    or None when its file is absent."""
    path = root / f"{name}_dev.parquet"
    if not path.exists():
        return None
    raw = pl.read_parquet(path)
    if "source" in raw.columns:
        part = pl.col("source").str.split(" | ").list.get(1, null_on_oob=True)
        part = part.str.replace(r" \(.*\)$", "")
    else:
        part = pl.col("subset")
    if name == "salad":
        sentences = pl.col("sentences")
    elif name == "qags":
        sentences = (
            pl.col("label_detail")
            .str.json_decode(
                pl.Struct(
                    {
                        "sentences": pl.List(
                            pl.Struct({"text": pl.String, "majority_supported": pl.Boolean})
                        )
                    }
                )
            )
            .struct.field("sentences")
            .list.eval(
                pl.struct(
                    text=pl.element().struct.field("text"),
                    supported=pl.element().struct.field("majority_supported"),
                )
            )
        )
    else:
        sentences = pl.lit(
            None, dtype=pl.List(pl.Struct({"text": pl.String, "supported": pl.Boolean}))
        )
    return raw.select(
        pl.lit(name).alias("set"),
        "case_id",
        "input",
        "actual_output",
        "retrieval_context",
        logged_at=pl.lit(_LOGGED_AT),
        faithful=pl.col("label") == 1,
        part=part,
        document=pl.col("retrieval_context").list.join("\n").hash(),
        sentences=sentences,
    )


def present_devsets(root: Path = DEVSETS) -> Iterator[tuple[str, pl.DataFrame]]:
    """(name, cases) of each set under `root` in SETS order; each absent one named and skipped."""
    for name in SETS:
        cases = load_devset(name, root)
        if cases is None:
            print(f"dev set {root / f'{name}_dev.parquet'} is absent: skipped")
            continue
        yield name, cases


def baseline_score(cases: pl.DataFrame) -> pl.Series:
    """1 minus the share of the answer's content words (stop words left out) found nowhere in
    the context: the no-claims baseline every judge is measured against."""
    rows = cases.select(
        "actual_output", context=pl.col("retrieval_context").list.join("\n")
    ).with_row_index("row")
    rows = normalized(normalized(rows, "actual_output"), "context")
    answer = rows.select("row", word=content_words(pl.col("actual_output"))).explode("word")
    context = (
        rows.select("row", word=content_words(pl.col("context")))
        .explode("word")
        .unique()
        .with_columns(found=pl.lit(True))
    )
    share = (
        answer.drop_nulls("word")
        .join(context, on=["row", "word"], how="left")
        .group_by("row")
        .agg(missing=pl.col("found").is_null().mean())
    )
    scored = rows.select("row").join(share, on="row", how="left", maintain_order="left")
    return scored.select(1.0 - pl.col("missing").fill_null(0.0))[:, 0]


def balanced_accuracy(truth: pl.Expr, predicted: pl.Expr) -> pl.Expr:
    """Mean of the true-positive and true-negative rates (the classes are unbalanced)."""
    positive = (truth & predicted).sum() / truth.sum()
    negative = (~truth & ~predicted).sum() / (~truth).sum()
    return (positive + negative) / 2


def roc_auc(truth: pl.Expr, score: pl.Expr) -> pl.Expr:
    """Area under the ROC curve of `score` for `truth`, from ranks (ties count half)."""
    ranks = score.rank("average")
    n_pos, n_neg = truth.sum(), (~truth).sum()
    return (ranks.filter(truth).sum() - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg)
