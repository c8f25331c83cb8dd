"""One settings object: CLI/environment -> settings -> flow parameter -> function arguments."""

from __future__ import annotations

import json
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, SecretStr, model_validator

from faith_udfs import MetricConfig
from flows.judges.endpoint.breaker import DEFAULT_BREAKER_FAILURES
from flows.judges.endpoint.capped_http import DEFAULT_MAX_REPLY_BYTES
from flows.judges.endpoint.request_details import split_userinfo
from flows.read.source import DEFAULT_BATCH_SIZE
from flows.store.db import DEFAULT_DB


class JudgeSettings(BaseModel):
    """Which judge answers, and how it may use the endpoint. Holds no key, only the name of
    the environment variable that holds it; credentials written into the URL are split off
    into a secret that shows as `**********` wherever the settings go (Prefect stores a flow's
    parameters in its database and shows them in its UI)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    # grounded: the offline default; lexical: the seed's word rules; openai: an LLM endpoint.
    kind: Literal["grounded", "lexical", "openai"] = "grounded"
    model: str | None = None
    base_url: str | None = None
    api_key_env: str = "OPENAI_API_KEY"
    mode: str | None = None
    # Batch mode: seconds a run may wait for its own batches to finish (0: leave them pending).
    batch_wait: float = Field(default=0.0, ge=0.0)
    llm_reason: bool = False
    concurrency: int = Field(default=8, ge=1, le=256)
    timeout: float = Field(default=60.0, gt=0)
    max_calls: int | None = Field(default=None, ge=0)
    max_tokens: int | None = Field(default=None, ge=0)
    # Requests and tokens per minute, over any 60 s window (flows/judges/endpoint/rate_window.py).
    rpm: int | None = Field(default=None, ge=1)
    tpm: int | None = Field(default=None, ge=1)
    # max_tokens of every request; None: sized from the question and its items (live/tasks.py).
    max_output_tokens: int | None = Field(default=None, ge=16)
    # A judge answer's body larger than this is a reply error, never read whole.
    max_reply_bytes: int = Field(default=DEFAULT_MAX_REPLY_BYTES, ge=1024)
    # Failures of one kind in a row (refused, DNS, TLS, timeout, 5xx, a Retry-After past what
    # the run can wait) after which no further call is made and the run ends (exit 6).
    breaker_failures: int = Field(default=DEFAULT_BREAKER_FAILURES, ge=1)
    # `user:password` of a `--base-url` such as http://user:password@proxy:4000/v1.
    base_url_userinfo: SecretStr | None = Field(default=None, repr=False)

    @model_validator(mode="before")
    @classmethod
    def _split_userinfo(cls, data: Any) -> Any:
        """Keep `base_url` free of credentials, whoever built the settings."""
        if not isinstance(data, dict) or not data.get("base_url"):
            return data
        public, userinfo = split_userinfo(str(data["base_url"]))
        if userinfo is None:
            return data
        return {**data, "base_url": public, "base_url_userinfo": userinfo}

    def endpoint_url(self) -> str | None:
        """The URL to call, credentials included: for the HTTP client only."""
        if self.base_url is None or self.base_url_userinfo is None:
            return self.base_url
        scheme, sep, rest = self.base_url.partition("://")
        return f"{scheme}{sep}{self.base_url_userinfo.get_secret_value()}@{rest}"


class ScoreSettings(BaseModel):
    """Everything a scoring run needs; the Prefect flow's one parameter."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    source: str
    db: str = str(DEFAULT_DB)
    judge: JudgeSettings = JudgeSettings()
    threshold: float = Field(default=0.5, ge=0.0, le=1.0)
    penalize_ambiguous_claims: bool = False
    strict_mode: bool = False
    include_reason: bool = True
    truths_extraction_limit: int | None = Field(default=None, ge=1)
    batch_size: int = Field(default=DEFAULT_BATCH_SIZE, ge=1)
    lock_timeout: float = Field(default=0.0, ge=0.0)
    # A run whose judged cases end `invalid` beyond this share keeps everything but fails
    # (exit 8), so a schedule notices a judge that scores nothing.
    max_invalid_share: float = Field(default=0.1, ge=0.0, le=1.0)
    # After the run, copy the database to `<db>.snapshot.duckdb` for readers while the next
    # run holds the lock (costs a checkpoint and a copy of the file).
    snapshot: bool = False
    flow: Literal["score", "nightly"] = "score"
    # USD per million judge tokens in and out (default: flows/judges/prices.py's table).
    price_input_usd: float | None = Field(default=None, ge=0.0)
    price_output_usd: float | None = Field(default=None, ge=0.0)
    # Work out calls, tokens and cost without judging or writing anything (a `runs` row only).
    dry_run: bool = False

    def prices(self) -> tuple[float | None, float | None]:
        """USD per million tokens (in, out) this run's judge is priced at; None: unknown."""
        from flows.judges.prices import judge_prices

        judge = self.judge
        return judge_prices(
            judge.kind, judge.model, self.price_input_usd, self.price_output_usd, judge.mode
        )

    # Where batches are scored: `local`, this process's three threads; `dask`, a Dask
    # cluster's workers (flows/engines/), `workers` local processes or the one at `scheduler`.
    engine: Literal["local", "dask"] = "local"
    workers: int | None = Field(default=None, ge=1)
    scheduler: str | None = None
    # --engine dask: seconds to wait for the cluster to move (a worker to join at the start,
    # the next partition to finish) before the run ends with exit 10.
    task_timeout: float = Field(default=3600.0, gt=0)

    @model_validator(mode="after")
    def _one_cluster(self) -> ScoreSettings:
        """--workers and --scheduler name the Dask engine's cluster: one of them, with it."""
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
        return MetricConfig(
            threshold=self.threshold,
            penalize_ambiguous_claims=self.penalize_ambiguous_claims,
            strict_mode=self.strict_mode,
            include_reason=self.include_reason,
            truths_extraction_limit=self.truths_extraction_limit,
        )

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
