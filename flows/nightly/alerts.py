"""Alerts of `faith nightly`: a night's pass rate below its trailing window's, and every
warning of the night POSTed to a webhook (Slack-compatible `text`). docs/report.md"""

from __future__ import annotations

import base64
import http.client
import json
import logging
import os
import re
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote, urlsplit, urlunsplit

from flows.judges.endpoint.request_details import retry_after_seconds
from flows.printable import printable
from flows.store.alert_messages import mark_sent, record_alerts, unsent_messages
from flows.store.db import reader_memory, sql

if TYPE_CHECKING:
    import duckdb

log = logging.getLogger("faithpipe")

DEFAULT_ALERT_WINDOW = 14  # days
DEFAULT_ALERT_MIN_CASES = 30  # scored cases a night and its window need before the rule fires
DEFAULT_ALERT_SEGMENT = "app_version"  # sliced by when the logs have it
# The longest trailing window: days back from a night must stay a date DuckDB can hold.
MAX_ALERT_WINDOW = 36_500
# What is read of a webhook's reply: nothing of it is used, and a reply without end (a
# server sending gigabytes) filled 8 GB, each timed-out attempt's thread still reading.
WEBHOOK_REPLY_BYTES = 64 * 1024
SEGMENTS_NAMED = 10  # segment columns a warning of a missing --alert-segment lists


@dataclass(frozen=True)
class AlertSettings:
    """What the night is checked against, and where its warnings are sent (None: nowhere)."""

    window: int = DEFAULT_ALERT_WINDOW
    min_cases: int = DEFAULT_ALERT_MIN_CASES
    segment: str | None = DEFAULT_ALERT_SEGMENT
    webhook: str | None = None  # a secret: never stored, logged as scheme://host only
    webhook_from: str = "--alert-webhook"  # where it was given, as an error names it
    webhook_timeout: float = 5.0  # seconds an attempt may take, all of it
    webhook_attempts: int = 3
    webhook_budget: float = 30.0  # seconds all the night's messages may take

    def __post_init__(self) -> None:
        # '' or blank is none, as `--alert-segment ''`: prefect.yaml's `alert_segment: ""` (or
        # one cleared in the UI's Run) was read as a column named '', warned of each night.
        if self.segment is not None and not self.segment.strip():
            object.__setattr__(self, "segment", None)


def pass_rate_rows(
    con: duckdb.DuckDBPyConnection, run_id: str, alerts: AlertSettings
) -> list[dict[str, Any]]:
    """Every slice of the night (config, segment value) against its trailing window; the
    night holds the cases of earlier nightly runs that stopped before their check too."""
    night_runs = [
        found for (found,) in con.execute(sql("night_runs"), {"run_id": run_id}).fetchall()
    ]
    params = {
        "night_runs": night_runs,
        "window": alerts.window,
        "min_cases": alerts.min_cases,
        "segment": alerts.segment,
    }
    return con.sql(sql("pass_rate_alerts"), params=params).pl().to_dicts()


def warn_if_segment_missing(
    con: duckdb.DuckDBPyConnection, run_id: str, segment: str | None
) -> None:
    """Log a warning when `--alert-segment` names a column none of the night's cases holds:
    a misspelt name sliced nothing, without a word. The default, app_version, is sliced by
    when the logs have it and is not warned of."""
    if segment is None or segment == DEFAULT_ALERT_SEGMENT:
        return
    params = {"run_id": run_id, "segment": segment, "limit": SEGMENTS_NAMED}
    row = con.execute(sql("night_segment_keys"), params).fetchone()
    assert row is not None  # an aggregate: always one row
    found, held, night_cases = row
    if found or not night_cases:
        return
    columns = ", ".join(printable(name) for name in held) if held else "none"
    text = (
        f"--alert-segment {printable(segment)}: none of the night's {night_cases:,} cases has "
        f"that segment column (theirs: {columns}); only each config's pass rate was checked"
    )
    log.warning("run %s: %s", run_id, text)


def drop_message(row: dict[str, Any], run_id: str) -> dict[str, Any]:
    """One webhook message (and runs.warning text) for a slice whose rate dropped."""
    where = f"config {row['config_id']}"
    if row["segment_value"] is not None:
        where += f", segment {row['segment_value']}"
    text = (
        f"pass-rate drop ({where}): {row['night_rate']:.1%} of {row['night_cases']:,} cases on "
        f"{row['night']} (95% CI {row['night_low']:.1%}-{row['night_high']:.1%}) is below the "
        f"trailing window's {row['window_rate']:.1%} of {row['window_cases']:,} cases"
    )
    figures = {k: (str(v) if k == "night" else v) for k, v in row.items() if k != "fired"}
    return {"kind": "pass_rate_drop", "run_id": run_id, "text": text, **figures}


def warning_message(kind: str, run_id: str, text: str, **figures: Any) -> dict[str, Any]:
    """A webhook message for another warning of the night (judge drift, invalid share)."""
    label = f"{kind.replace('_', ' ')}: "
    return {"kind": kind, "run_id": run_id, "text": label + text.removeprefix(label), **figures}


def safe_url(url: str) -> str:
    """The URL as it may be logged: scheme://host[:port], no path, query or credentials."""
    try:
        parts = urlsplit(url)
        host, port = parts.hostname or "?", parts.port
    except ValueError:  # a port out of range, a bracket left open: checked before the night
        return "(a malformed URL)"
    host = f"[{host}]" if ":" in host else host  # IPv6, bracketed as in the URL
    return f"{parts.scheme}://{host}" + (f":{port}" if port else "")


def check_webhook(url: str, named: str = "--alert-webhook") -> None:
    """Refuse a webhook URL no POST could reach (ConfigError, exit 2) before the night runs:
    a port out of range or an open bracket raised only when an alert fired, after the night
    was committed (exit 1, the alert lost). Nothing of the URL is said but its kind; `named`:
    where it was given (FAITH_ALERT_WEBHOOK, when the option was not)."""
    from faith_udfs.errors import ConfigError

    try:
        parts = urlsplit(url)
        host, port = parts.hostname, parts.port
    except ValueError as exc:
        raise ConfigError(f"{named} is not a URL a POST can reach ({_fault(exc)})") from None
    if parts.scheme not in {"http", "https"} or not host:
        raise ConfigError(f"{named} must be an http(s) URL with a host")
    if port == 0:
        raise ConfigError(f"{named} is not a URL a POST can reach (port 0)")
    try:  # as the look-up encodes it: each attempt of every night failed (UnicodeError)
        host.encode("idna")
    except UnicodeError:
        raise ConfigError(
            f"{named} is not a URL a POST can reach (its host is no host name: a label "
            "empty, two dots in a row or a leading dot, or one past 63 characters)"
        ) from None
    # http.client refuses a URL holding a space or a control character (InvalidURL) at each
    # attempt: the night ran, and every night's messages failed and waited for the next
    if _UNSENDABLE.search(_without_credentials(url)[0].strip()):
        raise ConfigError(
            f"{named} is not a URL a POST can reach (it holds a space or a control "
            "character: percent-encode it, e.g. %20)"
        )


def _fault(exc: ValueError) -> str:
    """What is wrong with a URL urlsplit refused, without its words: Python quotes the port it
    could not read, and a password holding `/`, `?` or `#` unencoded ends the host inside it."""
    if "Port" in str(exc):
        return (
            "its port is not a number from 1 to 65535; a user:password holding '/', '?' or '#' "
            "must be percent-encoded, e.g. %2F"
        )
    return "a bracket left open, or an IPv6 host that is not one"


def check_alerts(alerts: AlertSettings) -> None:
    """Refuse alert settings no night can use (ConfigError, exit 2) before the night runs,
    whichever route they came by (the CLI, a flow's parameters, the environment): a window
    past DuckDB's dates failed the night after its commit, the alert lost."""
    from faith_udfs.errors import ConfigError

    if not 0 <= alerts.window <= MAX_ALERT_WINDOW:
        raise ConfigError(
            f"--alert-window must be 0 to {MAX_ALERT_WINDOW:,} days, got {alerts.window:,}"
        )
    if alerts.min_cases < 1:  # named alone: it was told with --alert-window's range first
        raise ConfigError(f"--alert-min-cases must be 1 or more, got {alerts.min_cases:,}")
    if alerts.webhook:
        check_webhook(alerts.webhook, alerts.webhook_from)


def given_webhook(option: str | None) -> tuple[str | None, str]:
    """(webhook, where it was given): the option's, else FAITH_ALERT_WEBHOOK's, so a bad one
    from the environment is not blamed on an option nobody passed."""
    if option:
        return option, "--alert-webhook"
    return os.environ.get("FAITH_ALERT_WEBHOOK") or None, "FAITH_ALERT_WEBHOOK"


# What http.client refuses in a request's URL and host (its _contains_disallowed_url_pchar_re)
_UNSENDABLE = re.compile(r"[\x00-\x20\x7f]")


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    """A redirect is not followed: urllib would resend to the other host as a GET without the
    body, Authorization (the URL's user:password) included, and count it as delivered."""

    def redirect_request(self, *_: Any, **__: Any) -> None:
        return None


_OPENER = urllib.request.build_opener(_NoRedirects)


def slack_text(text: str) -> str:
    """`text` as Slack shows it literally: `&`, `<` and `>` as entities (Slack's rule), so a
    segment value `<!channel>` pings no one and `<https://...|click>` is no link."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def post_messages(
    alerts: AlertSettings,
    messages: list[dict[str, Any]],
    delivered: Callable[[int], object] | None = None,
) -> int:
    """POST each message as JSON, each attempt within its deadline and all of them within the
    night's budget; returns how many arrived, and tells `delivered` the index of each. A
    failing webhook is logged (scheme://host only) and never raises: the night is kept, and
    never waits on a server that will not answer."""
    if not alerts.webhook or not messages:
        return 0
    if urlsplit(alerts.webhook).scheme not in {"http", "https"}:
        log.warning("alert webhook %s: not an http(s) URL; nothing sent", safe_url(alerts.webhook))
        return 0
    deadline = time.monotonic() + alerts.webhook_budget
    sent = 0
    for index, message in enumerate(messages):
        if time.monotonic() >= deadline:
            log.warning(
                "alert webhook %s: %d of %d messages not sent: the night's %g s for the "
                "webhook are spent (they are in runs.warning; the next night sends them)",
                safe_url(alerts.webhook),
                len(messages) - index,
                len(messages),
                alerts.webhook_budget,
            )
            break
        shown = {**message, "text": slack_text(str(message["text"]))}
        try:
            arrived = _post(alerts, json.dumps(shown, default=str).encode(), deadline)
        except _WaitPastNight as wait:  # the rest would be sent into the same limit
            log.warning(
                "alert webhook %s: asks to wait %g s (Retry-After), past the night's %g s for "
                "the webhook: %d of %d messages not sent (they are in runs.warning; the next "
                "night sends them)",
                safe_url(alerts.webhook),
                wait.seconds,
                alerts.webhook_budget,
                len(messages) - index,
                len(messages),
            )
            break
        if arrived and delivered is not None:
            delivered(index)
        sent += arrived
    return sent


class _WaitPastNight(Exception):
    """The webhook asks to wait longer than the night has left (a 429's Retry-After)."""

    def __init__(self, seconds: float) -> None:
        super().__init__(seconds)
        self.seconds = seconds


def _post(alerts: AlertSettings, body: bytes, deadline: float) -> int:
    assert alerts.webhook is not None
    where = safe_url(alerts.webhook)
    url, headers = _without_credentials(alerts.webhook)
    for attempt in range(1, alerts.webhook_attempts + 1):
        seconds = min(alerts.webhook_timeout, deadline - time.monotonic())
        if seconds <= 0:
            return 0
        request = urllib.request.Request(  # noqa: S310 (http(s) checked)
            url,
            data=body,
            method="POST",
            headers={"Content-Type": "application/json", "User-Agent": "faithpipe", **headers},
        )
        failed = _attempt(request, seconds)
        if failed is None:
            return 1
        reason, asked = failed
        log.warning(
            "alert webhook %s: attempt %d of %d failed (%s)",
            where,
            attempt,
            alerts.webhook_attempts,
            reason,
        )
        if attempt < alerts.webhook_attempts:
            pause = min(0.2 * 2**attempt, 2.0)
            if asked is not None:  # Slack's 429: its own wait, or the next night
                if asked > deadline - time.monotonic():
                    raise _WaitPastNight(asked)
                pause = max(pause, asked)
            time.sleep(max(min(pause, deadline - time.monotonic()), 0.0))
    return 0


def _attempt(request: urllib.request.Request, seconds: float) -> tuple[str, float | None] | None:
    """One POST, given `seconds` in all (urllib's timeout bounds each socket read only: a
    server answering a byte at a time would hold the night for ever); None when it arrived (a
    2xx status, whatever its body does), else why not, without the URL, and the seconds a 429
    or 503 asks to wait (Retry-After). A POST past its time is left to its daemon thread; any
    other error than the network's and the server's is raised here, as a bug."""
    outcome: list[tuple[str, float | None] | BaseException | None] = []

    def send() -> None:
        try:
            with _OPENER.open(request, timeout=seconds) as reply:
                # a 2xx status is the delivery (others raise): a body sent slowly counted as
                # no answer, and the message was sent again, night after night
                outcome.append(None)
                reply.read(WEBHOOK_REPLY_BYTES)
        except urllib.error.HTTPError as exc:
            throttled = exc.code in (429, 503) and exc.headers is not None
            asked = retry_after_seconds(exc.headers, float("inf")) if throttled else None
            outcome.append((f"HTTP {exc.code}", asked))
        # socket, TLS and URL errors, a malformed reply, a host name that cannot be encoded
        except (OSError, http.client.HTTPException, ValueError) as exc:
            # the reason may name the URL: only its type is logged
            outcome.append((type(getattr(exc, "reason", exc)).__name__, None))
        except BaseException as exc:  # handed to the caller's thread, raised there
            outcome.append(exc)

    worker = threading.Thread(target=send, name="faithpipe-webhook", daemon=True)
    worker.start()
    worker.join(seconds)
    if outcome and outcome[0] is None:
        return None  # accepted; the unused rest of its reply is left to the thread
    if worker.is_alive() or not outcome:
        return f"no answer within {seconds:g} s", None
    if isinstance(outcome[0], BaseException):
        raise outcome[0]
    return outcome[0]


def _without_credentials(url: str) -> tuple[str, dict[str, str]]:
    """The URL without `user:password@` and the Basic Authorization header they stand for
    (urllib cannot send them from the URL: it reads them as part of the host name)."""
    parts = urlsplit(url)
    if parts.username is None:
        return url, {}
    user, password = unquote(parts.username), unquote(parts.password or "")
    token = base64.b64encode(f"{user}:{password}".encode()).decode()
    netloc = parts.netloc.rpartition("@")[2]
    return urlunsplit(parts._replace(netloc=netloc)), {"Authorization": f"Basic {token}"}


def night_alerts(
    con: duckdb.DuckDBPyConnection,
    run_id: str,
    alerts: AlertSettings,
    *,
    drift: str | None = None,
    invalid: str | None = None,
    quarantine: str | None = None,
) -> list[str]:
    """Check the night's pass rates, add each drop to runs.warning, and keep every warning of
    the night for the webhook (alert_messages, sent by send_alerts); returns the drops' texts
    (the caller raises PassRateAlert)."""
    rows = []
    if alerts.window > 0:
        with reader_memory(con):  # the night is written: its segments are read as a report's
            rows = pass_rate_rows(con, run_id, alerts)
            warn_if_segment_missing(con, run_id, alerts.segment)
    drops = [drop_message(row, run_id) for row in rows if row["fired"]]
    messages = list(drops)
    if drift:
        messages.append(warning_message("judge_drift", run_id, drift))
    if invalid:
        messages.append(warning_message("invalid_share", run_id, invalid))
    if quarantine:
        messages.append(warning_message("quarantine_share", run_id, quarantine))
    texts = [drop["text"] for drop in drops]
    # without a webhook, runs.warning is where they are
    record_alerts(con, run_id, texts, messages if alerts.webhook else [])
    for drop in drops:
        log.warning("run %s: %s", run_id, drop["text"])
    return texts


def send_alerts(con: duckdb.DuckDBPyConnection, run_id: str, alerts: AlertSettings) -> None:
    """POST every message not delivered yet, oldest first, each marked sent as it arrives:
    this night's, and those an earlier night left (stopped before sending, or its webhook
    failing), marked late. A stop while sending leaves the rest to the next night."""
    if not alerts.webhook:
        return
    unsent = unsent_messages(con)
    late = sum(raised_by != run_id for raised_by, _, _ in unsent)
    if late:
        log.warning(
            "alert webhook %s: sending %d message(s) earlier nights left unsent, marked late",
            safe_url(alerts.webhook),
            late,
        )
    messages = [
        message
        if raised_by == run_id
        else {**message, "late": True, "text": f"late, from run {raised_by}: {message['text']}"}
        for raised_by, _, message in unsent
    ]

    def delivered(index: int) -> None:
        raised_by, position, _ = unsent[index]
        mark_sent(con, raised_by, position)

    post_messages(alerts, messages, delivered)
