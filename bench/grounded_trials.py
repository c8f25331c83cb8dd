"""Bench (not a test): the rule changes tried on the grounded judge v2, re-run on the five dev
sets so each can be checked again (issue 20; docs/judge-quality.md). One was kept: what a
second sentence adds, weighted, is v3's `cov_second` (its row "v3 features (shipped)").

    python bench/grounded_trials.py [--devsets DIR]

Every trial refits the weights and the yes cut-off (bench/fit_grounded.py's fit) with its
change and prints, per set, balanced accuracy / ROC AUC of cases held out twice: 5 folds by
document, and each set held out in turn (fitted on the other four: a new shape). Trials:
finer claims (clauses, or runs of 3 content words) on answers of one or two sentences; extra
claim features (share and count of words missing, figures without their neighbours, word
pairs of the claim found in the context, the context's length, what a second sentence adds to
the best one); stems of 5 letters; and, on v2's weights, the yes cut-off swept, and
silent claims judged `no` (which breaks the seed's "It arrives tomorrow." -> `idk`). Trials
are on top of v2's features and weights (V2_NAMES, grounded_v2.py), as they were run. Absent
dev sets: says so and exits 0.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np
import polars as pl

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from common import table
from devsets import DEVSETS, SETS, load_devset
from fit_grounded import (
    NAMES,
    V2_NAMES,
    _Recording,
    _support,
    case_success,
    figures,
    held_out,
)

import faith_udfs.grounded_words as words
from faith_udfs import MetricConfig, score_cases
from faith_udfs.grounded import DEFAULT_CUTOFFS, WEIGHTS
from faith_udfs.grounded_features import claim_features
from faith_udfs.grounded_support import contradicted, feature_columns
from faith_udfs.grounded_v2 import V2_CUTOFFS, V2_WEIGHTS
from faith_udfs.word_rules import V7_WORD_RULES

SPLIT = "\x1f"
# Cut before these (the word stays with the piece after): clauses, then participles,
# appositions and brackets; a piece of fewer than MIN_PIECE content words joins the one before.
CLAUSES = (
    r",\s+((?:and|but|or|which|who|whom|whose|while|whereas|although|though|because|since|so"
    r"|yet|where|when|as)\b)",
    r";\s*()",
    r"\s+((?:but|whereas|although|because|while)\s)",
)
PHRASES = (r",\s+(\w+ing\b)", r",\s+((?:a|an|the)\s)", r"\s+[–—-]\s+()", r"\s+(\()")
MIN_PIECE = 3
FEW_CLAIMS = 2
ORDINALS = "first second third fourth fifth sixth seventh eighth ninth tenth".split()


def questions(root: Path) -> pl.DataFrame:
    """The judge's questions of every present set, one row per case with claims: `set`,
    `case_id`, `faithful`, `document`, `key`, `claims`, `truths`."""
    frames = []
    for name in SETS:
        cases = load_devset(name, root)
        if cases is None:
            continue
        judge = _Recording()
        scored = score_cases(cases, judge, MetricConfig())
        asked = pl.concat(judge.asked).unique("key", maintain_order=True)
        frames.append(
            scored.item_keys.drop_nulls("question_key")
            .select("case_id", key="question_key")
            .join(asked, on="key")
            .join(cases.select("case_id", "faithful", "document"), on="case_id")
            .with_columns(set=pl.lit(name))
        )
    return pl.concat(frames)


def claim_table(asked: pl.DataFrame) -> pl.DataFrame:
    """One row per claim: fit_grounded's columns (features under their model names) plus
    `claim`, `question_row`, `n_truths`, `lacks`, `missing` (words found nowhere)."""
    features = claim_features(asked.select("key", "claims", "truths"), rules=V7_WORD_RULES)
    meta = asked.select(
        "set", "case_id", "faithful", "document", n_truths=pl.col("truths").list.len()
    )
    return (
        features.with_columns(contradicted=contradicted(), **feature_columns())
        .with_columns(missing=pl.col("lacks").list.len().cast(pl.Float64))
        .join(meta.with_row_index("question_row"), on="question_row", maintain_order="left")
    )


def finer(asked: pl.DataFrame, cut: Callable[[pl.DataFrame], pl.DataFrame]) -> pl.DataFrame:
    """`asked` with each claim of answers of at most FEW_CLAIMS claims cut into pieces by
    `cut` (`claim_row`, `claim` in; `claim_row`, `piece` out, in order)."""
    few = asked.with_row_index("q").filter(pl.col("claims").list.len() <= FEW_CLAIMS)
    rows = few.select("q", claim="claims").explode("claim").with_row_index("claim_row")
    pieces = cut(rows.select("claim_row", "claim")).join(
        rows.select("claim_row", "q"), on="claim_row"
    )
    regrouped = pieces.group_by("q", maintain_order=True).agg(cut_claims=pl.col("piece"))
    joined = asked.with_row_index("q").join(regrouped, on="q", how="left", maintain_order="left")
    return joined.with_columns(pl.coalesce("cut_claims", "claims").alias("claims")).drop(
        "q", "cut_claims"
    )


def _content(text: pl.Expr) -> pl.Expr:
    """How many content words a text has (the grounded judge's stop words left out)."""
    bare = text.str.to_lowercase().str.extract_all(r"[^\W_]+")
    return bare.list.filter(~pl.element().is_in(list(words.GROUNDED_STOP_WORDS))).list.len()


def at_clauses(rules: tuple[str, ...]) -> Callable[[pl.DataFrame], pl.DataFrame]:
    """Pieces cut before `rules`' matches; a short piece joins the piece before it."""

    def cut(rows: pl.DataFrame) -> pl.DataFrame:
        text = pl.col("claim")
        for rule in rules:
            text = text.str.replace_all(rule, SPLIT + "$1")
        pieces = (
            rows.with_columns(piece=text.str.split(SPLIT))
            .explode("piece")
            .with_columns(pl.col("piece").str.strip_chars(" ,;"))
            .filter(pl.col("piece").str.len_chars() > 0)
            .with_columns(n=_content(pl.col("piece")), i=pl.int_range(pl.len()).over("claim_row"))
            .with_columns(
                g=((pl.col("n") >= MIN_PIECE) & (pl.col("i") > 0)).cum_sum().over("claim_row")
            )
        )
        grouped = pieces.group_by("claim_row", "g", maintain_order=True)
        return grouped.agg(piece=pl.col("piece").str.join(", ")).drop("g")

    return cut


def in_runs(k: int) -> Callable[[pl.DataFrame], pl.DataFrame]:
    """Pieces of k content words each (the words between go with the run they end)."""

    def cut(rows: pl.DataFrame) -> pl.DataFrame:
        spans = rows.with_columns(word=pl.col("claim").str.split(" ")).explode("word")
        content = _content(pl.col("word")) > 0
        run = (content.cast(pl.Int32).cum_sum().over("claim_row") - content.cast(pl.Int32)) // k
        last = (_content(pl.col("claim")).first().over("claim_row") - 1).clip(0) // k
        grouped = spans.with_columns(g=pl.min_horizontal(run, last)).group_by(
            "claim_row", "g", maintain_order=True
        )
        return grouped.agg(piece=pl.col("word").str.join(" ")).drop("g")

    return cut


def _stems(text: pl.Expr, ordinals: bool = False) -> pl.Expr:
    """The text's content words in order, stemmed as the judge does (figures whole)."""
    tokens = (
        text.str.replace_all(r"(?i)n['’]t\b", " not").str.to_lowercase().str.extract_all(r"[^\W_]+")
    )
    tokens = tokens.list.filter(~pl.element().is_in(list(words.GROUNDED_STOP_WORDS)))
    whole = pl.element().str.contains(r"\d")
    if ordinals:
        whole = whole | pl.element().is_in(ORDINALS)
    return tokens.list.eval(pl.when(whole).then(pl.element()).otherwise(words.stem(pl.element())))


def sentence_stems(asked: pl.DataFrame, ordinals: bool = False) -> pl.DataFrame:
    """Each question's context sentences as rows of their stems, in order: `q` (the
    question's row), `t_row` (the sentence), `s`."""
    truths = asked.select(q=pl.int_range(pl.len(), dtype=pl.UInt32), t="truths").explode("t")
    return truths.with_row_index("t_row").with_columns(s=_stems(pl.col("t"), ordinals)).explode("s")


def claim_stems(rows: pl.DataFrame, ordinals: bool = False) -> pl.DataFrame:
    """Each claim's stems, a list per claim: `c` (the claim's row), `q`, `s`."""
    return rows.with_row_index("c").select(
        "c", q="question_row", s=_stems(pl.col("claim"), ordinals)
    )


def pair_features(rows: pl.DataFrame, asked: pl.DataFrame) -> pl.DataFrame:
    """`pairs`: share of the claim's neighbouring content words that are neighbours (or one
    apart) in a context sentence; `figure_alone`: a figure (or ordinal) of the claim next
    to neither of its neighbours anywhere in the context ("7%" where the context says 17%)."""
    truths = sentence_stems(asked, ordinals=True)
    after = [pl.col("s").shift(-d).over("t_row").alias("b") for d in (1, 2)]
    known = pl.concat([truths.select("q", a="s", b=b) for b in after]).drop_nulls().unique()
    known = known.with_columns(hit=pl.lit(True))
    claims = (
        claim_stems(rows, ordinals=True)
        .explode("s")
        .drop_nulls("s")
        .with_columns(prev=pl.col("s").shift(1).over("c"), next=pl.col("s").shift(-1).over("c"))
    )
    pairs = claims.drop_nulls("next").filter(pl.col("s") != pl.col("next"))
    pairs = pairs.join(known, left_on=["q", "s", "next"], right_on=["q", "a", "b"], how="left")
    figure = pl.col("s").str.contains(r"\d") | pl.col("s").is_in(ORDINALS)
    lone = claims.filter(figure).with_row_index("f")
    lone = lone.join(
        known, left_on=["q", "prev", "s"], right_on=["q", "a", "b"], how="left"
    ).unique("f")
    lone = lone.rename({"hit": "h1"}).join(
        known, left_on=["q", "s", "next"], right_on=["q", "a", "b"], how="left"
    )
    lone = lone.unique("f").with_columns(alone=pl.col("h1").is_null() & pl.col("hit").is_null())
    share = pairs.group_by("c").agg(pairs=pl.col("hit").is_not_null().mean())
    alone = lone.group_by("c").agg(figure_alone=pl.col("alone").any().cast(pl.Float64))
    return (
        rows.with_row_index("c")
        .join(share, on="c", how="left")
        .join(alone, on="c", how="left")
        .with_columns(pl.col("pairs").fill_null(1.0), pl.col("figure_alone").fill_null(0.0))
        .drop("c")
    )


def second_sentence(rows: pl.DataFrame, asked: pl.DataFrame) -> pl.DataFrame:
    """What the next best context sentence adds to the best one (the two chosen greedily),
    as a share of the claim's distinct content words: a claim that combines two sentences,
    which `cov_best` reads as half supported. `second_gain` counts the words plainly,
    `second_weighted` weighs them as the judge does, by their rarity in the case's context
    (ln(1 + (n + 1) / (d + 1)), n its sentences, d those holding the word)."""
    truths = sentence_stems(asked).drop_nulls("s").unique(["t_row", "s"])
    spread = truths.group_by("q", "s").agg(d=pl.len())
    claims = (
        claim_stems(rows)
        .with_columns(n=rows["n_truths"])
        .explode("s")
        .drop_nulls("s")
        .unique(["c", "s"])
        .join(spread, on=["q", "s"], how="left")
        .with_columns(w=(1.0 + (pl.col("n") + 1) / (pl.col("d").fill_null(0) + 1)).log())
    )
    hits = claims.join(truths.select("q", "t_row", "s"), on=["q", "s"])
    gains = [
        _second_share(claims, hits, pl.lit(1.0), "second_gain"),
        _second_share(claims, hits, pl.col("w"), "second_weighted"),
    ]
    out = rows.with_row_index("c")
    for gain in gains:
        out = out.join(gain, on="c", how="left")
    return out.with_columns(pl.col("second_gain", "second_weighted").fill_null(0.0)).drop("c")


def _second_share(
    claims: pl.DataFrame, hits: pl.DataFrame, weight: pl.Expr, name: str
) -> pl.DataFrame:
    """Per claim `c`: the `weight` of its words the best sentence lacks and the next best
    holds, over the weight of all its words."""
    hits = hits.with_columns(v=weight)
    per_sentence = hits.group_by("c", "t_row").agg(v=pl.col("v").sum())
    best = per_sentence.sort(["c", "v", "t_row"], descending=[False, True, False]).unique(
        "c", keep="first"
    )
    held = hits.join(best.select("c", "t_row"), on=["c", "t_row"]).select("c", "s")
    second = (
        hits.join(held, on=["c", "s"], how="anti")
        .group_by("c", "t_row")
        .agg(v=pl.col("v").sum())
        .group_by("c")
        .agg(v2=pl.col("v").max())
    )
    total = claims.with_columns(v=weight).group_by("c").agg(total=pl.col("v").sum())
    return total.join(second, on="c", how="left").select(
        "c", **{name: pl.col("v2").fill_null(0.0) / pl.col("total")}
    )


def extra_features(rows: pl.DataFrame, asked: pl.DataFrame) -> pl.DataFrame:
    """The trial features beside the model's: `missing_share`, `missing_log`,
    `truths_log` and its products with the coverages, `pairs`, `figure_alone`,
    `second_gain`, `second_weighted`."""
    context = pl.col("n_truths").cast(pl.Float64).log1p()
    return second_sentence(pair_features(rows, asked), asked).with_columns(
        missing_share=pl.col("missing") / pl.col("n_words").clip(1),
        missing_log=pl.col("missing").log1p(),
        truths_log=context,
        truths_best=context * pl.col("cov_best"),
        truths_all=context * pl.col("cov_all"),
    )


FEATURE_TRIALS: dict[str, tuple[str, ...]] = {
    "v2 features": (),
    "v3 features (shipped)": ("cov_second",),
    "+ share of words missing": ("missing_share",),
    "+ ln(1 + words missing)": ("missing_log",),
    "+ figure without its neighbours": ("figure_alone",),
    "+ word pairs found": ("pairs",),
    "+ context length, x coverage": ("truths_log", "truths_best", "truths_all"),
    "+ what a second sentence adds": ("second_gain",),
    "+ what a second sentence adds, weighted": ("second_weighted",),
}
CLAIM_TRIALS: dict[str, Callable[[pl.DataFrame], pl.DataFrame]] = {
    "clause pieces (1-2 sentence answers)": at_clauses(CLAUSES),
    "clause and phrase pieces (1-2 sentences)": at_clauses(CLAUSES + PHRASES),
    "runs of 3 content words (1-2 sentences)": in_runs(3),
}


def _row(trial: str, split: str, cases: pl.DataFrame) -> dict[str, str]:
    per_set = figures(cases)
    cells = {s: f"{b:.3f} / {a:.3f}" for s, b, a in per_set.select("set", "bal_acc", "auc").rows()}
    return {"trial": trial, "held out": split, **cells}


def refitted(trial: str, rows: pl.DataFrame, names: tuple[str, ...]) -> list[dict[str, str]]:
    """Rows of figures: held out by document (5 folds), and set by set (of two sets or more)."""
    out = [_row(trial, "by document", held_out(rows, names))]
    if rows["set"].n_unique() > 1:
        out.append(_row(trial, "by set", held_out(rows, names, by_set=True)))
    return out


def shipped(rows: pl.DataFrame) -> list[dict[str, str]]:
    """v2's weights (all rows): yes cut-offs around its 0.58, and silent claims (no word in a
    grounded answer's context, now `idk`) judged `no`; v3's, and short claims that miss a word
    kept from `yes`."""
    beta = np.array([V2_WEIGHTS[name] for name in V2_NAMES])
    support = _support(rows, beta, V2_NAMES)
    out = [
        _row(f"yes cut-off {cut:.2f}", "(all rows)", case_success(rows, support, cut))
        for cut in (0.5, 0.54, 0.58, 0.62)
    ]
    silent_no = np.where((support < 0.001) & rows["has_words"].to_numpy(), 0.001, support)
    out.append(
        _row(
            "silent claims `no` (breaks the seed)",
            "(all rows)",
            case_success(rows, silent_no, V2_CUTOFFS.supported),
        )
    )
    # v3's numbers: a short claim (SHORT_CLAIM_WORDS content words at most) missing a word
    # ("Order A17 was lost.") never `yes`, against v3 as shipped
    beta = np.array([WEIGHTS[name] for name in NAMES])
    support, cut = _support(rows, beta), DEFAULT_CUTOFFS.supported
    out.append(_row("v3 (shipped)", "(all rows)", case_success(rows, support, cut)))
    short = (rows["short_gap"].to_numpy() > 0) & ~rows["verbatim"].to_numpy()
    capped = np.where(short & (support >= cut), cut - 1e-9, support)
    out.append(
        _row(
            "v3, short claims missing a word never `yes`",
            "(all rows)",
            case_success(rows, capped, cut),
        )
    )
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--devsets", type=Path, default=DEVSETS)
    args = parser.parse_args()
    if not any((args.devsets / f"{name}_dev.parquet").exists() for name in SETS):
        print(f"no dev set under {args.devsets}: nothing to try")
        return 0
    asked = questions(args.devsets)
    rows = extra_features(claim_table(asked), asked)
    results = shipped(rows)
    for trial, extra in FEATURE_TRIALS.items():
        results += refitted(trial, rows, (*V2_NAMES, *extra))
    for trial, cut in CLAIM_TRIALS.items():
        results += refitted(trial, claim_table(finer(asked, cut)), V2_NAMES)
    length = words.STEM_LENGTH
    words.STEM_LENGTH = 5
    try:
        results += refitted("stems of 5 letters (not 6)", claim_table(asked), V2_NAMES)
    finally:
        words.STEM_LENGTH = length
    present = [s for s in SETS if s in results[0]]
    print("balanced accuracy / ROC AUC of cases held out (cases without claims left out)\n")
    print(table(results, ["trial", "held out", *present]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
