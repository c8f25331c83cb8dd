"""Per-case Python results read off the batch path's frames: what `measure()` and
`evaluate()` hand a DeepEval user (score, reason, truths, claims, verdicts), one route for both."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import polars as pl
import pyarrow as pa

from faith_udfs.deepeval_models import VerdictWord
from faith_udfs.metric import FaithfulnessFrames
from faith_udfs.words import is_utf8


@dataclass(frozen=True)
class FaithfulnessVerdict:
    """The judge's verdict on one claim (`yes`, `no`, `idk`, which also equals DeepEval 4's
    `borderline`; None if dropped), with the claim's support in [0, 1] and the context
    sentence behind the verdict and, for a `no` or `idk`, the claim's words the context
    lacks, where the judge gives them."""

    claim: str
    verdict: str | None
    reason: str | None = None
    support: float | None = None
    evidence: str | None = None
    context_lacks: list[str] | None = None


@dataclass(frozen=True)
class CaseResult:
    """One case's outcome as the case_scores row has it, plus its truths, claims, verdicts."""

    case_id: str
    score: float | None
    threshold: float
    success: bool | None
    reason: str | None
    status: str
    error: str | None
    no_claims: bool
    counts: dict[str, int] = field(default_factory=dict)
    truths: list[str] = field(default_factory=list)
    claims: list[str] = field(default_factory=list)
    verdicts: list[FaithfulnessVerdict] = field(default_factory=list)

    @property
    def score_breakdown(self) -> dict[str, object]:
        """Verdict counts behind the score (DeepEval's `score_breakdown` slot)."""
        return {**self.counts, "score": self.score}


def case_results(frames: FaithfulnessFrames) -> dict[str, CaseResult]:
    """Every case of `frames` by case_id (case_ids unique in the batch)."""
    truths_by_passage = dict(
        frames.truths.sort("passage_id", "truth_index")
        .group_by("passage_id", maintain_order=True)
        .agg("truth")
        .iter_rows()
    )
    claim_rows: dict[str, list[FaithfulnessVerdict]] = {}
    verdict_columns = ("claim", "verdict", "reason", "support", "evidence", "context_lacks")
    for case_id, *row in (
        frames.claim_verdicts.sort("case_id", "claim_index")
        .select("case_id", *(c for c in verdict_columns if c in frames.claim_verdicts.columns))
        .iter_rows()
    ):
        claim, verdict, reason, support, evidence, *lacks = row
        word = None if verdict is None else VerdictWord(verdict)
        claim_rows.setdefault(case_id, []).append(
            FaithfulnessVerdict(claim, word, reason, support, evidence, *lacks)
        )
    results: dict[str, CaseResult] = {}
    columns = (
        "case_id", "score", "threshold", "success", "reason", "status", "error", "no_claims",
        "passage_ids", "n_yes", "n_no", "n_idk", "n_dropped", "n_claims",
    )  # fmt: skip
    for values in frames.case_scores.select(columns).iter_rows():
        case_id, score, threshold, success, reason, status, error, no_claims, pids = values[:9]
        verdicts = claim_rows.get(case_id, [])
        counts = dict(zip(("yes", "no", "idk", "dropped", "claims"), values[9:], strict=True))
        results[case_id] = CaseResult(
            case_id=case_id,
            score=score,
            threshold=threshold,
            success=success,
            reason=reason,
            status=status,
            error=error,
            no_claims=bool(no_claims),
            counts={k: int(v or 0) for k, v in counts.items()},
            truths=[t for pid in pids or () for t in truths_by_passage.get(pid, ())],
            claims=[v.claim for v in verdicts],
            verdicts=verdicts,
        )
    return results


def cases_frame(
    case_ids: list[str], answers: Sequence[str | None], contexts: Sequence[Sequence[str] | None]
) -> pl.DataFrame:
    """The batch path's input frame from Python lists (a missing context is no passage).

    The passages go in as one flat list and their offsets: no Python list a case, and no
    `pa.array` (whose first call imports pandas when installed, ~0.7 s), and polars' own
    nested-list constructor is ~20x slower than this.
    """
    flat = [passage for context in contexts if context for passage in context]
    offsets = pl.Series([0, *(len(c) if c else 0 for c in contexts)], dtype=pl.Int64).cum_sum()
    try:
        values = pl.Series(flat, dtype=pl.String).to_arrow()
        passages = pa.LargeListArray.from_arrays(offsets.to_arrow(), values)
        return pl.DataFrame(
            {
                "case_id": pl.Series(case_ids, dtype=pl.String),
                "actual_output": pl.Series(answers, dtype=pl.String),
                "retrieval_context": pl.Series(passages),
            }
        )
    except UnicodeEncodeError:  # raised from inside polars, naming no case
        raise ValueError(_not_utf8(case_ids, answers, contexts)) from None


def _not_utf8(
    case_ids: list[str], answers: Sequence[str | None], contexts: Sequence[Sequence[str] | None]
) -> str:
    """Which case holds text that is no UTF-8 (a lone surrogate: half an emoji cut in two,
    as a JSON log's `\\ud83d` decodes), for a one-line error."""
    for case_id, answer, context in zip(case_ids, answers, contexts, strict=True):
        for part, text in (("case_id", case_id), ("actual_output", answer),
                           *(("retrieval_context", p) for p in context or ())):  # fmt: skip
            if isinstance(text, str) and not is_utf8(text):
                return (
                    f"case {case_id!r}: its {part} holds a lone surrogate (half of an emoji "
                    "cut in two?), not UTF-8 text: mend or drop it"
                )
    return "a test case holds text that is not UTF-8"


def verbose_logs(result: CaseResult | Any, limit: int | None) -> str:
    """DeepEval's verbose_logs layout: truths, claims, verdicts (each as JSON-ish lists), then
    the score and the reason."""
    verdicts = [{"verdict": v.verdict, "reason": v.reason} for v in result.verdicts]
    return "\n \n".join(
        (
            f"Truths (limit={limit}):\n{result.truths!r}",
            f"Claims:\n{result.claims!r}",
            f"Verdicts:\n{verdicts!r}",
            f"Score: {result.score}\nReason: {result.reason}",
        )
    )
