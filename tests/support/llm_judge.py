"""OpenAIJudge from a test's flat options: each goes where the judge takes it (JudgeSettings,
CallPolicy, Packing, or the judge's own keywords), so a test names only what it changes."""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from flows.judges.endpoint.call_policy import CallPolicy
from flows.judges.live.judge import OpenAIJudge
from flows.judges.live.tasks import Packing
from flows.judges.settings import JudgeSettings

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
