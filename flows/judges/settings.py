"""The judge's settings: which judge answers, and how it may use the endpoint.

Owned by the judges wing (the run nests them in ScoreSettings); every judge module takes them.
"""

from __future__ import annotations

import logging
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, SecretStr, field_validator, model_validator

from faith_udfs.errors import ConfigError
from flows.judges.endpoint.breaker import DEFAULT_BREAKER_FAILURES
from flows.judges.endpoint.call_policy import MAX_BATCH_WAIT, MAX_TIMEOUT, CallLimits
from flows.judges.endpoint.reply_cap import DEFAULT_MAX_REPLY_BYTES, MAX_REPLY_BYTES_RANGE
from flows.judges.endpoint.request_details import (
    base_url_problem,
    split_userinfo,
    url_without_query,
)
from flows.judges.live.tasks import BUDGET_CEILING

__all__ = ["CutoffSettings", "JudgeSettings"]

log = logging.getLogger("faithpipe")


class CutoffSettings(BaseModel):
    """A calibration's cut-offs as the judge takes them (filled from `calibrations` by the run
    that names a calibration, so that workers need no database)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    supported: float = Field(ge=0.0, le=1.0)
    silent: float = Field(ge=0.0, le=1.0)
    threshold: float = Field(ge=0.0, le=1.0)
    # the judge's feature weights when the calibration refitted them; None: the rules' own
    weights: dict[str, float] | None = None


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
    batch_wait: float = Field(default=0.0, ge=0.0, le=MAX_BATCH_WAIT)
    llm_reason: bool = False
    concurrency: int = Field(default=8, ge=1, le=256)
    timeout: float = Field(default=60.0, gt=0, le=MAX_TIMEOUT)
    max_calls: int | None = Field(default=None, ge=0)
    max_tokens: int | None = Field(default=None, ge=0)
    # Requests and tokens per minute, over any 60 s window (flows/judges/endpoint/rate_window.py).
    rpm: int | None = Field(default=None, ge=1)
    tpm: int | None = Field(default=None, ge=1)
    # max_tokens of every request; None: sized from the question and its items (live/tasks.py).
    max_output_tokens: int | None = Field(default=None, ge=16)
    # A judge answer's body larger than this is a reply error, never read whole.
    max_reply_bytes: int = Field(
        default=DEFAULT_MAX_REPLY_BYTES, ge=MAX_REPLY_BYTES_RANGE[0], le=MAX_REPLY_BYTES_RANGE[1]
    )
    # Failures of one kind in a row (refused, DNS, TLS, timeout, 5xx, a 200 that is no chat
    # completion, a Retry-After past what the run can wait, a call given up after a 429 at its
    # every retry) after which no further call is made and the run ends (exit 6).
    breaker_failures: int = Field(default=DEFAULT_BREAKER_FAILURES, ge=1)
    # A calibration stored by `faith calibrate` (grounded judge only), and its cut-offs once
    # the run has read them (flows/run/calibration.py).
    calibration: str | None = Field(default=None, min_length=1)
    cutoffs: CutoffSettings | None = None
    # `user:password` of a `--base-url` such as http://user:password@proxy:4000/v1.
    base_url_userinfo: SecretStr | None = Field(default=None, repr=False)

    @field_validator("timeout", mode="before")
    @classmethod
    def _stored_timeout_capped(cls, value: Any) -> Any:
        """A timeout past MAX_TIMEOUT runs at MAX_TIMEOUT, with one warning. The cap came
        later than deployments (faith serve, prefect.yaml) whose stored parameters hold a
        longer one, and each of their runs failed parameter validation; the CLI still
        refuses such a --timeout (option_types.request_seconds)."""
        try:
            seconds = float(value)
        except (TypeError, ValueError):
            return value  # pydantic's own message
        if seconds > MAX_TIMEOUT:  # inf too; nan is refused by the bound
            log.warning(
                "judge timeout %s s is past the most a request may take, %s s (a day): "
                "this run uses %s s; set timeout to %s or less in the deployment's parameters",
                f"{seconds:,.0f}",
                f"{MAX_TIMEOUT:,.0f}",
                f"{MAX_TIMEOUT:,.0f}",
                f"{MAX_TIMEOUT:.0f}",
            )
            return MAX_TIMEOUT
        return value

    @field_validator("max_reply_bytes", mode="before")
    @classmethod
    def _stored_reply_cap_capped(cls, value: Any) -> Any:
        """A cap past the most (1024M) runs at the most, with one warning, as a timeout does:
        the bound came later than deployments whose stored parameters may hold more, and each
        of their runs would fail parameter validation; the CLI refuses it (byte_count)."""
        most = MAX_REPLY_BYTES_RANGE[1]
        if isinstance(value, int) and not isinstance(value, bool) and value > most:
            log.warning(
                "max_reply_bytes %s is past the most a judge answer may be read to, %s (1024M): "
                "this run uses %s; set max_reply_bytes to %s or less in the deployment's "
                "parameters",
                f"{value:,}",
                f"{most:,}",
                f"{most:,}",
                most,
            )
            return most
        return value

    @model_validator(mode="after")
    def _calibrates_grounded(self) -> JudgeSettings:
        """A calibration holds the grounded judge's cut-offs: no other judge takes them."""
        if (self.calibration or self.cutoffs) and self.kind != "grounded":
            raise ValueError(
                f"--calibration calibrates the grounded judge, not --judge {self.kind}"
            )
        return self

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

    @model_validator(mode="after")
    def _callable_base_url(self) -> JudgeSettings:
        """Refuse at start a --base-url the HTTP client cannot call (a port that is no number,
        a scheme other than http or https, no host): it crashed the run with exit 1 once the
        judge was built, or went on as an unreachable endpoint (exit 6). Its credentials are
        already split off (`_split_userinfo`) and its query is cut: the message never shows
        them."""
        if self.base_url is None:
            return self
        problem = base_url_problem(self.base_url)
        if problem is not None:
            shown = f" {url_without_query(self.base_url)!r}" if "://" in self.base_url else ""
            raise ValueError(
                f"--base-url{shown} cannot be called: {problem}; give it as "
                "http://HOST:PORT/v1 or https://HOST/v1"
            )
        return self

    @model_validator(mode="after")
    def _tpm_holds_one_call(self) -> JudgeSettings:
        """Refuse at start a --tpm that cannot hold the run's largest request: a call counts
        in the window at its prompt's bytes plus its max_tokens until answered
        (rate_window.py), so one whose reply alone may take more than --tpm would be refused
        call by call."""
        if self.kind != "openai" or self.tpm is None:
            return self
        reply = self.max_output_tokens or BUDGET_CEILING
        if self.tpm <= reply:
            given = "--max-output-tokens" if self.max_output_tokens else "the default's most"
            raise ConfigError(
                f"--tpm {self.tpm:,} cannot hold one judge request: its reply may take "
                f"{reply:,} tokens ({given}) and its prompt more; raise --tpm well above "
                f"{reply:,} or lower --max-output-tokens"
            )
        return self

    def call_limits(self) -> CallLimits:
        """The limits on the endpoint that these settings set, as the endpoint takes them."""
        return CallLimits(
            concurrency=self.concurrency,
            timeout=self.timeout,
            max_calls=self.max_calls,
            max_tokens=self.max_tokens,
            rpm=self.rpm,
            tpm=self.tpm,
            max_reply_bytes=self.max_reply_bytes,
            breaker_failures=self.breaker_failures,
        )

    def endpoint_url(self) -> str | None:
        """The URL to call, credentials included: for the HTTP client only."""
        if self.base_url is None or self.base_url_userinfo is None:
            return self.base_url
        scheme, sep, rest = self.base_url.partition("://")
        return f"{scheme}{sep}{self.base_url_userinfo.get_secret_value()}@{rest}"
