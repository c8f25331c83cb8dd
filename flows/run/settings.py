"""The run's settings: CLI/environment -> settings -> flow parameter -> function arguments.
The judge's own settings (JudgeSettings) live in the judges wing and nest here."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from faith_udfs import MetricConfig
from flows.judges.settings import JudgeSettings
from flows.read.read_options import ReadOptions, parse_columns
from flows.read.source import DEFAULT_BATCH_SIZE, MAX_BATCH_SIZE
from flows.store.db import DEFAULT_DB
from schemas import SizeLimits
from schemas.sizes import (
    DEFAULT_MAX_ANSWER_BYTES,
    DEFAULT_MAX_CONTEXT_BYTES,
    DEFAULT_MAX_SENTENCE_PAIRS,
)


class ScoreSettings(BaseModel):
    """Everything a scoring run needs; the Prefect flow's one parameter."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    source: str
    db: str = str(DEFAULT_DB)
    judge: JudgeSettings = JudgeSettings()
    # None: the metric's default (0.5), or the threshold of the calibration the judge names.
    threshold: float | None = Field(default=None, ge=0.0, le=1.0)
    penalize_ambiguous_claims: bool = False
    strict_mode: bool = False
    include_reason: bool = True
    truths_extraction_limit: int | None = Field(default=None, ge=1)
    batch_size: int = Field(default=DEFAULT_BATCH_SIZE, ge=1, le=MAX_BATCH_SIZE)
    lock_timeout: float = Field(default=0.0, ge=0.0)
    # A run whose judged cases end `invalid` beyond this share keeps everything but fails
    # (exit 8), so a schedule notices a judge that scores nothing.
    max_invalid_share: float = Field(default=0.1, ge=0.0, le=1.0)
    # A run whose rows read end quarantined beyond this share keeps everything but fails
    # (exit 11): the source has drifted from the contract. The same default for the CLI and a
    # Python caller; None checks nothing.
    max_quarantine_share: float | None = Field(default=0.1, ge=0.0, le=1.0)
    # After the run, copy the database to `<db>.snapshot.duckdb` for readers while the next
    # run holds the lock (costs a checkpoint and a copy of the file).
    snapshot: bool = False
    flow: Literal["score", "nightly"] = "score"
    # USD per million judge tokens in and out (default: flows/judges/prices.py's table).
    # A finite price: inf stored an infinite cost_usd; nan passed as a price too.
    price_input_usd: float | None = Field(default=None, ge=0.0, allow_inf_nan=False)
    price_output_usd: float | None = Field(default=None, ge=0.0, allow_inf_nan=False)
    # Work out calls, tokens and cost without judging or writing anything (a `runs` row only).
    dry_run: bool = False
    # Reading the source (docs/conversations.md): its format (auto: by extension), which of
    # its columns are the contract's (`{"input": "question"}`, or the CLI's text
    # `input=question,...`), how a missing case_id is made, and how many earlier turns a
    # conversation's turn may rely on.
    format: str = "auto"
    columns: dict[str, str] = Field(default_factory=dict)
    case_id: Literal["given", "content"] = "given"
    conversation_window: int = Field(default=4, ge=0)

    @model_validator(mode="before")
    @classmethod
    def _columns_as_text(cls, data: Any) -> Any:
        """`columns` may come as the CLI's text (a deployment's parameter, an environment)."""
        if isinstance(data, dict) and "columns" in data and data["columns"] is None:
            return {**data, "columns": {}}  # a command given no --columns
        if isinstance(data, dict) and isinstance(data.get("columns"), str):
            return {**data, "columns": parse_columns(data["columns"])}
        return data

    @model_validator(mode="after")
    def _readable(self) -> ScoreSettings:
        """The read options hold together (a known format, contract names in `columns`)."""
        self.read_options()
        return self

    def read_options(self) -> ReadOptions:
        """How the source is read, as flows/read takes it."""
        return ReadOptions(
            format=self.format,
            columns=dict(self.columns),
            case_id=self.case_id,
            conversation_window=self.conversation_window,
            size_limits=self.size_limits(),
        )

    # A row whose answer or question (each), or passages (together), hold more UTF-8 bytes is
    # quarantined as too large before anything hashes or judges it (schemas/sizes.py).
    max_answer_bytes: int = Field(default=DEFAULT_MAX_ANSWER_BYTES, ge=1)
    max_context_bytes: int = Field(default=DEFAULT_MAX_CONTEXT_BYTES, ge=1)
    # So is a row whose answer's sentences times its passages' pass this: the judge's memory.
    max_sentence_pairs: int = Field(default=DEFAULT_MAX_SENTENCE_PAIRS, ge=1)

    def size_limits(self) -> SizeLimits:
        """The row size limits validation applies (--max-answer-bytes, --max-context-bytes,
        --max-sentence-pairs)."""
        return SizeLimits(self.max_answer_bytes, self.max_context_bytes, self.max_sentence_pairs)

    def prices(self) -> tuple[float | None, float | None]:
        """USD per million tokens (in, out) this run's judge is priced at; None: unknown."""
        from flows.judges.prices import judge_prices

        judge = self.judge
        return judge_prices(
            judge.kind, judge.model, self.price_input_usd, self.price_output_usd, judge.mode
        )

    # Where batches are scored: `local`, this process's threads (flows/run/run_state.py);
    # `dask`, a Dask cluster's workers (flows/engines/), `workers` local processes or the one
    # at `scheduler`.
    engine: Literal["local", "dask"] = "local"
    workers: int | None = Field(default=None, ge=1)
    scheduler: str | None = None
    # --engine dask: seconds to wait for the cluster to move (a worker to join at the start,
    # the next partition to finish) before the run ends with exit 10.
    task_timeout: float = Field(default=3600.0, gt=0)

    @model_validator(mode="after")
    def _one_cluster(self) -> ScoreSettings:
        """--workers and --scheduler name the Dask engine's cluster: one of them, with it."""
        if self.scheduler is not None and not _dask_address(self.scheduler):
            # Dask's own refusal came as the cluster was joined: exit 1, `ValueError: missing
            # port number`; an empty one (an unset variable) started a local cluster instead.
            raise ValueError(
                f"--scheduler {self.scheduler!r} is not a Dask scheduler's address: give "
                "[tcp|tls|ws|wss|ucx]://HOST:PORT, e.g. tcp://10.0.0.5:8786 (or leave it out for a "
                "local cluster)"
            )
        if self.engine == "local" and (self.workers or self.scheduler):
            raise ValueError("--workers and --scheduler need --engine dask")
        if self.workers and self.scheduler:
            raise ValueError(
                "--workers starts a local cluster, --scheduler uses an existing one: give one"
            )
        if self.on_dask and self.judge.kind == "openai" and self.judge.mode == "batch":
            # Batches are submitted, recorded and collected by the one process that writes.
            raise ValueError("--judge-mode batch runs in one process: use --engine local")
        if self.engine == "dask" and (self.judge.rpm or self.judge.tpm):
            # The --rpm/--tpm window counts one process's requests; workers would each have one.
            raise ValueError(
                "--rpm and --tpm hold within one process: use --engine local, or cap the "
                "cluster's calls with --concurrency"
            )
        if self.on_dask and (self.judge.max_calls is not None or self.judge.max_tokens is not None):
            # Each worker's judge counts its own calls: the cap would hold per partition.
            raise ValueError("--max-calls and --max-tokens cap one process: use --engine local")
        return self

    @property
    def on_dask(self) -> bool:
        """Whether batches go to the Dask cluster: a dry run only reads and counts, here."""
        return self.engine == "dask" and not self.dry_run

    def metric_config(self) -> MetricConfig:
        """The metric settings as faith_udfs takes them."""
        config = MetricConfig(
            penalize_ambiguous_claims=self.penalize_ambiguous_claims,
            strict_mode=self.strict_mode,
            include_reason=self.include_reason,
            truths_extraction_limit=self.truths_extraction_limit,
        )
        # no --threshold: MetricConfig's default (or, later, the calibration's)
        return config if self.threshold is None else replace(config, threshold=self.threshold)

    def describe(self, identity: dict[str, object]) -> str:
        """JSON of what names the run's config, for `runs.config` (no secrets in it)."""
        return json.dumps(
            {
                "judge": identity,
                **self.metric_config().identity_settings(),
                "include_reason": self.include_reason,
                "batch_size": self.batch_size,
            },
            sort_keys=True,
        )


_SCHEME = re.compile(r"([a-z][a-z0-9+.-]*)?")


def _dask_address(address: str) -> bool:
    """Whether `address` is one a Dask client can join: `[scheme://]host:port`, a scheme of
    Dask's network comms, a host (`[...]` for IPv6) and a port from 1 to 65535."""
    scheme, _, rest = address.rpartition("://")
    # any comm's scheme (tcp, tls, ws, wss, ucx with dask-cuda, ...) but a web page's, the
    # dashboard's address given for the scheduler's
    if scheme in ("http", "https") or not _SCHEME.fullmatch(scheme):
        return False
    host, _, port = rest.rpartition(":")
    host = host.removeprefix("[").removesuffix("]") if host.startswith("[") else host
    return bool(host.strip()) and port.isdecimal() and 1 <= int(port) <= 65535
