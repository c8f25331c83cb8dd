"""Reading the golden set: labelled cases a judge is checked on, refused before any run
when their columns, types or verdicts are wrong."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

import polars as pl

from faith_udfs.judges import VERDICT_VOCABULARY
from faith_udfs.verdicts import VERDICT_SYNONYMS
from faith_udfs.words import is_blank
from flows.errors import InputUnreadable
from flows.read.regular_files import require_regular_file

__all__ = ["GOLDEN_SCHEMA", "GoldenSet", "read_golden"]

GOLDEN_SCHEMA: dict[str, pl.DataType] = {
    "case_id": pl.String(),
    "actual_output": pl.String(),
    "retrieval_context": pl.List(pl.String()),
    "expected_verdicts": pl.List(pl.String()),
}
VERDICTS = VERDICT_VOCABULARY


@dataclass(frozen=True)
class GoldenSet:
    """The labelled cases a judge is checked on, and a hash naming their content."""

    path: str
    cases: pl.DataFrame
    content_hash: str


def read_golden(path: Path | str) -> GoldenSet:
    """Read and check a golden set (see `data/golden.py`); a bad one fails before any run."""
    path = Path(path)
    require_regular_file(path, "golden set", "a golden set is a Parquet file")
    try:
        frame = pl.read_parquet(path, glob=False)
    except (OSError, pl.exceptions.PolarsError) as exc:
        # What the file is not: a CSV or JSON golden set said only "(ComputeError)".
        kind = "no such file" if isinstance(exc, FileNotFoundError) else "not a Parquet file"
        raise InputUnreadable(
            f"golden set {path}: not readable ({kind}, {type(exc).__name__}); a golden set is "
            "a Parquet file (`python data/golden.py` writes the bundled one), or pass --golden PATH"
        ) from None
    frame = _categories_as_text(frame)
    problems = [
        f"no column {name}"
        if name not in frame.columns
        else f"column {name} is {frame.schema[name]}, not {dtype}"
        for name, dtype in GOLDEN_SCHEMA.items()
        if name not in frame.columns or frame.schema[name] != dtype
    ]
    if problems:
        raise InputUnreadable(
            f"golden set {path}: {'; '.join(problems)}; expected "
            + ", ".join(f"{name}: {dtype}" for name, dtype in GOLDEN_SCHEMA.items())
        )
    # DeepEval's `borderline` is the middle verdict as a judge's is (README: both accepted),
    # read as `idk` before the check and the hash: the same set hashes the same either way.
    synonyms = pl.element().replace(VERDICT_SYNONYMS)
    cases = frame.select(list(GOLDEN_SCHEMA)).with_columns(
        pl.col("expected_verdicts").list.eval(synonyms)
    )
    _check_cases(cases, path)
    content = json.dumps(cases.sort("case_id").to_dicts(), sort_keys=True)
    digest = hashlib.md5(content.encode(), usedforsecurity=False).hexdigest()
    return GoldenSet(path=str(path), cases=cases, content_hash=digest)


def _categories_as_text(frame: pl.DataFrame) -> pl.DataFrame:
    """Categorical texts (pandas' `category`, a Parquet dictionary) as the texts they are,
    also inside lists: SOURCE and calibration labels take them."""
    text = (pl.Categorical, pl.Enum)
    return frame.with_columns(
        pl.col(name).cast(pl.List(pl.String) if isinstance(dtype, pl.List) else pl.String)
        for name, dtype in frame.schema.items()
        if name in GOLDEN_SCHEMA
        and (
            isinstance(dtype, text)
            or (isinstance(dtype, pl.List) and isinstance(dtype.inner, text))
        )
    )


def _check_cases(cases: pl.DataFrame, path: Path) -> None:
    """Refuse a golden set a judge cannot be checked on, naming what is wrong: no case, an
    id empty (or blank) or repeated, a null answer, context or verdict, a blank answer, no
    passage or a null or blank one, a verdict outside the vocabulary."""
    if cases.is_empty():
        raise InputUnreadable(f"golden set {path}: no case; a judge cannot be checked on it")
    if cases["case_id"].has_nulls():
        raise InputUnreadable(f"golden set {path}: case_id must not be null")
    if cases.filter(pl.col("case_id").str.strip_chars() == "").height:
        raise InputUnreadable(f"golden set {path}: case_id must not be empty")
    repeated = cases.filter(pl.col("case_id").is_duplicated())["case_id"].unique().sort()
    if repeated.len():
        raise InputUnreadable(
            f"golden set {path}: case_id must be unique, repeated: {repeated.head(3).to_list()}"
        )
    # A null where a golden case is described: the case dropped out of the agreement, a null
    # verdict counted as agreed, a null answer or context scored invalid, all without a word.
    for name, holes in (
        ("expected_verdicts", pl.col("expected_verdicts").is_null()),
        (
            "expected_verdicts",
            pl.col("expected_verdicts").list.eval(pl.element().is_null()).list.any(),
        ),
        ("actual_output", pl.col("actual_output").is_null()),
        ("retrieval_context", pl.col("retrieval_context").is_null()),
    ):
        bad = cases.filter(holes)["case_id"]
        if bad.len():
            raise InputUnreadable(
                f"golden set {path}: {name} holds a null in case {bad.head(3).to_list()}: "
                "a golden case says its answer, its context and every verdict"
            )
    # What the input contract quarantines or leaves invalid (schemas/inputs.py, EmptyContext):
    # a judge can only leave such a case invalid, which disagrees every night, the check
    # passing or failing with no word that the golden set, not the judge, was at fault.
    passage_blank = pl.element().is_null() | is_blank(pl.element())
    for what, unjudgeable in (
        ("actual_output is blank", is_blank(pl.col("actual_output"))),
        ("retrieval_context has no passage", pl.col("retrieval_context").list.len() == 0),
        (
            "retrieval_context holds a null or blank passage",
            pl.col("retrieval_context").list.eval(passage_blank).list.any(),
        ),
    ):
        bad = cases.filter(unjudgeable)["case_id"]
        if bad.len():
            raise InputUnreadable(
                f"golden set {path}: {what} in case {bad.head(3).to_list()}: a judge can only "
                "leave it invalid, which agrees on nothing; give it an answer and its passages"
            )
    unknown = cases.select(pl.col("expected_verdicts").explode()).drop_nulls().unique()
    unknown = unknown.filter(~pl.col("expected_verdicts").is_in(list(VERDICTS)))
    if unknown.height:
        raise InputUnreadable(
            f"golden set {path}: expected_verdicts only {'/'.join(VERDICTS)} (found "
            f"{unknown['expected_verdicts'].sort().to_list()})"
        )
