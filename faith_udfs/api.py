"""The single-case API users know from DeepEval and the seed, on top of the batch path."""

from __future__ import annotations

from dataclasses import dataclass, field, fields

import polars as pl

from faith_udfs.config import MetricConfig
from faith_udfs.grounded import GroundedJudge
from faith_udfs.judges import Judge
from faith_udfs.metric import FaithfulnessFrames, score_cases


@dataclass
class LLMTestCase:
    """One logged exchange: what was asked, what the bot said, what it read."""

    input: str
    actual_output: str
    retrieval_context: list[str] = field(default_factory=list)
    case_id: str = "case"

    def __post_init__(self) -> None:
        check_passages(self.retrieval_context)


def check_passages(passages: object) -> None:
    """One string is not a list of passages, at every entry point (docs/conversations.md):
    the pipeline quarantines it, the SQL functions refuse it, and here it is a TypeError."""
    if passages is None:
        return
    if isinstance(passages, str) or not isinstance(passages, list | tuple):
        raise TypeError(
            f"retrieval_context must be a list of passages, got {type(passages).__name__}: "
            "wrap one passage as [text] (the pipeline quarantines it as "
            "retrieval_context_not_a_list_of_strings)"
        )


@dataclass(frozen=True)
class FaithfulnessVerdict:
    """The judge's verdict on one claim (`yes`, `no`, `idk`; None if dropped), with the
    claim's support in [0, 1], the context sentence behind the verdict and, for a `no` or
    `idk`, the claim's words the context lacks, where the judge gives them."""

    claim: str
    verdict: str | None
    reason: str | None = None
    support: float | None = None
    evidence: str | None = None
    context_lacks: list[str] | None = None


class FaithfulnessMetric:
    """DeepEval-shaped faithfulness metric: `measure(case)` scores one case.

    `model` is the judge; by default the offline GroundedJudge.

    It runs the batch path (`score_cases`) with a batch of one, so both always agree.
    """

    def __init__(
        self,
        model: Judge | None = None,
        threshold: float = 0.5,
        *,
        penalize_ambiguous_claims: bool = False,
        strict_mode: bool = False,
        include_reason: bool = True,
        truths_extraction_limit: int | None = None,
    ) -> None:
        if model is None:
            model = GroundedJudge()
        if not isinstance(model, Judge):
            raise TypeError(
                "model must be a faith_udfs judge (GroundedJudge(), LexicalJudge(), "
                "PromptJudge(answer), ...), "
                f"got {type(model).__name__}"
            )
        self.model = model
        self.config = MetricConfig(
            threshold=threshold,
            penalize_ambiguous_claims=penalize_ambiguous_claims,
            strict_mode=strict_mode,
            include_reason=include_reason,
            truths_extraction_limit=truths_extraction_limit,
        )
        self._reset()

    @property
    def threshold(self) -> float:
        return self.config.effective_threshold

    def _reset(self) -> None:
        self.score: float | None = None
        self.reason: str | None = None
        self.success: bool | None = None
        self.status: str | None = None
        self.error: str | None = None
        self.no_claims: bool = False
        self.truths: list[str] = []
        self.claims: list[str] = []
        self.verdicts: list[FaithfulnessVerdict] = []
        self.frames: FaithfulnessFrames | None = None

    def measure(self, test_case: LLMTestCase) -> float | None:
        """Score one case; returns the score (None when the case is invalid or pending)."""
        self._reset()
        cases = pl.DataFrame(
            {
                "case_id": [test_case.case_id],
                "actual_output": [test_case.actual_output],
                "retrieval_context": [list(test_case.retrieval_context or [])],
            },
            schema={
                "case_id": pl.String,
                "actual_output": pl.String,
                "retrieval_context": pl.List(pl.String),
            },
        )
        frames = score_cases(cases, self.model, self.config)
        row = frames.case_scores.row(0, named=True)
        self.frames = frames
        self.score, self.success, self.reason = row["score"], row["success"], row["reason"]
        self.status, self.error, self.no_claims = row["status"], row["error"], row["no_claims"]
        order = {pid: i for i, pid in enumerate(row["passage_ids"])}
        truths = frames.truths.with_columns(
            passage_order=pl.col("passage_id").replace_strict(order, default=None)
        )
        self.truths = (
            truths.drop_nulls("passage_order")
            .sort("passage_order", "truth_index")["truth"]
            .to_list()
        )
        verdicts = frames.claim_verdicts.sort("claim_index")
        self.claims = verdicts["claim"].to_list()
        self.verdicts = [
            FaithfulnessVerdict(**row)
            for row in verdicts.select(f.name for f in fields(FaithfulnessVerdict)).iter_rows(
                named=True
            )
        ]
        return self.score

    def is_successful(self) -> bool:
        """True when the last measured case passed (False when failed, invalid or pending)."""
        return bool(self.success)

    def __repr__(self) -> str:
        return f"FaithfulnessMetric(model={self.model!r}, config={self.config!r})"
