"""`measure()`'s fast path: one case through an offline judge's rules in plain Python.

A batch of one costs the batch path's fixed price (~150 polars operations, each with a fixed
cost whatever the row count: ~50 ms a case); the same rules on Python strings cost well under
2 ms. The result is the batch path's, field by field (tests/udfs/test_one_case.py holds them
equal): the stages mirror `score_cases` and the judges' expressions, and read the same patterns,
word lists, weights and cut-offs. What it does not cover returns None and the batch path runs:
a judge other than the offline ones (or a subclass, or another rules version), text outside
printable ASCII (there Rust's and Python's regex and case rules may differ), and a case of more
than ONE_CASE_CHARS characters, which the batch path's vectorised rules judge faster.
"""

from __future__ import annotations

from faith_udfs.case_results import CaseResult, FaithfulnessVerdict
from faith_udfs.config import MetricConfig
from faith_udfs.deepeval_models import VerdictWord
from faith_udfs.grounded import (
    GroundedJudge,
    GroundedV2Judge,
    GroundedV3Judge,
    GroundedV4Judge,
    GroundedV5Judge,
    GroundedV6Judge,
    GroundedV7Judge,
    GroundedV8Judge,
    GroundedV9Judge,
    GroundedV10Judge,
    GroundedV11Judge,
    GroundedV12Judge,
)
from faith_udfs.grounded_v1 import GroundedV1Judge
from faith_udfs.judges import VERDICT_VOCABULARY, Judge
from faith_udfs.lexical import LexicalJudge
from faith_udfs.metric import BLANK_ANSWER, EMPTY_CONTEXT
from faith_udfs.one_case_grounded import (
    grounded_claims,
    grounded_v4_claims,
    grounded_v5_claims,
    grounded_v6_claims,
    grounded_v11_claims,
    grounded_v12_claims,
    grounded_v13_claims,
    grounded_verdicts,
)
from faith_udfs.one_case_grounded_v1 import grounded_v1_claims, grounded_v1_verdicts
from faith_udfs.one_case_rules import PLAIN, WHITE_SPACE, Rules, lexical_verdicts, sentences
from faith_udfs.prompts import format_score

# The judges this path covers, by exact type (a subclass may change a rule) and rules version.
RULES: dict[type, Rules] = {
    LexicalJudge: Rules("lexical-v2", sentences, lexical_verdicts),
    GroundedJudge: Rules("grounded-v13", grounded_v13_claims, grounded_verdicts),
    GroundedV12Judge: Rules("grounded-v12", grounded_v12_claims, grounded_verdicts),
    GroundedV11Judge: Rules("grounded-v11", grounded_v11_claims, grounded_verdicts),
    GroundedV10Judge: Rules("grounded-v10", grounded_v6_claims, grounded_verdicts),
    GroundedV9Judge: Rules("grounded-v9", grounded_v6_claims, grounded_verdicts),
    GroundedV8Judge: Rules("grounded-v8", grounded_v6_claims, grounded_verdicts),
    GroundedV7Judge: Rules("grounded-v7", grounded_v6_claims, grounded_verdicts),
    GroundedV6Judge: Rules("grounded-v6", grounded_v6_claims, grounded_verdicts),
    GroundedV5Judge: Rules("grounded-v5", grounded_v5_claims, grounded_verdicts),
    GroundedV4Judge: Rules("grounded-v4", grounded_v4_claims, grounded_verdicts),
    GroundedV3Judge: Rules("grounded-v3", grounded_claims, grounded_verdicts),
    GroundedV2Judge: Rules("grounded-v2", grounded_claims, grounded_verdicts),
    GroundedV1Judge: Rules("grounded-v1", grounded_v1_claims, grounded_v1_verdicts),
}


# Python's rules cost ~0.7 us a character of context, the batch path a fixed ~100-150 ms: they
# meet near 150,000 characters (a 20-sentence answer against 20,000 passages took 5.9 s here,
# 0.6 s in a batch of one): `python bench/one_case_size.py`.
ONE_CASE_CHARS = 100_000


def one_case_result(
    judge: Judge, config: MetricConfig, case_id: str, answer: str | None, passages: list[str]
) -> CaseResult | None:
    """The batch path's CaseResult of one case, or None where this path does not apply."""
    rules = RULES.get(type(judge))
    if rules is None or getattr(judge, "rules_version", None) != rules.rules_version:
        return None
    if not isinstance(answer, str) or not all(isinstance(p, str) for p in passages):
        return None
    if len(answer) + sum(len(p) for p in passages) > ONE_CASE_CHARS or not (
        PLAIN.fullmatch(answer) and all(PLAIN.fullmatch(p) for p in passages)
    ):
        return None
    limit = config.truths_extraction_limit
    kept = [p for p in passages if p.strip(WHITE_SPACE)]
    of_passage: dict[str, list[str]] = {}
    truths: list[str] = []
    for passage in kept:
        if passage not in of_passage:
            of_passage[passage] = sentences(passage)[:limit]
        truths.extend(of_passage[passage])
    blank = not answer.strip(WHITE_SPACE)
    error = BLANK_ANSWER if blank else (EMPTY_CONTEXT if not kept else None)
    threshold = config.effective_threshold
    if error is not None:
        counts = dict.fromkeys(("yes", "no", "idk", "dropped", "claims"), 0)
        return CaseResult(
            case_id, None, threshold, None, None, "invalid", error, False, counts, truths
        )
    claims = rules.claims(answer)
    judged = rules.verdicts(judge, claims, truths) if claims else []
    if judged is None:
        return None
    counts = {v: sum(1 for j in judged if j[0] == v) for v in VERDICT_VOCABULARY}
    n_judged = sum(counts.values())
    faithful = counts["yes"] + (0 if config.penalize_ambiguous_claims else counts["idk"])
    score = faithful / n_judged if n_judged > 0 else 1.0
    if config.strict_mode and score < threshold:
        score = 0.0
    verdicts = [
        FaithfulnessVerdict(claim, VerdictWord(verdict), reason, support, evidence, lacks)
        for claim, (verdict, reason, support, evidence, lacks) in zip(claims, judged, strict=True)
    ]
    return CaseResult(
        case_id=case_id,
        score=score,
        threshold=threshold,
        success=score >= threshold,
        # the offline judges' reason reads the score back (OfflineJudge.reasons)
        reason=f"The score is {format_score(score)}." if config.include_reason else None,
        status="scored",
        error=None,
        no_claims=not claims,
        counts={**counts, "dropped": 0, "claims": len(claims)},
        truths=truths,
        claims=list(claims),
        verdicts=verdicts,
    )
