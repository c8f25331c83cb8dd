"""What a run's judging cost, said for people: the cost line, and a dry run's estimate."""

from __future__ import annotations

import json
from typing import Any


def cases_judged(run: dict[str, Any]) -> int:
    """Cases the run tried to score (newly scored, invalid or pending): what it paid for."""
    return run["rows_newly_scored"] + run["rows_invalid"] + run["rows_pending"]


def cost_per_1000(run: dict[str, Any]) -> float | None:
    """USD per 1,000 cases judged; None when no price is known or no case was judged."""
    cost, judged = run.get("cost_usd"), cases_judged(run)
    return cost * 1000 / judged if cost is not None and judged else None


def cost_text(run: dict[str, Any]) -> str:
    """`cost $0.0123 ($0.0456 per 1,000 cases) at $0.15/$0.60 per 1M tokens`, or why not."""
    cost = run.get("cost_usd")
    if cost is None:
        model = json.loads(run["config"]).get("judge", {}).get("model")
        return (
            f"cost unknown: no price for model {model!r} (give --price-input and "
            "--price-output, USD per million tokens)"
        )
    per_1000 = cost_per_1000(run)
    per = "" if per_1000 is None else f" (${per_1000:.4f} per 1,000 cases)"
    return (
        f"cost ${cost:.4f}{per} at ${run['price_input_usd']:g}/${run['price_output_usd']:g} "
        "per 1M tokens in/out"
    )


def dry_run_line(run: dict[str, Any]) -> str:
    """A dry run's estimate, in one line."""
    return (
        f"dry run {run['run_id']}: {run['rows_in']:,} rows in; {cases_judged(run):,} cases to "
        f"judge ({run['rows_already_scored']:,} already scored, {run['rows_quarantined']:,} "
        f"quarantined); {run['judge_calls']:,} judge calls ({run['judge_cached']:,} items "
        f"from the cache), {run['prompt_tokens']:,} prompt + {run['completion_tokens']:,} "
        f"completion tokens (estimated); {cost_text(run)}"
        + _cut_cases(run)
        + "; nothing judged or written"
    )


def _cut_cases(run: dict[str, Any]) -> str:
    """The cases a dry run's stand-in replies left invalid: only a reply longer than
    --max-output-tokens fails there (flows/judges/live/dry_run.py)."""
    invalid = run.get("rows_invalid") or 0
    if not invalid:
        return ""
    return f"; {invalid:,} cases would end invalid (replies cut at --max-output-tokens)"


def spend_line(run: dict[str, Any]) -> str:
    """The judge's spend of a finished run, in one line (calls, how they were asked, tokens,
    whether the server counted them, cost)."""
    asked = run.get("judge_response_format")
    estimated = run.get("judge_tokens_estimated") or 0
    return (
        f"judge: {run['judge_calls']:,} calls"
        + (f" (response_format {asked})" if asked else "")
        + f", {run['prompt_tokens']:,} prompt + {run['completion_tokens']:,} completion tokens"
        + (f" ({estimated:,} calls' estimated: no usage sent)" if estimated else "")
        + f"; {cost_text(run)}"
    )
