"""Per-claim features of the grounded judge (v2 and v3): each claim against its case's whole
context.

A claim's words are weighed by how rare they are in its own case's context (a word in few of
the case's sentences says more than the topic's words, a word in none says most), and
measured against the union of the context (`cov_all`), its best sentence (`cov_best`) and the
best other sentence for what that one lacks (`cov_second`, weighed by v3 only). Figures and
names found nowhere in the context, and a negation one side has and the other lacks, are
counted apart. All of it is joins and group-bys over (claim, word) rows: no row loop, no model."""

from __future__ import annotations

from typing import Literal

import numpy as np
import polars as pl

from faith_udfs.grounded_words import GROUNDED_STOP_WORDS, negation_stems, stem
from faith_udfs.lexical import pair_key
from faith_udfs.list_rows import as_lists
from faith_udfs.quantities import quantity_rows, units_swapped
from faith_udfs.row_sums import answer_share, best_truths, row_counts
from faith_udfs.word_rules import (
    WordRules,
    changed_where,
    joined_numbers_of,
    number_forms_of,
    shown_words,
    swapped_opposites,
)
from faith_udfs.words import WORD_SEPARATOR, normalized

# Integer weight units: sums are exact in any order, so a batch and a case alone agree.
_UNIT = 2**16
# Not fitted (the dev sets hold too few plain contradictions to weigh them): a sentence that
# says this share of a claim's weight otherwise contradicts it (grounded_support.contradicted).
# A unit or an opposite swapped counts only there, so only there are they looked for.
CONTRADICTION_COVERAGE = 0.6
NEGATIONS = "no not never none nobody nothing neither nor cannot without unable".split()


def _tokens(texts: pl.DataFrame, text: str, *, cased: bool, rules: WordRules) -> pl.DataFrame:
    """(`text_hash`, `cased`, `word`, `figure`, `name`, `negation`): each content word of each
    distinct text in order, `word` the 64-bit hash of its stem (figures whole: a word with a
    digit or one of the rules' figures; a unit's or a date's form read as its word first:
    "weeks" as "week", "Nov" as "november"), `cased` as written; without `cased` (truths: names
    are not looked for there), all lower-cased, in no set order.

    Each distinct token is read once (case, stop word, stem, figure, name): a context's words
    repeat."""
    frame = normalized(texts.select("text_hash", text).unique("text_hash"), text)
    written = frame[text]
    if rules.joined_numbers and not cased:  # truths, the context's side
        written = joined_numbers_of(written)
    written = number_forms_of(written) if rules.number_forms else written
    not_ = r"(?i)n['’]t\b"  # as " not", only where a text has one: a rewrite copies every text
    written = changed_where(written, not_, lambda texts: texts.str.replace_all(not_, " not"))
    frame = frame.with_columns(written.alias(text))
    raw = pl.col(text).str.strip_chars_start()
    if cased:
        # The first word's capital is the sentence's, not a name's. `raw` is a column first:
        # an eager select evaluates an expression once per use (no common-subexpression
        # elimination).
        frame = frame.select("text_hash", raw=raw)
        raw = pl.col("raw").str.head(1).str.to_lowercase() + pl.col("raw").str.slice(1)
    else:
        raw = raw.str.to_lowercase()
    tokens = (
        frame.select("text_hash", cased=raw.str.split(WORD_SEPARATOR, literal=False))
        .explode("cased")
        .filter(pl.col("cased") != "")  # what a split leaves at a text's ends; nulls too
        .with_columns(token_hash=pl.col("cased").hash())
    )
    token = pl.col("token")
    figure = token.str.contains(r"\d") | token.is_in(sorted(rules.figures))
    as_written = pl.col("cased")
    name = as_written.str.contains(r"^\p{Lu}") & ~as_written.str.contains(r"^\p{Lu}+$") & ~figure
    stems = list(negation_stems())
    distinct = (
        tokens.select("token_hash", "cased")
        .unique("token_hash")
        .with_columns(token=pl.col("cased").str.to_lowercase())
        .filter(~token.is_in(list(GROUNDED_STOP_WORDS)))
        .with_columns(token=token.replace(rules.form_of) if rules.forms else token)
        .with_columns(stemmed=pl.when(figure).then(token).otherwise(stem(token)))
        .select(
            "token_hash",
            word=pl.col("stemmed").hash(),
            figure=figure,
            name=name,
            negation=pl.col("stemmed").is_in(stems),
        )
    )
    # an inner join: stop words are not in `distinct`
    order: Literal["left", "none"] = "left" if cased else "none"
    return tokens.join(distinct, on="token_hash", maintain_order=order).drop("token_hash")


def _distinct(rows: pl.DataFrame) -> pl.DataFrame:
    """Each (text, word) once, the first in order, on one 64-bit key (a one-column filter is
    several times cheaper than `unique` on two columns with its order kept)."""
    one = (pl.col("text_hash") * 0x9E3779B97F4A7C15).xor(pl.col("word"))
    return rows.filter(one.is_first_distinct())


def question_copies(questions: pl.DataFrame, *, folds_case: bool = False) -> pl.DataFrame:
    """Per question (`key`, `claims`, `truths`), `copied`: whether every claim of it is word for
    word a sentence of its own context (`folds_case`, from v6: but for the case of its first
    letter). Such a claim is `yes` with that sentence as evidence whatever its words weigh, so
    the question needs no features (support bots often answer with what they read); a
    question with no claim, or a null one, is not copied. And `copies`: per claim, that
    sentence, null where it is none (claim_features reads them instead of looking again)."""
    claims = (
        questions.select("key", claim="claims")
        .with_row_index("question_row")
        .explode("claim")
        .with_columns(text_hash=pl.col("claim").hash())
    )
    copy = _copies(claims, _context_sentences(questions), folds_case=folds_case)
    others = claims.filter(pl.col("claim").is_null() | copy.is_null())["question_row"]
    has_claims = (questions["claims"].list.len() > 0).fill_null(False)
    copied = (row_counts(others, questions.height) == 0) & has_claims
    return pl.DataFrame({"copied": copied, "copies": as_lists(copy, questions["claims"])})


def first_letter_flipped(text: pl.Expr) -> pl.Expr:
    """The text with its first letter in the other case when that letter is ASCII ("order A17
    ..." <-> "Order A17 ..."), else null: the case a bot's cut opening ("Yes, order ...") or
    its lower-cased style leaves."""
    head = text.str.head(1)
    lower = head.str.to_lowercase()
    flipped = pl.when(head == lower).then(head.str.to_uppercase()).otherwise(lower)
    return pl.when(text.str.contains("^[A-Za-z]")).then(flipped + text.str.slice(1))


def _copies(claims: pl.DataFrame, truths: pl.DataFrame, *, folds_case: bool) -> pl.Series:
    """Per claim (`key`, `claim`, `text_hash`), the sentence of its own context (`key`,
    `text_hash` of each truth) that it is word for word: the claim itself when it is one, with
    `folds_case` the claim with its first letter's case flipped when that is; null when
    neither."""
    # The truths' (question, text) pairs are probed against the claims' (far fewer: a set that
    # stays in cache), not the other way round: a set of every truth's pair cost a RAG batch
    # 1.2 s to build, for 4 claims a question.
    truth_pairs = truths.select(pair_key("text_hash")).to_series()
    claim_pairs = claims.select(pair_key("text_hash")).to_series()
    found = truth_pairs.filter(truth_pairs.is_in(claim_pairs.implode()))
    exact = claim_pairs.is_in(found.implode())
    copy = claims["claim"].zip_with(exact, pl.Series([None], dtype=pl.String))
    if not folds_case or exact.all():
        return copy
    # Only the claims that are no sentence as written are flipped (building the flipped text
    # is the cost): all of a chat bot's that open "Yes, ...", half of a support bot's.
    rest = claims.select("key", "claim").with_row_index("row").filter(~exact)
    flipped = rest.select("row", "key", text=first_letter_flipped(pl.col("claim"))).drop_nulls(
        "text"
    )
    flipped_pairs = (
        flipped.select(text_hash=pl.col("text").hash(), key="key")
        .select(pair_key("text_hash"))
        .to_series()
    )
    found = truth_pairs.filter(truth_pairs.is_in(flipped_pairs.implode()))
    hits = flipped.filter(flipped_pairs.is_in(found.implode()))
    return copy.scatter(hits["row"], hits["text"])


def _context_sentences(questions: pl.DataFrame) -> pl.DataFrame:
    """Each truth of each question in order: `key`, `truth`, `text_hash`."""
    return (
        questions.select("key", truth="truths")
        .explode("truth")
        .drop_nulls("truth")
        .with_columns(text_hash=pl.col("truth").hash())
    )


def claim_features(
    questions: pl.DataFrame, *, rules: WordRules, folds_case: bool = False
) -> pl.DataFrame:
    """One row per claim of each question (`key`, `claims`, `truths` in), in question order:
    `question_row`, `claim`, `has_words`, `verbatim` (a sentence of the context, with
    `folds_case` but for its first letter's case: question_copies, whose `copies` it reads
    when the questions carry them), the features grounded_support.feature_columns reads,
    `n_words`, `evidence` (the best sentence) and `lacks` (the claim's words found nowhere in
    the context). `rules`: what the rules version reads as figures, units and opposites
    (word_rules.py), whose swaps are `figure_swapped`, `unit_swapped` and `opposite_swapped`."""
    questions = questions.with_row_index("question_row")
    carried = {"copy": "copies"} if "copies" in questions.columns else {}  # looked already
    claims = (
        questions.select(
            "question_row", "key", claim="claims", n_truths=pl.col("truths").list.len(), **carried
        )
        .explode(["claim", *carried])
        .drop_nulls("claim")
        .with_row_index("claim_row")
        .with_columns(text_hash=pl.col("claim").hash())
    )
    truths = _context_sentences(questions).with_row_index("truth_row")
    if not carried:
        claims = claims.with_columns(copy=_copies(claims, truths, folds_case=folds_case))
    claims = claims.with_columns(verbatim=pl.col("copy").is_not_null())
    claim_rows = _tokens(claims, "claim", cased=True, rules=rules)
    truth_rows = _tokens(truths, "truth", cased=False, rules=rules)
    claim_words = (
        claims.select("claim_row", "key", "text_hash", "n_truths")
        .join(_distinct(claim_rows), on="text_hash", maintain_order="left")
        .drop("text_hash")
        .with_row_index("claim_word")
    )
    vocabulary = claim_words["word"].unique().implode()
    truth_tokens = _distinct(truth_rows)
    # Only the truths' words a claim holds can matter; one lazy query, so the truth-word rows
    # are never a frame of their own.
    truth_side = (
        truths.lazy()
        .select("truth_row", "key", "text_hash")
        .join(
            truth_tokens.lazy()
            .filter(pl.col("word").is_in(vocabulary))
            .select("text_hash", "word"),
            on="text_hash",
        )
        .select("truth_row", pair=pair_key("word"))
    )
    hits = (
        claim_words.lazy()
        .select("claim_word", "claim_row", pair=pair_key("word"))
        .join(truth_side, on="pair")
        .drop("pair")
        .collect()
    )
    spread = row_counts(hits["claim_word"], claim_words.height)
    n = claim_words["n_truths"]
    weight = ((1.0 + (n + 1) / (spread + 1)).log() * _UNIT).round().cast(pl.Int64)
    claim_words = claim_words.with_columns(weight=weight, found=spread > 0)
    # Joined in claim order, so `claim_row` is sorted; told so, polars groups it by runs, a
    # fifth cheaper on a chat batch. Checked, never assumed: a wrong flag gives wrong groups.
    if claim_words["claim_row"].is_sorted():
        claim_words = claim_words.with_columns(pl.col("claim_row").set_sorted())
    per_claim = claim_words.group_by("claim_row").agg(
        n_words=pl.len(),
        total=pl.col("weight").sum(),
        found_weight=pl.col("weight").filter("found").sum(),
        n_found=pl.col("found").sum(),
        missing_figure=(pl.col("figure") & ~pl.col("found")).sum(),
        missing_name=(pl.col("name") & ~pl.col("found")).sum(),
        claim_negated=pl.col("negation").any(),
        lacks=pl.col("cased").filter(~pl.col("found")),
    )
    if rules.number_forms:  # on the lacking words only: on every word it cost a chat batch 0.09 s
        per_claim = per_claim.with_columns(pl.col("lacks").list.eval(shown_words(pl.element())))
    # A verbatim claim's best sentence is itself, and its figures, names and negations all
    # there: only the other claims' hits are looked through for a best sentence.
    hits = hits.filter(~claims["verbatim"].gather(hits["claim_row"]))
    hits = hits.with_columns(weight=claim_words["weight"].gather(hits["claim_word"]))
    best = best_truths(hits, "cov_best_weight")
    second = _second(hits, best, claims.height, claim_words.height)
    # Swaps are looked for only where they can count (a chat batch's claims are mostly
    # neither): a figure's where one is missing (the features read a rival only beside a
    # missing figure), a unit's or an opposite's where the best sentence says most of the claim.
    weighed = best.join(  # row for row with `best`: its masks filter `best`
        per_claim.select("claim_row", "total", "missing_figure"),
        on="claim_row",
        how="left",
        maintain_order="left",
    )
    rivals = _rival_figures(
        best.filter(weighed["missing_figure"] > 0), truths, truth_rows, claim_words
    )
    cov_best = pl.col("cov_best_weight") / pl.col("total").cast(pl.Float64)
    strong = best.filter(
        weighed.select(cov_best.fill_null(0.0) >= CONTRADICTION_COVERAGE).to_series()
    )
    other_units = _other_units(claims, truths, strong, rules)
    negated = truth_tokens.filter("negation")["text_hash"].unique().implode()
    # truth_row is the truths' row index: a gather, not a join
    truth_negated = truths.select(pl.col("text_hash").is_in(negated)).to_series()
    joined = (
        claims.join(per_claim, on="claim_row", how="left", maintain_order="left")
        .join(best, on="claim_row", how="left", maintain_order="left")
        .join(second, on="claim_row", how="left", maintain_order="left")
        .join(rivals, on="claim_row", how="left", maintain_order="left")
    )
    joined = joined.with_columns(
        truth_negated=truth_negated.gather(joined["truth_row"].cast(pl.UInt32))
    )
    total = pl.col("total").cast(pl.Float64)
    verbatim = pl.col("verbatim")
    share = lambda name: (  # noqa: E731
        pl.when(verbatim).then(1.0).otherwise(pl.col(name) / total).fill_null(0.0)
    )
    evidence = truths["truth"].gather(joined["truth_row"].cast(pl.UInt32))
    n_questions = questions.height
    answer = answer_share(joined, "found_weight", "total", n_questions)
    answer_found = answer_share(joined, "n_found", "n_words", n_questions)
    return joined.select(
        "question_row",
        "claim",
        "verbatim",
        answer_cov=answer,
        answer_found=answer_found,
        has_words=verbatim | pl.col("n_words").is_not_null(),
        n_words=pl.col("n_words").fill_null(0),
        cov_all=share("found_weight"),
        cov_best=share("cov_best_weight"),
        cov_second=pl.when(verbatim)
        .then(0.0)
        .otherwise(pl.col("cov_second_weight") / total)
        .fill_null(0.0),
        missing_figure=pl.when(verbatim).then(0).otherwise(pl.col("missing_figure").fill_null(0)),
        # another figure in the best sentence, looked for only where one of the claim's is missing
        rival_figure=~verbatim & (pl.col("rival_figures").fill_null(0) > 0),
        # a number with a unit its best sentence does not pair with it, but another (v7 on)
        unit_swapped=~verbatim & pl.col("claim_row").is_in(other_units.implode()),
        missing_name=pl.when(verbatim).then(0).otherwise(pl.col("missing_name").fill_null(0)),
        negation=~verbatim
        & pl.col("truth_row").is_not_null()
        & (pl.col("claim_negated").fill_null(False) != pl.col("truth_negated").fill_null(False)),
        evidence=pl.when(verbatim).then(pl.col("copy")).otherwise(evidence),
        lacks=pl.when(verbatim)
        .then(pl.lit([], dtype=pl.List(pl.String)))
        .otherwise(pl.col("lacks").fill_null(pl.lit([], dtype=pl.List(pl.String)))),
        # one side of an opposite pair where the best sentence says the other (v7 on)
        opposite_swapped=~verbatim & _opposites_of(joined, evidence, strong["claim_row"], rules),
    )


def _opposites_of(
    joined: pl.DataFrame, evidence: pl.Series, rows: pl.Series, rules: WordRules
) -> pl.Series:
    """swapped_opposites of the claims of `rows` (`claim_row`s) against their evidence; False
    for the others."""
    swapped = pl.repeat(False, joined.height, dtype=pl.Boolean, eager=True)
    if not rules.opposites or rows.is_empty():
        return swapped
    at = joined["claim_row"].is_in(rows.implode()).arg_true()
    found = swapped_opposites(joined["claim"].gather(at), evidence.gather(at), rules)
    return swapped.scatter(at, found)


def _other_units(
    claims: pl.DataFrame, truths: pl.DataFrame, best: pl.DataFrame, rules: WordRules
) -> pl.Series:
    """The `claim_row`s of `best` whose best sentence gives a number of theirs another unit
    (quantities.units_swapped)."""
    rows = best["truth_row"].cast(pl.UInt32)
    best = best.select("claim_row", text_hash=truths["text_hash"].gather(rows))
    claims = claims[best["claim_row"].cast(pl.UInt32)]  # claim_row is the claims' row index
    said = quantity_rows(claims.select("text_hash", text="claim"), rules)
    if said.is_empty():
        return pl.Series("claim_row", [], dtype=claims["claim_row"].dtype)
    asked = truths.select("text_hash", text="truth")[rows.unique()]
    claim_side = (
        claims.select("claim_row", "text_hash").join(said, on="text_hash").drop("text_hash")
    )
    best_side = best.join(quantity_rows(asked, rules), on="text_hash").drop("text_hash")
    return units_swapped(claim_side, best_side, rules.kind_of)


def _rival_figures(
    best: pl.DataFrame, truths: pl.DataFrame, truth_rows: pl.DataFrame, claim_words: pl.DataFrame
) -> pl.DataFrame:
    """Per claim of `best`, the figures of its best sentence that the claim does not hold (`5`
    of "paid within 5 days" against "within 9 days"): `claim_row`, `rival_figures`."""
    sentences = best.select(
        "claim_row", text_hash=truths["text_hash"].gather(best["truth_row"].cast(pl.UInt32))
    )
    # Only those sentences' figures, and only those claims' words that are one of them, are
    # looked through (a batch's other truths and claims are most of both sides).
    figures = (
        truth_rows.filter(
            pl.col("figure") & pl.col("text_hash").is_in(sentences["text_hash"].implode())
        )
        .select("text_hash", "word")
        .unique()
    )
    held = claim_words.select("claim_row", "word").filter(
        pl.col("claim_row").is_in(best["claim_row"].implode())
        & pl.col("word").is_in(figures["word"].implode())
    )
    return (
        sentences.join(figures, on="text_hash")
        .join(held, on=["claim_row", "word"], how="anti")
        .group_by("claim_row")
        .agg(rival_figures=pl.len())
    )


def _second(hits: pl.DataFrame, best: pl.DataFrame, n_claims: int, n_words: int) -> pl.DataFrame:
    """Each claim's next best sentence for the words its best one lacks (the two chosen
    greedily): `claim_row`, `cov_second_weight`, the weight of those words it holds. A claim
    that combines two sentences is half supported by its best one alone."""
    # in numpy: on a small batch each polars Series step (a gather, a repeat) is a query
    best_truth = np.full(n_claims, -1, dtype=np.int64)
    best_truth[best["claim_row"].to_numpy()] = best["truth_row"].to_numpy()
    claim_word = hits["claim_word"].to_numpy()
    in_best = hits["truth_row"].to_numpy() == best_truth[hits["claim_row"].to_numpy()]
    held = np.bincount(claim_word[in_best], minlength=n_words) > 0
    rest = hits.filter(pl.Series(~held[claim_word]))
    return best_truths(rest, "cov_second_weight").drop("truth_row")
