"""What `evaluate()` returns, read off the batch's frames: DeepEval's result objects for each
case are built when a case is looked at, so 100,000 cases cost no Python objects until asked,
and the summary and the error check are computed on the frames."""

from __future__ import annotations

import json
import operator
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, fields
from typing import Any, overload

import polars as pl

from faith_udfs.case_results import CaseResult, FaithfulnessVerdict, case_results
from faith_udfs.case_results import verbose_logs as logs_of
from faith_udfs.metric import FaithfulnessFrames

SHOWN_FAILURES = 10
# A case's columns per metric, in the order `_metric_data` reads them.
ROW_COLUMNS = ("score", "threshold", "success", "reason", "status", "error")
DETAILS_BLOCK = 1_000  # truths, claims and verdicts are built this many cases at a time
CHUNK = 10_000  # iteration builds results this many at a time: lazy, yet one polars call each


@dataclass(frozen=True)
class MetricData:
    """One metric's outcome on one test case, named as DeepEval names it."""

    name: str
    threshold: float
    success: bool
    score: float | None
    reason: str | None
    strict_mode: bool
    evaluation_model: str
    error: str | None
    evaluation_cost: float | None
    input_tokens: int = 0
    output_tokens: int = 0
    flaky: bool = False
    # What DeepEval loses, kept here: the case's status, and (read from the batch's frames on
    # first use, so 100,000 results cost no Python objects until asked) truths, claims, verdicts.
    status: str = "scored"
    truths_extraction_limit: int | None = None
    details: CaseDetails | None = field(default=None, repr=False, compare=False)
    case_name: str = field(default="", repr=False, compare=False)

    @property
    def _result(self) -> CaseResult:
        if self.details is None:
            raise AttributeError("this MetricData carries no case details")
        return self.details.of(self.case_name)

    @property
    def truths(self) -> list[str]:
        return self._result.truths

    @property
    def claims(self) -> list[str]:
        return self._result.claims

    @property
    def verdicts(self) -> list[FaithfulnessVerdict]:
        return self._result.verdicts

    @property
    def score_breakdown(self) -> dict[str, object]:
        return self._result.score_breakdown

    @property
    def verbose_logs(self) -> str:
        """DeepEval's verbose_logs, written when read."""
        return logs_of(self._result, self.truths_extraction_limit)

    def model_dump(self, mode: str = "python") -> dict[str, Any]:
        """DeepEval's MetricData is pydantic: its fields (faithpipe's counts and status too)
        as a dict, verbose_logs included; `mode` ("python", "json") gives the same here."""
        dumped = {f.name: getattr(self, f.name) for f in fields(self) if f.compare}
        dumped["verbose_logs"] = self.verbose_logs if self.details is not None else None
        return dumped


class CaseDetails:
    """Per-case truths, claims and verdicts of one metric's batch, built on first use a block
    of cases at a time: one case's costs a block's objects, not the batch's."""

    def __init__(self, frames: FaithfulnessFrames) -> None:
        self.frames = frames
        self._results: dict[str, CaseResult] = {}
        self._row_of: dict[str, int] | None = None
        self._claims = frames.claim_verdicts

    def of(self, name: str) -> CaseResult:
        found = self._results.get(name)
        if found is None:
            self._results.update(self._block_of(name))
            found = self._results[name]
        return found

    def _block_of(self, name: str) -> dict[str, CaseResult]:
        scores = self.frames.case_scores
        if self._row_of is None:
            ids = scores["case_id"].to_list()
            self._row_of = dict(zip(ids, range(len(ids)), strict=True))
            rows = scores.select("case_id", row=pl.int_range(pl.len(), dtype=pl.Int64))
            self._claims = self._claims.join(rows, on="case_id", how="left").sort("row")
        start = self._row_of[name] // DETAILS_BLOCK * DETAILS_BLOCK
        block = scores.slice(start, DETAILS_BLOCK)
        first, last = self._claims["row"].search_sorted(
            pl.Series([start, start + DETAILS_BLOCK], dtype=pl.Int64), "left"
        )
        passages = block["passage_ids"].explode().drop_nulls().unique()
        return case_results(
            FaithfulnessFrames(
                case_scores=block,
                claim_verdicts=self._claims.slice(first, last - first).drop("row"),
                truths=self.frames.truths.filter(pl.col("passage_id").is_in(passages.implode())),
                item_keys=self.frames.item_keys,
            )
        )


@dataclass(frozen=True)
class TestResult:
    """One test case's outcome over every metric (DeepEval's `TestResult`)."""

    __test__ = False  # not a pytest class

    name: str
    success: bool
    metrics_data: list[MetricData]
    input: str | None
    actual_output: str
    retrieval_context: list[str] | None  # None: none given (DeepEval's), not `[]`
    expected_output: str | None = None
    context: list[str] | None = None
    # DeepEval's other fields, which its scripts read: the case's position in the list given,
    # its metadata (DeepEval reads additional_metadata as metadata), and the kind of case
    index: int | None = None
    metadata: dict[str, Any] | None = None
    conversational: bool = False
    multimodal: bool = False
    turns: list[Any] | None = None


@dataclass(frozen=True)
class MetricRun:
    """One metric's batch: its settings, its frames, and its case rows in test-case order."""

    name: str
    strict_mode: bool
    evaluation_model: str
    flaky: bool
    truths_extraction_limit: int | None
    verbose: bool
    tokens: tuple[int, int]  # spent per batch, not per case: the first case carries them
    frames: FaithfulnessFrames
    rows: pl.DataFrame  # ROW_COLUMNS, one row a test case, in the order given
    details: CaseDetails


class TestResults(Sequence[TestResult]):
    """`EvaluationResult.test_results`: a read-only list of TestResult, each built from the
    frames when first looked at (then kept, so `results[i] is results[i]`)."""

    __test__ = False  # not a pytest class
    __hash__ = None  # type: ignore[assignment]  # compares by value, as a list does

    def __init__(
        self,
        cases: Sequence[Any],
        names: list[str],
        runs: list[MetricRun],
        skipped: frozenset[int] = frozenset(),
        keys: list[str] | None = None,
    ) -> None:
        self.cases, self.names, self.runs = cases, names, runs
        # each case's case_id in the frames: its name, unless names repeat (evaluate._keys_of)
        self.keys = names if keys is None else keys
        self.skipped = skipped  # positions not measured (ErrorConfig.skip_on_missing_params)
        # the first position measured: its metric data carry each batch's tokens
        self.first_measured = next((p for p in range(len(names)) if p not in skipped), None)
        self._built: list[TestResult | None] = [None] * len(names)

    def __len__(self) -> int:
        return len(self.names)

    @overload
    def __getitem__(self, index: int) -> TestResult: ...

    @overload
    def __getitem__(self, index: slice) -> list[TestResult]: ...

    def __getitem__(self, index: int | slice) -> TestResult | list[TestResult]:
        if isinstance(index, slice):
            return self._build(range(len(self))[index])
        position = operator.index(index)
        if position < 0:
            position += len(self)
        if not 0 <= position < len(self):
            raise IndexError("list index out of range")
        return self._build(range(position, position + 1))[0]

    def __iter__(self) -> Iterator[TestResult]:
        for start in range(0, len(self), CHUNK):
            yield from self._build(range(start, min(start + CHUNK, len(self))))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, list | TestResults):
            return NotImplemented
        return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))

    def __repr__(self) -> str:
        return repr(list(self))

    def _build(self, positions: range) -> list[TestResult]:
        """The results at `positions`, building (in one polars call a metric) those not built."""
        built = self._built
        missing = [p for p in positions if built[p] is None]
        if missing:
            if len(missing) == len(positions) and positions.step == 1:
                rows = [run.rows.slice(positions.start, len(positions)).rows() for run in self.runs]
            else:
                rows = [run.rows[missing].rows() for run in self.runs]
            for offset, position in enumerate(missing):
                built[position] = self._test_result(position, [r[offset] for r in rows])
        return [built[p] for p in positions]  # type: ignore[misc]

    def _test_result(self, position: int, rows: list[tuple[Any, ...]]) -> TestResult:
        case, name = self.cases[position], self.names[position]
        data = [
            _metric_data(run, row, self.keys[position], first=position == self.first_measured)
            for run, row in zip(self.runs, rows, strict=True)
            if position not in self.skipped
        ]
        return TestResult(
            name=name,
            # DeepEval: a flaky metric's failure never decides its test case's pass/fail
            success=all(m.success for m in data if not m.flaky),
            metrics_data=data,
            input=case.input,
            actual_output=case.actual_output,
            retrieval_context=_passages_of(case),
            expected_output=getattr(case, "expected_output", None),
            context=getattr(case, "context", None),
            index=position,
            metadata=_metadata_of(case),
        )

    def outcomes(self) -> pl.DataFrame:
        """Every (test case, metric) outcome measured, as one frame, in test then metric order."""
        frame = pl.concat(
            [
                run.rows.select(
                    position=pl.int_range(pl.len(), dtype=pl.Int64),
                    metric=pl.lit(index, dtype=pl.Int64),
                    case=pl.Series(self.names, dtype=pl.String),
                    name=pl.lit(run.name, dtype=pl.String),
                    success=pl.col("success").fill_null(False),
                    **{c: pl.col(c) for c in ("score", "threshold", "reason", "status", "error")},
                )
                for index, run in enumerate(self.runs)
            ],
            how="vertical_relaxed",
        ).sort("position", "metric")
        if not self.skipped:
            return frame
        return frame.filter(~pl.col("position").is_in(sorted(self.skipped)))


def _passages_of(case: Any) -> list[str] | None:
    """The case's retrieval_context as DeepEval carries it to its result: a copy of the list
    given, None when none was (a case skipped for none reads apart from one given `[]`)."""
    given = getattr(case, "retrieval_context", None)
    return None if given is None else list(given)


def _metadata_of(case: Any) -> dict[str, Any] | None:
    """The case's metadata as DeepEval carries it to its result: `metadata`, else the
    `additional_metadata` DeepEval takes as its alias."""
    given = getattr(case, "metadata", None)
    return given if given is not None else getattr(case, "additional_metadata", None)


def _metric_data(run: MetricRun, row: tuple[Any, ...], name: str, first: bool) -> MetricData:
    score, threshold, success, reason, status, error = row
    return MetricData(
        name=run.name,
        threshold=threshold,
        success=bool(success),
        score=score,
        reason=reason,
        strict_mode=run.strict_mode,
        evaluation_model=run.evaluation_model,
        error=error,
        evaluation_cost=None,
        input_tokens=run.tokens[0] if first else 0,
        output_tokens=run.tokens[1] if first else 0,
        flaky=run.flaky,
        status=status,
        truths_extraction_limit=run.truths_extraction_limit,
        details=run.details,
        case_name=name,
    )


@dataclass(frozen=True)
class EvaluationTables:
    """The case and claim tables as the CLI stores them (`case_scores`, `claim_verdicts`,
    `truths`), every metric's rows together, in polars or pandas."""

    case_scores: Any
    claim_verdicts: Any
    truths: Any


@dataclass(frozen=True)
class EvaluationResult:
    """What `evaluate` returns: one TestResult a test case, in the order given."""

    test_results: Sequence[TestResult]
    frames: tuple[Any, ...] = ()
    confident_link: str | None = None
    test_run_id: str | None = None

    def to_polars(self) -> EvaluationTables:
        """The stored tables as polars frames."""
        return EvaluationTables(
            *(pl.concat([getattr(f, name) for f in self.frames], how="vertical_relaxed")
              for name in ("case_scores", "claim_verdicts", "truths"))
        )  # fmt: skip

    def to_pandas(self) -> EvaluationTables:
        """The stored tables as pandas frames (pandas must be installed)."""
        tables = self.to_polars()
        return EvaluationTables(
            tables.case_scores.to_pandas(),
            tables.claim_verdicts.to_pandas(),
            tables.truths.to_pandas(),
        )

    def model_dump(self, mode: str = "python") -> dict[str, Any]:
        """DeepEval's EvaluationResult is pydantic, saved as `json.dump(result.model_dump(),
        f)`: every TestResult as a dict of its fields, each MetricData's dumped. It builds
        every case's objects; for whole batches read `to_polars()`."""
        tests = [
            {f.name: getattr(t, f.name) for f in fields(t)}
            | {"metrics_data": [m.model_dump(mode) for m in t.metrics_data]}
            for t in self.test_results
        ]
        return {
            "test_results": tests,
            "confident_link": self.confident_link,
            "test_run_id": self.test_run_id,
        }

    def model_dump_json(self, *, indent: int | None = None) -> str:
        """`model_dump()` as JSON text (metadata that JSON cannot hold as its `str`)."""
        return json.dumps(self.model_dump("json"), indent=indent, default=str)

    def outcomes(self) -> pl.DataFrame:
        """Every (test case, metric) outcome: `position`, `metric`, `case`, `name`, `success`,
        `score`, `threshold`, `reason`, `status`, `error`, in test then metric order."""
        if isinstance(self.test_results, TestResults):
            return self.test_results.outcomes()
        rows = [
            (p, j, t.name, m.name, m.success, m.score, m.threshold, m.reason, m.status, m.error)
            for p, t in enumerate(self.test_results)
            for j, m in enumerate(t.metrics_data)
        ]
        schema = {
            "position": pl.Int64, "metric": pl.Int64, "case": pl.String, "name": pl.String,
            "success": pl.Boolean, "score": pl.Float64, "threshold": pl.Float64,
            "reason": pl.String, "status": pl.String, "error": pl.String,
        }  # fmt: skip
        return pl.DataFrame(rows, schema=schema, orient="row")


def print_summary(result: EvaluationResult, seconds: float, file: Any = None) -> None:
    """A short summary like DeepEval's: failures first (a few), then each metric's pass rate."""
    out = file or sys.stdout
    outcomes = result.outcomes()
    tests = len(result.test_results)
    if isinstance(result.test_results, TestResults):
        labels = [run.name for run in result.test_results.runs]
        skipped = len(result.test_results.skipped)
    else:
        labels = outcomes.filter(pl.col("position") == 0).sort("metric")["name"].to_list()
        skipped = 0
    print(
        f"Evaluated {tests} test case(s) with {len(labels)} metric(s) in {seconds:.2f}s", file=out
    )
    if skipped:
        print(
            f"Skipped {skipped} test case(s): missing actual_output or retrieval_context", file=out
        )
    # two metrics of one name (a lenient and a strict Faithfulness) are told apart by number
    named = [
        name if labels.count(name) == 1 else f"{name} #{i + 1}" for i, name in enumerate(labels)
    ]
    failures = outcomes.filter(~pl.col("success"))
    if failures.height:
        print(f"Failures ({failures.height}):", file=out)
        for row in failures.head(SHOWN_FAILURES).iter_rows(named=True):
            if row["error"] is not None:
                why = f"{row['status']}: {row['error']}"
            else:
                why = f"score {row['score']:.2f} < {row['threshold']:.2f}"
                if row["reason"] is not None:  # include_reason=False: no ': None'
                    why += f": {row['reason']}"
            print(f"  x {row['case']}  {named[row['metric']]}  {why}", file=out)
        if failures.height > SHOWN_FAILURES:
            print(f"  ... and {failures.height - SHOWN_FAILURES} more", file=out)
    print("Overall Metric Pass Rates", file=out)
    counts = outcomes.group_by("metric").agg(pl.col("success").sum(), measured=pl.len())
    passed = {row[0]: row[1:] for row in counts.select("metric", "success", "measured").rows()}
    for index, label in enumerate(named):
        count, measured = passed.get(index, (0, 0))
        if measured:
            print(
                f"{label}: {100 * count / measured:.2f}% pass rate ({count}/{measured})", file=out
            )
        else:
            print(f"{label}: no test case measured", file=out)
