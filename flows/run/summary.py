"""A run's row of `runs`, said for people: markdown, a table, one terminal line."""

from __future__ import annotations

import html
import json
import re
from typing import Any

from flows.printable import printable

COUNTS = (
    "rows_in",
    "rows_scored",
    "rows_newly_scored",
    "rows_already_scored",
    "rows_invalid",
    "rows_invalid_again",
    "rows_pending",
    "rows_quarantined",
    "rows_replaced",
    "rows_passed",
    "judge_calls",
    "judge_cached",
    "judge_failed",
    "prompt_tokens",
    "completion_tokens",
)
TIMINGS = ("seconds_read", "seconds_validate", "seconds_score", "seconds_write", "seconds_total")


def percent(part: int, whole: int) -> str:
    """`part` of `whole` rounded once to 0.1 %, half up, in integers: the figure `faith runs`
    lists (recent_runs.sql, the same arithmetic). Python's `:.1%` rounded 37 of 80 (46.25) to
    even, 46.2%, and round() of the double 17 / 80 (0.21249999...) down, 0.212."""
    if not whole:
        return "n/a"
    tenths = (2000 * part + whole) // (2 * whole)
    return f"{tenths // 10}.{tenths % 10}%"


def _rates(run: dict[str, Any]) -> tuple[str, str]:
    """The pass rate of the cases the run scored and the invalid share of those it judged."""
    judged = run["rows_newly_scored"] + run["rows_invalid"]
    return (
        percent(run["rows_passed"], run["rows_newly_scored"]),
        percent(run["rows_invalid"], judged),
    )


def run_table(run: dict[str, Any]) -> list[dict[str, Any]]:
    """Counts and timings as rows of (measure, value)."""
    rows = [{"measure": key, "value": run[key]} for key in COUNTS]
    rows += [{"measure": key, "value": round(run[key] or 0.0, 3)} for key in TIMINGS]
    return rows


def run_markdown(run: dict[str, Any]) -> str:
    """A short markdown report of one run."""
    rate, invalid = _rates(run)
    config = json.dumps(json.loads(run["config"]), indent=2, sort_keys=True)
    lines = [
        f"# faithpipe {run['flow']} run `{run['run_id']}`: {run['status']}",
        "",
        f"* source: {markdown_code(run['source'])}",
        f"* metric config: `{run['config_id']}`",
        f"* rows in {run['rows_in']:,} = scored {run['rows_scored']:,} "
        f"+ invalid {run['rows_invalid']:,} + pending {run['rows_pending']:,} "
        f"+ quarantined {run['rows_quarantined']:,}",
        f"* newly scored {run['rows_newly_scored']:,}, already scored "
        f"{run['rows_already_scored']:,}, replaced {run['rows_replaced']:,}",
        f"* pass rate of newly scored: {rate}; invalid share of judged: {invalid}",
        f"* judge calls {run['judge_calls']:,} (cached {run['judge_cached']:,}, "
        f"failed {run['judge_failed']:,}); tokens {run['prompt_tokens']:,} in, "
        f"{run['completion_tokens']:,} out",
        f"* seconds: {run['seconds_total'] or 0:.2f} total",
    ]
    if run.get("warning"):
        lines.append(f"* **warning**: {markdown_text(run['warning'])}")
    lines += ["", "```json", config, "```"]
    return "\n".join(lines)


# What Markdown reads as markup inline: emphasis, code, links and images, tables, escapes.
_MARKUP = re.compile(r"([\\`*_\[\]|~!])")


def markdown_text(text: object) -> str:
    """Text that may hold logged values (a segment value in a pass-rate warning) as Markdown
    that shows it as written: on one line, its HTML and Markdown escaped, its control
    characters shown; a value `<img onerror=…>` or `[x](javascript:…)` is no markup."""
    flat = printable(" ".join(str(text).split()))
    return _MARKUP.sub(r"\\\1", html.escape(flat, quote=False))


def markdown_code(text: object) -> str:
    """Text as one Markdown code span, whatever backticks it holds (a path with a backtick
    ended the span, and what followed was markup); control characters shown."""
    shown = printable(str(text))
    ticks = max((len(run) for run in re.findall("`+", shown)), default=0)
    fence = "`" * (ticks + 1)
    return f"{fence} {shown} {fence}" if ticks else f"{fence}{shown}{fence}"


def run_line(run: dict[str, Any]) -> str:
    """One terminal line: what the run did."""
    rate, invalid = _rates(run)
    return (
        f"run {run['run_id']} {run['status']}: {run['rows_in']:,} rows in = "
        f"{run['rows_scored']:,} scored ({run['rows_newly_scored']:,} new) + "
        f"{run['rows_invalid']:,} invalid + {run['rows_pending']:,} pending + "
        f"{run['rows_quarantined']:,} quarantined; pass rate {rate}, invalid {invalid}; "
        f"{run['seconds_total'] or 0:.1f} s" + _quarantined_by_check(run)
    )


# The checks a run line names; past them it says how many more there are.
RUN_LINE_CHECKS = 8


def _quarantined_by_check(run: dict[str, Any]) -> str:
    """`; quarantined by check: a 950, b 50`, when the run's row carries its checks: every one
    up to RUN_LINE_CHECKS, then how many it leaves out (it named the top three as if they were
    all, and a fourth check's rows were on no line of the run)."""
    checks = run.get("quarantine_checks")
    if not checks:
        return ""
    more = len(checks) - RUN_LINE_CHECKS
    checks_word = "check" if more == 1 else "checks"
    left_out = f", and {more} more {checks_word} (see the quarantine table)" if more > 0 else ""
    return "; quarantined by check: " + checks_line(checks[:RUN_LINE_CHECKS]) + left_out


def checks_line(checks: list[tuple[str, int]]) -> str:
    """`check 950, other 50`: the top failing checks with their rows."""
    return ", ".join(f"{check} {rows:,}" for check, rows in checks)
