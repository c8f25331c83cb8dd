"""The batch entry point: a frame of cases and a judge in, case-score, claim-verdict and truth
frames out. The single-case API runs this same path with a batch of one."""

from __future__ import annotations

from dataclasses import dataclass

import polars as pl

from faith_udfs.case_columns import as_case_columns, check_case_columns
from faith_udfs.claims import extract_claims
from faith_udfs.config import MetricConfig
from faith_udfs.judge_calls import ask_judge
from faith_udfs.judges import VERDICT_VOCABULARY, Judge
from faith_udfs.scores import case_scores
from faith_udfs.sentence_pairs import DEFAULT_MAX_SENTENCE_PAIRS, sentence_pairs_error
from faith_udfs.truths import extract_truths, passages_of
from faith_udfs.verdicts import judge_claims
from faith_udfs.words import is_blank

CASE_COLUMNS = ("case_id", "actual_output", "retrieval_context")
EMPTY_CONTEXT = "EmptyContext: retrieval_context has no non-blank passage; nothing to judge against"
# A blank answer (white space and invisible characters only) is a logging fault, not an
# answer without claims: never scored, whichever entry point (the pipeline quarantines it).
BLANK_ANSWER = "BlankAnswer: actual_output has nothing but white space or invisible characters"
MISSING_ANSWER = "BlankAnswer: actual_output is missing (None or null)"

_EMPTY_LIST = pl.lit([], dtype=pl.List(pl.String))


@dataclass(frozen=True)
class FaithfulnessFrames:
    """What scoring a batch returns: one frame per output table."""

    case_scores: pl.DataFrame
    claim_verdicts: pl.DataFrame
    truths: pl.DataFrame
    # Per case, the keys of the judge items it needed (`passage_ids`, `answer_key`,
    # `question_key`, `reason_key`): how judge calls are charged back to cases.
    item_keys: pl.DataFrame


def score_cases(
    cases: pl.DataFrame,
    judge: Judge,
    config: MetricConfig,
    *,
    max_sentence_pairs: int | None = DEFAULT_MAX_SENTENCE_PAIRS,
) -> FaithfulnessFrames:
    """Score every case of `cases` (`case_id`, `actual_output`, `retrieval_context`).

    Each passage, answer and (claims, truths) question is judged once per batch however many
    cases share it. A case the judge could not handle is `invalid` (or `pending`) with its
    error; the rest of the batch is scored. A case whose answer sentences times context
    sentences pass `max_sentence_pairs` (None: no limit) is `invalid` with a
    `TooManySentencePairs: ...` error, its claims never weighed against its truths.
    """
    if not isinstance(judge, Judge):
        raise TypeError(
            f"judge must implement faith_udfs.Judge (identity, truths, claims, verdicts, "
            f"reasons), got {type(judge).__name__}"
        )
    missing = [column for column in CASE_COLUMNS if column not in cases.columns]
    if missing:
        raise ValueError(f"cases lack required columns {missing}")
    check_case_columns(cases.schema)
    cases = as_case_columns(cases)
    config_id = config.config_id(judge.identity)
    # Cases are joined back by their row, not their case_id: integer keys are cheaper, and a
    # batch that repeats a case_id still gets one result per row.
    cases = (
        cases.select(CASE_COLUMNS)
        .with_row_index("case_row")
        .with_columns(answer_key=pl.col("actual_output").hash())
    )
    cases = cases.with_columns(sentence_pairs_error(cases, max_sentence_pairs))

    passages = passages_of(cases, key="case_row")
    truths = extract_truths(
        passages.select(key="passage_id", text="text"), judge, config.truths_extraction_limit
    )
    contexts, context_truths = _case_contexts(cases, passages, truths)
    blank = is_blank(pl.col("actual_output")).fill_null(True)  # a missing answer is no answer
    answers = cases.filter(~blank)
    claims = extract_claims(answers.select(key="answer_key", text="actual_output"), judge).rename(
        {"key": "answer_key", "error": "claims_error", "pending": "claims_pending"}
    )

    per_case = (
        cases.select(
            "case_row",
            "case_id",
            "answer_key",
            blank_error=pl.when(pl.col("actual_output").is_null())
            .then(pl.lit(MISSING_ANSWER))
            .when(blank)
            .then(pl.lit(BLANK_ANSWER))
            .otherwise(pl.col("pairs_error")),
        )
        .join(contexts, on="case_row", how="left", maintain_order="left")
        .join(claims, on="answer_key", how="left")
        .with_columns(
            question_key=pl.struct("answer_key", "context_key").hash(),
            n_claims=pl.col("claims").list.len().fill_null(0),
            error=pl.coalesce(
                "blank_error",
                pl.when(pl.col("context_pending")).then("context_error"),
                pl.when(pl.col("claims_pending").fill_null(False)).then("claims_error"),
                "context_error",
                "claims_error",
            ),
            pending=pl.col("context_pending") | pl.col("claims_pending").fill_null(False),
        )
    )
    askable = pl.col("error").is_null() & (pl.col("n_claims") > 0)
    questions = (
        per_case.filter(askable)
        .select("question_key", "claims", "context_key")
        .unique("question_key", maintain_order=True)
        .join(context_truths, on="context_key", how="left", maintain_order="left")
        .select(key="question_key", claims="claims", truths="truths")
    )
    verdicts = judge_claims(questions, judge).rename(
        {"key": "question_key", "error": "verdict_error", "pending": "verdict_pending"}
    )

    counted = per_case.join(verdicts, on="question_key", how="left").with_columns(
        *(pl.col(f"n_{v}").fill_null(0) for v in (*VERDICT_VOCABULARY, "dropped")),
        error=pl.coalesce("error", "verdict_error"),
        pending=pl.col("pending") | pl.col("verdict_pending").fill_null(False),
    )
    scored = case_scores(counted, config)
    if config.include_reason:
        scored = _with_reasons(scored, judge, config.penalize_ambiguous_claims)
    else:
        scored = scored.with_columns(reason=pl.lit(None, dtype=pl.String))

    return FaithfulnessFrames(
        case_scores=_case_score_frame(scored, config_id),
        claim_verdicts=_claim_verdict_frame(scored, config_id),
        truths=_truth_frame(truths, config_id),
        item_keys=scored.select(
            "case_id",
            "passage_ids",
            "answer_key",
            question_key=pl.when(pl.col("n_claims") > 0).then(pl.col("question_key")),
            reason_key=pl.col("reason_key") if "reason_key" in scored.columns else pl.lit(None),
        ).cast({"reason_key": pl.UInt64}),
    )


def _case_contexts(
    cases: pl.DataFrame, passages: pl.DataFrame, truths: pl.DataFrame
) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Per case: its passage ids, `context_key`, `n_truths` and any truths error; and per
    distinct context (`context_key`), all its truths in passage order.

    The truths are gathered once per distinct context (the same passages in the same order)
    and reach only the distinct questions: logs repeat contexts, and each list is a copy of
    strings."""
    # passages_of lists each case's passages in order; group_by keeps row order in groups
    ids = passages.group_by("case_row").agg(passage_ids=pl.col("passage_id"))
    ids = ids.with_columns(context_key=pl.col("passage_ids").hash())
    # A case left pending says so (the cap), not another passage's reply error. Looked for
    # only where some passage has an error (a sort per context: 0.09 of a chat batch's 0.18 s).
    context_error = (
        pl.col("error").sort_by(pl.col("pending").not_()).drop_nulls().first()
        if truths["error"].null_count() < truths.height
        else pl.lit(None, dtype=pl.String)
    )
    per_context = (
        ids.select("context_key", "passage_ids")
        .unique("context_key")
        .explode("passage_ids")
        .join(truths, left_on="passage_ids", right_on="key", how="left", maintain_order="left")
        .group_by("context_key")
        .agg(
            truths=pl.col("truths").list.explode(keep_nulls=False, empty_as_null=False),
            context_error=context_error,
            context_pending=pl.col("pending").any(),
        )
        .with_columns(n_truths=pl.col("truths").list.len())
    )
    empty = pl.lit([], dtype=pl.List(pl.UInt64))
    per_case = (
        cases.select("case_row")
        .join(ids, on="case_row", how="left", maintain_order="left")
        .join(per_context.drop("truths"), on="context_key", how="left", maintain_order="left")
        .with_columns(
            n_truths=pl.col("n_truths").fill_null(0),
            context_error=pl.when(pl.col("passage_ids").is_null())
            .then(pl.lit(EMPTY_CONTEXT))
            .otherwise(pl.col("context_error")),
            context_pending=pl.col("context_pending").fill_null(False),
            # a case without a passage: the empty list's key, as before
            context_key=pl.col("context_key").fill_null(empty.hash()),
            passage_ids=pl.col("passage_ids").fill_null(empty),
        )
    )
    return per_case, per_context.select("context_key", "truths")


def _with_reasons(scored: pl.DataFrame, judge: Judge, penalize: bool) -> pl.DataFrame:
    """Ask the judge for one reason per distinct (score, contradictions) among scored cases.

    The contradictions are DeepEval's: each `no` verdict's reason and, when ambiguous claims
    are penalized, each `idk`'s as "(Ambiguous) <reason>", in verdict order. A judge whose
    reason reads only the score (`reason_uses_contradictions = False`, as the lexical
    judge's) is asked once per distinct score.
    """
    if not getattr(judge, "reason_uses_contradictions", True):
        scored = scored.with_columns(contradictions=_EMPTY_LIST, reason_key=pl.col("score").hash())
    else:
        if penalize:
            scored = _with_ambiguous_listed(scored)
        else:
            scored = scored.with_columns(
                contradictions=pl.col("reasons")
                .list.gather(pl.col("verdicts").list.eval((pl.element() == "no").arg_true()))
                .fill_null(_EMPTY_LIST)
            )
        scored = scored.with_columns(reason_key=pl.struct("score", "contradictions").hash())
    requests = (
        scored.filter(pl.col("status") == "scored")
        .select(key="reason_key", score="score", contradictions="contradictions")
        .unique("key", maintain_order=True)
    )
    reasons = ask_judge(judge.reasons, requests, {"reason": pl.String}).rename(
        {"key": "reason_key", "error": "reason_error", "pending": "reason_pending"}
    )
    merged = scored.join(reasons, on="reason_key", how="left")
    failed = pl.col("reason_error").is_not_null()
    return merged.with_columns(
        error=pl.coalesce("error", "reason_error"),
        status=pl.when(failed & pl.col("reason_pending"))
        .then(pl.lit("pending"))
        .when(failed)
        .then(pl.lit("invalid"))
        .otherwise(pl.col("status")),
    ).with_columns(
        score=pl.when(failed).then(None).otherwise(pl.col("score")),
        success=pl.when(failed).then(None).otherwise(pl.col("success")),
        no_claims=~failed & pl.col("no_claims"),
    )


def _with_ambiguous_listed(scored: pl.DataFrame) -> pl.DataFrame:
    """`contradictions` as DeepEval lists them when ambiguous claims are penalized: each `no`
    verdict's reason and each `idk`'s as "(Ambiguous) <reason>", in verdict order."""
    scored = scored.with_row_index("case_row_")
    listed = (
        scored.select("case_row_", verdict="verdicts", reason="reasons")
        .explode("verdict", "reason")
        .filter(pl.col("verdict").is_in(["no", "idk"]))
        .group_by("case_row_", maintain_order=True)
        .agg(
            contradictions=pl.when(pl.col("verdict") == "idk")
            .then(pl.concat_str(pl.lit("(Ambiguous) "), "reason"))
            .otherwise("reason")
        )
    )
    return (
        scored.join(listed, on="case_row_", how="left", maintain_order="left")
        .with_columns(pl.col("contradictions").fill_null(_EMPTY_LIST))
        .drop("case_row_")
    )


def _case_score_frame(scored: pl.DataFrame, config_id: str) -> pl.DataFrame:
    ok = pl.col("status") == "scored"
    return scored.select(
        "case_id",
        config_id=pl.lit(config_id),
        n_truths=pl.col("n_truths").cast(pl.Int32),
        n_claims=pl.when(ok).then(pl.col("n_claims")).cast(pl.Int32),
        n_yes=pl.when(ok).then(pl.col("n_yes")).cast(pl.Int32),
        n_no=pl.when(ok).then(pl.col("n_no")).cast(pl.Int32),
        n_idk=pl.when(ok).then(pl.col("n_idk")).cast(pl.Int32),
        n_dropped=pl.when(ok).then(pl.col("n_dropped")).cast(pl.Int32),
        score="score",
        threshold="threshold",
        success="success",
        no_claims="no_claims",
        status="status",
        error="error",
        reason=pl.when(ok).then(pl.col("reason")),
        passage_ids="passage_ids",
    )


def _claim_verdict_frame(scored: pl.DataFrame, config_id: str) -> pl.DataFrame:
    lists = {"claims": "claim", "verdicts": "verdict", "reasons": "reason"}
    # A judge's optional evidence, one item per claim; NULL where the judge gives none.
    optional: dict[str, tuple[str, pl.DataType]] = {
        "supports": ("support", pl.Float64()),
        "evidences": ("evidence", pl.String()),
        "lacks": ("context_lacks", pl.List(pl.String)),
    }
    given = {name: column for name, (column, _) in optional.items() if name in scored.columns}
    return (
        scored.filter((pl.col("status") == "scored") & (pl.col("n_claims") > 0))
        .select(
            "case_id",
            claim_index=pl.int_ranges(pl.col("claims").list.len()).cast(pl.List(pl.Int32)),
            **{column: pl.col(name) for name, column in {**lists, **given}.items()},
        )
        .explode("claim_index", *lists.values(), *given.values())
        .select(
            "case_id",
            pl.lit(config_id).alias("config_id"),
            "claim_index",
            *lists.values(),
            *(
                pl.col(column) if name in given else pl.lit(None, dtype=dtype).alias(column)
                for name, (column, dtype) in optional.items()
            ),
        )
    )


def _truth_frame(truths: pl.DataFrame, config_id: str) -> pl.DataFrame:
    # Numbered from 0 without gaps (a custom judge's null truths are left out first): a
    # passage with truths always has truth 0, which is how insert_results.sql finds it stored.
    # The lists without nulls are a column first: an eager select would build them twice.
    listed = pl.col("truths")
    return (
        truths.filter(pl.col("error").is_null())
        .select("key", truths=pl.col("truths").list.drop_nulls())
        .select(
            passage_id="key",
            truth_index=pl.int_ranges(listed.list.len()).cast(pl.List(pl.Int32)),
            truth=listed,
        )
        .explode("truth_index", "truth")
        .drop_nulls("truth")
        .select(pl.lit(config_id).alias("config_id"), "passage_id", "truth_index", "truth")
    )
