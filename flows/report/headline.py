"""The report's first screen: the latest period's pass rate against the trailing window, with
its interval and an alert badge, and the latest `faith compare` result when one was kept."""

from __future__ import annotations

import html
import json
from typing import TYPE_CHECKING, Any

from flows.report.labels import config_names, name_of
from flows.report.markup import isolated, logged, marked_claim
from flows.report.queries import ReportOptions
from flows.store.db import sql

if TYPE_CHECKING:
    import duckdb

HEADLINE_WINDOW = 14  # periods pooled as the trailing window (the nightly --alert-window)
HEADLINE_MIN_CASES = 30  # as the nightly --alert-min-cases


def headline_html(
    con: duckdb.DuckDBPyConnection, options: ReportOptions, names: dict[str, str]
) -> str:
    """One line a config: 'Latest day 2026-10-11: 93.1% [92.5%, 93.6%], −1.8 points against the
    previous 14 days (95.0%)', with ALERT when the nightly rule would fire."""
    params = {
        "grain": options.grain,
        **options.settings(),
        "window": HEADLINE_WINDOW,
        "min_cases": HEADLINE_MIN_CASES,
    }
    rows = con.sql(sql("report_headline"), params=params).pl().to_dicts()
    if not rows:
        return "<p class=headline>No case logged in this window.</p>"
    lines = []
    for row in rows:
        if not row["scored"]:
            # the latest period logged cases and scored none (a broken judge): said, not skipped
            badge = '<span class="badge alert">NOTHING SCORED</span>'
        elif row["alert"]:
            badge = '<span class="badge alert">ALERT: below the trailing range</span>'
        else:
            badge = '<span class="badge ok">within range</span>'
        lines.append(
            f"<p class=headline>{badge} {html.escape(_headline_text(row, options.grain))} "
            f"<span class=meta>config {html.escape(name_of(names, row['config_id']))}</span></p>"
        )
    return "\n".join(lines)


def _headline_text(row: dict[str, Any], grain: str) -> str:
    """'Latest day 2026-10-11: 93.1% pass [92.5%, 93.6%] of 1,200 cases, -1.8 points against
    the previous 14 days' 95.0% of 16,800' ('of 1,200 cases (40 invalid: not in the rate), ...'
    when some were not scored); a period with no scored case: 'Latest day
    2026-10-11: pass rate n/a, 0 scored of 40: 40 invalid; the previous 14 days' 95.0% of ...'."""
    window = (
        f"the previous {HEADLINE_WINDOW} {grain}s' {row['window_rate']:.1%} of "
        f"{row['window_scored']:,}"
        if row["window_rate"] is not None
        else None
    )
    unscored = ", ".join(
        f"{row[status]:,} {status}" for status in ("invalid", "pending") if row[status]
    )
    if not row["scored"]:
        text = f"Latest {grain} {row['period']}: pass rate n/a, 0 scored of {row['cases']:,}"
        text += f": {unscored}" if unscored else ""
        return text + (f"; {window}" if window else "")
    text = (
        f"Latest {grain} {row['period']}: {row['pass_rate']:.1%} pass "
        f"[{row['pass_rate_low']:.1%}, {row['pass_rate_high']:.1%}] of {row['scored']:,} cases"
    )
    # a judge that broke on most of the night: the cases the rate leaves out, said beside it
    text += f" ({unscored}: not in the rate)" if unscored else ""
    if window:
        text += f", {row['change'] * 100:+.1f} points against {window}"
    return text


def comparison_html(con: duckdb.DuckDBPyConnection) -> str:
    """The latest `faith compare` verdict with its figures; nothing when none was kept."""
    if not con.execute(sql("report_has_comparisons")).fetchall()[0][0]:
        return ""
    rows = con.sql(sql("comparison_latest")).pl().to_dicts()
    if not rows:
        return ""
    row = rows[0]
    sides = json.loads(row["result"])
    configs = [sides["a"]["config_id"], sides["b"]["config_id"]]
    names = config_names(con, configs)
    kind = "paired" if row["paired"] else "unpaired (different cases on each side)"
    rate_a = "-" if row["rate_a"] is None else f"{row['rate_a']:.1%}"
    rate_b = "-" if row["rate_b"] is None else f"{row['rate_b']:.1%}"
    # the labels are logged text (segment values); the rest is the report's own
    detail = (
        f"A {isolated(row['a_label'])}: {rate_a} of {row['n_a']:,}; B {isolated(row['b_label'])}: "
        f"{rate_b} of {row['n_b']:,}; {kind}; compared {row['compared_at']:%Y-%m-%d %H:%M} UTC"
    )
    # the verdict opens with side B's label ('2.4.1 passes 1.8 points less, ...')
    verdict, label = row["verdict"], row["b_label"]
    verdict_shown = (
        isolated(label) + html.escape(verdict[len(label) :])
        if verdict.startswith(label)
        else html.escape(verdict)
    )
    configs_text = (
        f"config {name_of(names, configs[0])}"
        if configs[0] == configs[1]
        else f"A config {name_of(names, configs[0])}; B config {name_of(names, configs[1])}"
    ) + _read_at(sides.get("sides") or {})
    return (
        "<h2>Latest comparison</h2>"
        f"<p class=headline>{verdict_shown}</p>"
        f"<p class=meta>{detail}</p>"
        f"<p class=meta>{html.escape(configs_text)}</p>"
    )


def _read_at(sides: dict[str, Any]) -> str:
    """The settings a comparison recomputed success at (`--threshold`, `--penalize-ambiguous`):
    its rates are not the configs' own, which the label beside them names."""
    settings = []
    if sides.get("threshold") is not None:
        settings.append(f"threshold {sides['threshold']:g}")
    if sides.get("penalize_ambiguous") is not None:
        settings.append(f"penalize ambiguous {'on' if sides['penalize_ambiguous'] else 'off'}")
    return f"; read at {', '.join(settings)}" if settings else ""


FAILING_CASES = 10


def failing_cases_html(
    con: duckdb.DuckDBPyConnection, options: ReportOptions, names: dict[str, str]
) -> str:
    """The latest failing cases, each claim not supported with what the context lacks
    (context_lacks when the database has the column, else the judge's evidence sentence)."""
    has_lacks = con.execute(sql("report_has_context_lacks")).fetchall()[0][0]
    lacks = "nullif(array_to_string(v.context_lacks, ', '), '')" if has_lacks else "NULL"
    # a database made before migration 005 and only read since has no evidence either
    has_evidence = con.execute(sql("report_has_evidence")).fetchall()[0][0]
    evidence, support = ("v.evidence", "v.support") if has_evidence else ("NULL", "NULL")
    # `lacks`, `evidence` and `support` are fixed expressions chosen here, never user text
    query = (
        sql("report_failing_cases")
        .replace("{lacks}", lacks)
        .replace("{evidence}", evidence)
        .replace("{support}", support)
    )
    params = {**options.settings(), "limit": FAILING_CASES}
    rows = con.sql(query, params=params).pl().to_dicts()
    if not rows:
        return ""
    items = []
    for row in rows:
        claims = "".join(
            f"<li><b>{html.escape(c['verdict'])}</b> "
            + f"<bdi>{marked_claim(c['claim'], (c['lacks'] or '').split(', '))}</bdi>"
            + _lacking(c)
            + "</li>"
            for c in row["claims"]
        )
        items.append(
            f"<li>{isolated(row['case_id'])} ({row['day']}, score {row['score']:.2f}, config "
            f"{html.escape(name_of(names, row['config_id']))}): "
            f"{isolated(row['actual_output'] or '')}"
            f"<ul>{claims}</ul></li>"
        )
    return f"<h2>Latest failing cases</h2><ul class=cases>{''.join(items)}</ul>"


def _lacking(claim: dict[str, str | None]) -> str:
    """What the context lacks for a claim, else the evidence the judge cited, else nothing."""
    if claim["lacks"]:
        return f" — <i>the context lacks: {logged(claim['lacks'])}</i>"
    if claim["evidence"]:
        return f" — <i>evidence: {logged(claim['evidence'])}</i>"
    return ""
