"""Bench (not a test): does the judge's verdict hang on how an answer cites its context, or
lays itself out?

    python bench/citation_style.py [--devsets DIR] [--judges grounded,grounded-v3]

RAG bots cite: "... [1].", "Based on the provided passages, ...", "... (Passage 2).". The dev
sets' answers cite nothing, so each is scored four ways through the batch path `faith score`
runs (default settings): as written; with a marker "[k]" before each sentence's full stop
(k: the sentence's passage in turn); with "Based on the provided passages, " before the
answer and " (Passage 1)" before its last full stop; and as a numbered list ("1) ...").
Prints per judge, set and style: balanced accuracy of `success`, ROC AUC of `score`, the pass
rate, and the share of cases whose score differs from the same judge's as written. A judge
that reads citations and list markers as what they are changes nothing. Absent dev sets are
named and skipped (exit 0).
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable
from pathlib import Path

import polars as pl

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from common import table
from devsets import DEVSETS, balanced_accuracy, present_devsets, roc_auc
from judge_quality import JUDGES, selected_judges

from faith_udfs import MetricConfig, score_cases

_SENTENCE = re.compile(r"(?<=[.!?])\s+")
_END = re.compile(r"([.!?]+)$")


def _before_end(sentence: str, marker: str) -> str:
    """`marker` before the sentence's closing punctuation (after it when it has none)."""
    if _END.search(sentence):
        return _END.sub(lambda end: marker + end.group(1), sentence, count=1)
    return sentence + marker


def markers(answer: str, passages: int) -> str:
    """Each sentence cited as "[k]", k the sentence's passage in turn (1-based)."""
    parts = _SENTENCE.split(answer)
    return " ".join(_before_end(s, f" [{i % max(passages, 1) + 1}]") for i, s in enumerate(parts))


def attributed(answer: str, passages: int) -> str:
    """The answer introduced as the passages' and its last sentence credited to passage 1."""
    parts = _SENTENCE.split(answer)
    parts[-1] = _before_end(parts[-1], " (Passage 1)")
    return "Based on the provided passages, " + " ".join(parts)


def numbered(answer: str, passages: int) -> str:
    """Each sentence an item of a numbered list: "1) ...", "2) ..."."""
    items = [s for s in _SENTENCE.split(answer) if s.strip()]
    return " ".join(f"{i + 1}) {s}" for i, s in enumerate(items))


STYLES: dict[str, Callable[[str, int], str] | None] = {
    "as written": None,
    "[k] markers": markers,
    "attributed": attributed,
    "numbered": numbered,
}


def styled(cases: pl.DataFrame, style: Callable[[str, int], str] | None) -> pl.DataFrame:
    """The cases with every answer cited in `style`."""
    if style is None:
        return cases
    cited = [
        style(answer, len(context))
        for answer, context in cases.select("actual_output", "retrieval_context").iter_rows()
    ]
    return cases.with_columns(actual_output=pl.Series(cited, dtype=pl.String))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--devsets", type=Path, default=DEVSETS)
    parser.add_argument("--judges", default="grounded,grounded-v3")
    args = parser.parse_args()
    names = selected_judges(args.judges)
    if names is None:
        return 2
    rows = []
    for name, cases in present_devsets(args.devsets):
        for judge_name in names:
            judge = JUDGES[judge_name]()
            written = None
            for style_name, style in STYLES.items():
                scored = score_cases(styled(cases, style), judge, MetricConfig()).case_scores
                scored = scored.select("case_id", "score", "success").join(
                    cases.select("case_id", "faithful"), on="case_id"
                )
                if written is None:
                    written = scored.select("case_id", written_score="score")
                changed = scored.join(written, on="case_id").select(
                    (pl.col("score") != pl.col("written_score")).fill_null(True).mean()
                )
                figures = scored.select(
                    bal_acc=balanced_accuracy(pl.col("faithful"), pl.col("success")),
                    auc=roc_auc(pl.col("faithful"), pl.col("score")),
                    pass_rate=pl.col("success").mean(),
                ).row(0, named=True)
                rows.append(
                    {
                        "judge": judge_name,
                        "set": name,
                        "style": style_name,
                        **{k: round(v, 3) for k, v in figures.items()},
                        "changed": round(changed.item(), 3),
                    }
                )
    if not rows:
        print(f"no dev set under {args.devsets}: nothing to measure (see ../shared/devsets)")
        return 0
    print(table(rows, ["judge", "set", "style", "bal_acc", "auc", "pass_rate", "changed"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
