"""From judge settings to a judge object: the one place a judge kind is chosen."""

from __future__ import annotations

from typing import TYPE_CHECKING

from faith_udfs import Cutoffs, Judge, LexicalJudge
from faith_udfs.errors import ConfigError
from faith_udfs.grounded import grounded_judge
from flows.judges.endpoint.api_key import missing_api_key
from flows.judges.settings import JudgeSettings

if TYPE_CHECKING:
    import duckdb

USAGE_KEYS = ("calls", "cached", "failed", "prompt_tokens", "completion_tokens")


def build_judge(
    settings: JudgeSettings,
    con: duckdb.DuckDBPyConnection | None = None,
    *,
    dry_run: bool = False,
    cached: bool = True,
) -> Judge:
    """The judge the settings ask for; `con` backs the LLM judge's call cache. `dry_run`:
    an LLM judge that only counts what it would ask (flows/judges/live/dry_run.py);
    `cached=False`: a live LLM judge that asks every question, reading no cached reply."""
    if settings.calibration is not None and settings.cutoffs is None:
        # flows/run/calibration.py fills the cut-offs in from the database before any judge
        raise ConfigError(f"calibration {settings.calibration!r} was not read before judging")
    if settings.kind == "grounded":
        # --model: its rules version (grounded-v1); a calibration's cut-offs, if any
        cutoffs = Cutoffs(**settings.cutoffs.model_dump()) if settings.cutoffs else None
        return grounded_judge(settings.model, cutoffs)
    if settings.kind == "lexical":
        return LexicalJudge()
    if settings.kind == "openai" and dry_run:
        from flows.judges.live.dry_run import build_estimating_judge

        return build_estimating_judge(settings, con)
    if settings.kind == "openai" and settings.mode == "batch":
        from flows.judges.batch.judge import build_batch_judge

        return build_batch_judge(settings, con)
    if settings.kind == "openai":
        from flows.judges.live.judge import build_openai_judge

        return build_openai_judge(settings, con, cached=cached)
    raise ConfigError(f"unknown judge kind {settings.kind!r}; use grounded, lexical or openai")


def refuse_unbuildable(settings: JudgeSettings, *, dry_run: bool = False) -> None:
    """Refuse now a judge build_judge would refuse (an unknown kind, `--judge openai` without
    `--model` or, unless a dry run, without its API key, a grounded `--model` no rules
    version has): a run checks it before it opens or creates the database, which a bad
    option must leave untouched. No client, no import of an LLM library."""
    if settings.kind == "grounded":
        grounded_judge(settings.model)
    elif settings.kind == "openai" and not (settings.model or "").strip():
        raise ConfigError("--judge openai needs --model NAME (e.g. --model gpt-4o-mini)")
    elif (
        settings.kind == "openai"
        and not dry_run
        and (missing := missing_api_key(settings.api_key_env))
    ):
        raise ConfigError(missing)
    elif settings.kind not in ("lexical", "openai"):
        raise ConfigError(f"unknown judge kind {settings.kind!r}; use grounded, lexical or openai")


def judge_usage(judge: Judge) -> dict[str, int]:
    """Calls and tokens the judge spent so far (zeros for judges that make no calls)."""
    usage = getattr(judge, "usage", None)
    spent = usage() if callable(usage) else {}
    return {key: int(spent.get(key, 0)) for key in USAGE_KEYS}


def judge_protocol(judge: Judge) -> tuple[str | None, int]:
    """The LLM judge's structured-output mode and its calls with estimated token counts
    (None and 0 for judges that make no calls), for the run's row."""
    usage = getattr(judge, "usage", None)
    estimated = int(usage().get("estimated", 0)) if callable(usage) else 0
    return getattr(judge, "response_format", None), estimated


def close_judge(judge: Judge) -> None:
    """Flush what the judge buffered (its call cache) before the run ends."""
    close = getattr(judge, "close", None)
    if callable(close):
        close()
