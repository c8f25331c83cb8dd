"""OpenAIJudge and BatchJudge from a test's flat options: each goes where the judge takes it
(JudgeSettings, CallPolicy, Packing, BatchLimits, or the judge's own keywords), so a test
names only what it changes."""

from __future__ import annotations

from dataclasses import fields, replace
from functools import partial
from typing import TYPE_CHECKING, Any

import pytest

from flows.judges.batch.judge import BatchJudge
from flows.judges.batch.requests import BatchLimits
from flows.judges.endpoint.call_policy import CallPolicy
from flows.judges.live.judge import OpenAIJudge
from flows.judges.live.tasks import Packing
from flows.judges.settings import JudgeSettings
from flows.store.batch_jobs import BatchJobs
from flows.store.reply_cache import ReplyCache

if TYPE_CHECKING:
    import duckdb

# Test-sized waits between attempts: 10 ms doubling to 50 ms (the product's 0.5 s to 20 s; the
# check's 0.2 s to 2 s). As many attempts as the product makes: only the waits are shorter.
SHORT_BACKOFF: dict[str, Any] = {"backoff_base": 0.01, "backoff_max": 0.05}
POLICY = {field.name for field in fields(CallPolicy)}
PACKING = {"pack_size": "size", "pack_chars": "chars"}
OWN = {"cache", "memory", "owns_cache", "track_items", "wrap_limiter"}
LIMITS = {field.name for field in fields(BatchLimits)}
BATCH_OWN = {"memory", "track_items"}


def openai_judge(model: str, **options: Any) -> OpenAIJudge:
    """The judge of `model` with `options` (e.g. base_url, mode, max_retries, pack_size,
    cache); what a test leaves out takes the product's default."""
    policy = {name: options.pop(name) for name in list(options) if name in POLICY}
    packing = {PACKING[name]: options.pop(name) for name in list(options) if name in PACKING}
    own = {name: options.pop(name) for name in list(options) if name in OWN}
    return OpenAIJudge(
        JudgeSettings(kind="openai", model=model, **options),
        policy=CallPolicy(**policy),
        packing=Packing(**packing),
        **own,
    )


def batch_judge(model: str, con: duckdb.DuckDBPyConnection, **options: Any) -> BatchJudge:
    """The batch judge of `model` on the run's database `con` (its batch records and call
    cache, closed with the judge), with `options` (e.g. base_url, batch_wait, max_requests)."""
    limits = {name: options.pop(name) for name in list(options) if name in LIMITS}
    own = {name: options.pop(name) for name in list(options) if name in BATCH_OWN}
    settings = JudgeSettings(kind="openai", model=model, mode="batch", **options)
    jobs, cache = BatchJobs(con), ReplyCache(con)
    try:
        return BatchJudge(
            settings, jobs=jobs, cache=cache, limits=BatchLimits(**limits), owns_cache=True, **own
        )
    except BaseException:
        cache.close()
        jobs.close()
        raise


def shorten_backoff(monkeypatch: pytest.MonkeyPatch) -> None:
    """Judges the product's own paths build (`run_score`, `main([...])`, `faith judge-check`
    in this process) wait SHORT_BACKOFF between attempts; retries, deadlines and every other
    default stay the product's. No option sets the backoff (it is the house's CallPolicy)."""
    from flows.judges import check
    from flows.judges.live import judge

    monkeypatch.setattr(judge, "CallPolicy", partial(CallPolicy, **SHORT_BACKOFF))
    monkeypatch.setattr(check, "CHECK_POLICY", replace(check.CHECK_POLICY, **SHORT_BACKOFF))
