"""Bench (not a test): what each grounded rules version costs over the one before it, on each
shape of bench/shapes.py: grounded-v3, grounded-v4 (reads citations and list markers),
grounded-v5 (cuts an opening interjection), grounded-v6 (every opening, and a copy whatever
its first letter's case), grounded-v7 (months and weekdays read as figures), grounded-v8
(units compared kind by kind), grounded-v9 (numbers read as the context writes them),
grounded-v10 (a context's "235, 000" read whole too), grounded-v11 (a sentence without a
letter or digit no claim), grounded-v12 (an offer of help or a welcome no claim) and
grounded-v13 (a greeting no claim only whole, else cut off: the default) through the batch
path, in one process, interleaved, each judge's fastest of `--rounds` in CPU-seconds.

    python bench/rules_cost.py [--rows 100000] [--rounds 3] [--shape support,rag,repetitive,chat]

Prints per shape the distinct answers, how many of them the cue finds (citations.CUE_PATTERN:
only those take the citation patterns), how many open a sentence with an interjection, the
share of the judge's questions that are copies (no features) under v5 and v6, each judge's
CPU-seconds and the ratio of each version's to the one before it (v4 / v3 to v13 / v12); and
`claim_features` alone on the default judge's questions under v6's to v10's word rules (the
part v7 to v10 change: dates, units, opposites, numbers written otherwise), fastest of
`--rounds`, interleaved, and its ratios.
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from pathlib import Path

import polars as pl

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from common import table, whole_number
from shapes import SHAPES, iter_shaped, shape_names

from faith_udfs import GroundedJudge, MetricConfig, score_cases
from faith_udfs.calibration_weights import RecordingJudge
from faith_udfs.citations import CUE_PATTERN
from faith_udfs.grounded import (
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
from faith_udfs.grounded_features import claim_features, question_copies
from faith_udfs.grounded_words import INTERJECTION_PATTERN
from faith_udfs.judges import Judge
from faith_udfs.sentences import split_sentences
from faith_udfs.word_rules import (
    NUMBER_RULES,
    V7_WORD_RULES,
    V8_WORD_RULES,
    V9_WORD_RULES,
    V10_WORD_RULES,
    WordRules,
)

JUDGES: dict[str, type[Judge]] = {
    "v3": GroundedV3Judge,
    "v4": GroundedV4Judge,
    "v5": GroundedV5Judge,
    "v6": GroundedV6Judge,
    "v7": GroundedV7Judge,
    "v8": GroundedV8Judge,
    "v9": GroundedV9Judge,
    "v10": GroundedV10Judge,
    "v11": GroundedV11Judge,
    "v12": GroundedV12Judge,
    "v13": GroundedJudge,
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=whole_number, default=100_000)
    parser.add_argument("--rounds", type=whole_number, default=3)
    parser.add_argument("--shape", type=shape_names, default=",".join(SHAPES))
    args = parser.parse_args()
    rows = []
    for shape in args.shape:
        cases = pl.concat(list(iter_shaped(args.rows, shape)))
        answers = cases["actual_output"].unique()
        opening = (
            answers.to_frame("text")
            .select(
                split_sentences(pl.col("text"))
                .list.eval(pl.element().str.contains(INTERJECTION_PATTERN))
                .list.any()
            )
            .to_series()
        )
        recorded = RecordingJudge()  # the default judge, keeping the questions it was asked
        score_cases(cases, recorded, MetricConfig())
        questions = pl.concat(recorded.asked)
        copied = {
            version: question_copies(questions, folds_case=folds)["copied"].mean()
            for version, folds in (("v5", False), ("v6", True))
        }
        spent: dict[str, list[float]] = {name: [] for name in JUDGES}
        for _ in range(args.rounds):
            for name, judge in JUDGES.items():
                started = time.process_time()
                score_cases(cases, judge(), MetricConfig())
                spent[name].append(time.process_time() - started)
        best = {name: min(times) for name, times in spent.items()}
        features = _feature_cpu(questions, args.rounds)
        rows.append(
            {
                "shape": shape,
                "rows": f"{cases.height:,}",
                "answers": f"{answers.len():,}",
                "cued": f"{int(answers.str.contains(CUE_PATTERN).sum()):,}",
                "opening": f"{int(opening.sum()):,}",
                "questions": f"{questions.height:,}",
                **{f"copied_{version}": f"{share:.2f}" for version, share in copied.items()},
                **{f"{name}_cpu_s": round(best[name], 3) for name in JUDGES},
                **_ratios(best, ""),
                **{f"features_{name}_cpu_s": round(cpu, 3) for name, cpu in features.items()},
                **_ratios(features, "features_"),
            }
        )
        ratios = {k.replace("_over_", " / "): v for k, v in rows[-1].items() if "_over_" in k}
        judge = ", ".join(f"{k} = {v}" for k, v in ratios.items() if "features" not in k)
        alone = ", ".join(f"{k[9:]} = {v}" for k, v in ratios.items() if "features" in k)
        print(f"{shape}: {judge}; claim_features {alone}", flush=True)
    print(table(rows, list(rows[0])))
    return 0


WORD_RULES: dict[str, WordRules] = {
    "v6": NUMBER_RULES,
    "v7": V7_WORD_RULES,
    "v8": V8_WORD_RULES,
    "v9": V9_WORD_RULES,
    "v10": V10_WORD_RULES,
}


def _ratios(cpu: dict[str, float], prefix: str) -> dict[str, float]:
    """`{prefix}v4_over_v3`: each version's CPU-seconds over the one's before it."""
    names = list(cpu)
    return {
        f"{prefix}{new}_over_{old}": round(cpu[new] / cpu[old], 3)
        for old, new in itertools.pairwise(names)
    }


def _feature_cpu(questions: pl.DataFrame, rounds: int) -> dict[str, float]:
    """claim_features of the questions under each version's word rules: fastest CPU-seconds."""
    spent: dict[str, list[float]] = {name: [] for name in WORD_RULES}
    for _ in range(rounds):
        for name, rules in WORD_RULES.items():
            started = time.process_time()
            claim_features(questions, rules=rules, folds_case=True)
            spent[name].append(time.process_time() - started)
    return {name: min(times) for name, times in spent.items()}


if __name__ == "__main__":
    sys.exit(main())
