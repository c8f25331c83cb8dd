"""OpenAIJudge from a test's flat options: each goes where the judge takes it (JudgeSettings,
CallPolicy, Packing, or the judge's own keywords), so a test names only what it changes."""

from __future__ import annotations

from dataclasses import fields
from functools import partial
from typing import Any

import pytest

from flows.judges.endpoint.call_policy import CallPolicy
from flows.judges.live.judge import OpenAIJudge
from flows.judges.live.tasks import Packing
from flows.judges.settings import JudgeSettings

# Test-sized waits between attempts: 10 ms doubling to 50 ms (the product's 0.5 s to 20 s; the
# check's 0.2 s to 2 s). As many attempts as the product makes: only the waits are shorter.
SHORT_BACKOFF: dict[str, Any] = {"backoff_base": 0.01, "backoff_max": 0.05}
POLICY = {field.name for field in fields(CallPolicy)}
PACKING = {"pack_size": "size", "pack_chars": "chars"}
OWN = {"cache", "memory", "owns_cache", "track_items", "wrap_limiter"}


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


def shorten_backoff(monkeypatch: pytest.MonkeyPatch) -> None:
    """Judges the product's own paths build (`run_score`, `main([...])`, `faith judge-check`
    in this process) wait SHORT_BACKOFF between attempts; retries, deadlines and every other
    default stay the product's. No option sets the backoff (it is the house's CallPolicy)."""
    from flows.judges import check
    from flows.judges.live import judge

    monkeypatch.setattr(judge, "CallPolicy", partial(CallPolicy, **SHORT_BACKOFF))
    monkeypatch.setattr(check, "CHECK_POLICY", CallPolicy(max_retries=1, **SHORT_BACKOFF))
