"""The offline metrics as DuckDB functions, for ad-hoc SQL over raw logs.

Each function runs the faith_udfs batch path on the whole Arrow vector DuckDB hands it, so
SQL and Python answers cannot drift. A NULL answer, passage or flag gives NULL; so does a case
the metric calls invalid (no non-blank context), as its score is NULL in case_scores.
"""

from __future__ import annotations

from collections.abc import Callable

import duckdb
import polars as pl
import pyarrow as pa
from duckdb.sqltypes import BOOLEAN, DOUBLE, VARCHAR, DuckDBPyType

from faith_udfs import (
    GroundedJudge,
    Judge,
    LexicalJudge,
    MetricConfig,
    extract_claims,
    extract_truths,
    score_cases,
)
from faith_udfs.scores import score_expr

__all__ = ["metric_functions", "register_metric_functions"]

_VERDICTS = pl.List(pl.Struct({"claim": pl.String, "verdict": pl.String, "reason": pl.String}))


def _series(values: pa.ChunkedArray | pa.Array, name: str) -> pl.Series:
    return pl.Series(name, pl.from_arrow(values))


def _keyed(values: pa.ChunkedArray | pa.Array) -> pl.DataFrame:
    """`key` (row position) and `text`: the frame the judge stages take."""
    text = _series(values, "text")
    return pl.DataFrame({"key": pl.int_range(len(text), eager=True, dtype=pl.UInt64), "text": text})


def _claims(answers: pa.ChunkedArray) -> pa.Array:
    found = extract_claims(_keyed(answers), LexicalJudge())
    return _keyed(answers).join(found, on="key", how="left")["claims"].to_arrow()


def _truths(passages: pa.ChunkedArray) -> pa.Array:
    found = extract_truths(_keyed(passages), LexicalJudge(), None)
    return _keyed(passages).join(found, on="key", how="left")["truths"].to_arrow()


def _scored(
    answers: pa.ChunkedArray, contexts: pa.ChunkedArray, judge: Judge | None = None
) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Score rows as cases named by position: (case_scores, claim_verdicts) frames."""
    cases = pl.DataFrame(
        {
            "actual_output": _series(answers, "actual_output").cast(pl.String),
            "retrieval_context": _series(contexts, "retrieval_context").cast(pl.List(pl.String)),
        }
    ).with_row_index("position")
    cases = cases.with_columns(case_id=pl.col("position").cast(pl.String))
    frames = score_cases(cases, judge or LexicalJudge(), MetricConfig(include_reason=False))
    order = cases.select("case_id", "position", "actual_output")
    return (
        order.join(frames.case_scores, on="case_id", how="left").sort("position"),
        frames.claim_verdicts.join(order.drop("actual_output"), on="case_id"),
    )


def _lexical_score(
    answers: pa.ChunkedArray, contexts: pa.ChunkedArray, penalize: pa.ChunkedArray
) -> pa.Array:
    return _score(LexicalJudge(), answers, contexts, penalize)


def _grounded_score(
    answers: pa.ChunkedArray, contexts: pa.ChunkedArray, penalize: pa.ChunkedArray
) -> pa.Array:
    return _score(GroundedJudge(), answers, contexts, penalize)


def _score(
    judge: Judge, answers: pa.ChunkedArray, contexts: pa.ChunkedArray, penalize: pa.ChunkedArray
) -> pa.Array:
    """Each row's score by `judge` (NULL for NULL input or an invalid case)."""
    scores, _ = _scored(answers, contexts, judge)
    counts = (pl.col("n_yes"), pl.col("n_no"), pl.col("n_idk"))
    score = (
        pl.when(pl.col("status") != "scored")
        .then(None)
        .when(pl.col("penalize"))
        .then(score_expr(*counts, penalize_ambiguous_claims=True))
        .otherwise(score_expr(*counts, penalize_ambiguous_claims=False))
    )
    penalized = scores.with_columns(penalize=_series(penalize, "penalize"))
    known = pl.col("actual_output").is_not_null() & pl.col("penalize").is_not_null()
    return penalized.select(pl.when(known).then(score).cast(pl.Float64))[:, 0].to_arrow()


def _verdicts(answers: pa.ChunkedArray, contexts: pa.ChunkedArray) -> pa.Array:
    scores, verdicts = _scored(answers, contexts)
    per_case = (
        verdicts.sort("position", "claim_index")
        .group_by("position", maintain_order=True)
        .agg(verdicts=pl.struct("claim", "verdict", "reason"))
    )
    return (
        scores.select("position", "status", "actual_output")
        .join(per_case, on="position", how="left")
        .sort("position")
        .select(
            pl.when((pl.col("status") == "scored") & pl.col("actual_output").is_not_null())
            .then(pl.col("verdicts").fill_null(pl.lit([], dtype=_VERDICTS)))
            .cast(_VERDICTS)
        )[:, 0]
        .to_arrow()
    )


MetricFunction = tuple[Callable[..., pa.Array], list[DuckDBPyType], DuckDBPyType]


def metric_functions(con: duckdb.DuckDBPyConnection) -> dict[str, MetricFunction]:
    """name -> (function, parameter types, return type); the SQL reference is in README.md.

    The list and struct types are made by `con`: made by the `duckdb` module they open
    DuckDB's default in-memory database (~0.1 s), which every `faith` start paid at import."""
    strings = con.list_type(VARCHAR)
    verdict = con.struct_type({"claim": VARCHAR, "verdict": VARCHAR, "reason": VARCHAR})
    return {
        "faith_claims": (_claims, [VARCHAR], strings),
        "faith_truths": (_truths, [VARCHAR], strings),
        "faith_verdicts": (_verdicts, [VARCHAR, strings], con.list_type(verdict)),
        "faith_lexical_score": (_lexical_score, [VARCHAR, strings, BOOLEAN], DOUBLE),
        "faith_grounded_score": (_grounded_score, [VARCHAR, strings, BOOLEAN], DOUBLE),
    }


def register_metric_functions(con: duckdb.DuckDBPyConnection) -> None:
    """Register the offline metrics' SQL functions on `con`; a second call is a no-op.

    Created first and checked only on refusal: asking `duckdb_functions()` beforehand cost
    40-65 ms on every connection (it lists DuckDB's thousands of functions), 2 ms creating."""
    for name, (function, parameters, returns) in metric_functions(con).items():
        try:
            # SPECIAL: NULL rows reach the function, which returns NULL for them itself
            # (DEFAULT refuses any NULL in a result, and an invalid case has a NULL score).
            # duckdb's stubs type a UDF's return as Python values; an arrow UDF returns an array.
            con.create_function(  # type: ignore[call-overload]
                name, function, parameters, returns, type="arrow", null_handling="special"
            )
        # DuckDB's refusals of a second function by a name: on this connection, or (Catalog)
        # on another connection of this process to the same database file.
        except (duckdb.NotImplementedException, duckdb.CatalogException) as refused:
            if not _says_it_exists(refused, name) and not _registered(con, name):
                raise


def _says_it_exists(refused: duckdb.Error, name: str) -> bool:
    """Whether DuckDB's refusal says a function `name` exists already (its words in DuckDB
    2.0); other words are checked in the catalog, at ~40 ms a look."""
    text = str(refused)
    return (
        f"by the name of '{name}' is already created" in text
        or f'Function with name "{name}" already exists' in text
    )


def _registered(con: duckdb.DuckDBPyConnection, name: str) -> bool:
    found = con.execute(
        "SELECT count(*) FROM duckdb_functions() WHERE function_name = $name", {"name": name}
    ).fetchall()
    return bool(found[0][0])
