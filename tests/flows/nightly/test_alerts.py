"""Pass-rate alerts of `faith nightly` on planted histories: a night with a drop fires
(runs.warning, exit 15, a webhook message a drop on a real 127.0.0.1 server); a quiet night
and a thin one do not."""

from __future__ import annotations

import base64
import datetime as dt
import json
import logging
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import duckdb
import polars as pl
import pytest

from faith_udfs.errors import ConfigError
from flows.errors import PassRateAlert
from flows.nightly.alerts import (
    AlertSettings,
    check_webhook,
    post_messages,
    safe_url,
    warning_message,
)
from flows.nightly.nightly_run import run_nightly
from flows.run.settings import ScoreSettings
from tests.support.builders import ANSWERS, case_row, cases, write
from tests.support.loopback import LoopbackServer

PASSING = ANSWERS[0]  # supported: 1.0
FAILING = "Your order was lost at sea and we refund you 500 euros."  # contradicted: 0.0
HISTORY_DAYS = 10
SECRET = "T000/B000/s3cr3t"


class Hook(BaseHTTPRequestHandler):
    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers["Content-Length"]))
        self.server.received.append((self.path, json.loads(body)))  # type: ignore[attr-defined]
        status = self.server.status  # type: ignore[attr-defined]
        self.send_response(status)
        self.end_headers()
        self.wfile.write(b"ok")

    def log_message(self, *args: object) -> None:
        """Quiet."""


class WebhookServer(LoopbackServer):
    def __init__(self, status: int = 200) -> None:
        self.received: list[tuple[str, dict]] = []
        self._listen(Hook, ThreadingHTTPServer, received=self.received, status=status)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/services/{SECRET}?token=abc"


def day_rows(day: dt.date, n: int, failing: int, version: str = "2.4.0") -> list[dict]:
    start = dt.datetime.combine(day, dt.time(8, 0))
    return [
        case_row(
            f"{day:%m%d}-{version}-{i:03d}",
            FAILING if i < failing else PASSING,
            logged_at=start + dt.timedelta(minutes=i),
            app_version=version,
        )
        for i in range(n)
    ]


@pytest.fixture(scope="module")
def scored_history(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Ten days of 20 cases of each app version (1 failing: 95%) scored by one nightly run,
    once: each test takes a copy (history below)."""
    folder = tmp_path_factory.mktemp("history")
    source = folder / "logs"
    first = dt.date(2026, 10, 1)
    rows = [
        row
        for d in range(HISTORY_DAYS)
        for version in ("2.4.0", "2.4.1")
        for row in day_rows(first + dt.timedelta(d), 20, 1, version=version)
    ]
    write(cases(rows), source / "history.parquet")
    db = folder / "faith.duckdb"
    run_nightly(ScoreSettings(source=str(source), db=str(db)), alerts=AlertSettings(window=0))
    return folder


@pytest.fixture
def history(scored_history: Path, tmp_path: Path) -> tuple[Path, Path]:
    """A copy of the scored history: its logs folder and its database."""
    shutil.copytree(scored_history, tmp_path, dirs_exist_ok=True)
    return tmp_path / "logs", tmp_path / "faith.duckdb"


def query(db: Path, sql: str, *params: object) -> list[tuple]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute(sql, list(params)).fetchall()
    finally:
        con.close()


def add_night(source: Path, rows: list[dict]) -> None:
    write(cases(rows), source / "night.parquet")


NIGHT = dt.date(2026, 10, 1 + HISTORY_DAYS)


def test_a_night_with_a_drop_fires_once_and_reaches_the_webhook(
    history: tuple[Path, Path], caplog: pytest.LogCaptureFixture
) -> None:
    source, db = history
    # one segment drops: 2.4.1 fails 20 of 40; 2.4.0 is as before
    add_night(source, day_rows(NIGHT, 40, 2) + day_rows(NIGHT, 40, 20, version="2.4.1"))
    with (
        WebhookServer() as hook,
        caplog.at_level(logging.INFO, logger="faithpipe"),
        pytest.raises(PassRateAlert, match="pass-rate drop") as raised,
    ):
        run_nightly(
            ScoreSettings(source=str(source), db=str(db)), alerts=AlertSettings(webhook=hook.url)
        )
    assert raised.value.exit_code == 15
    (warning,) = query(db, "SELECT warning FROM runs WHERE rows_newly_scored = 80")[0]
    assert "segment 2.4.1" in warning
    assert "segment 2.4.0" not in warning
    # the night was kept: rows in = scored + invalid + pending + quarantined
    run = query(
        db,
        "SELECT rows_in, rows_scored, rows_invalid, rows_pending, rows_quarantined "
        "FROM runs WHERE rows_newly_scored = 80",
    )[0]
    assert run[0] == sum(run[1:]) == 400 + 80  # the history already scored, and the night
    drops = [m for _, m in hook.received if m["kind"] == "pass_rate_drop"]
    assert len(drops) == 2  # the config overall (62.5% vs 95%) and segment 2.4.1
    by_segment = {m["segment_value"]: m for m in drops}
    assert by_segment["2.4.1"]["night_cases"] == 40
    assert by_segment["2.4.1"]["night_passed"] == 20
    assert by_segment["2.4.1"]["window_cases"] == 200
    assert by_segment[None]["window_cases"] == 400
    assert all("text" in m and "pass-rate drop" in m["text"] for m in drops)
    assert SECRET not in caplog.text


def test_a_straggler_from_an_old_day_does_not_move_the_nights_window(
    history: tuple[Path, Path],
) -> None:
    """The night's day is the one most of its cases were logged on: one late row from the
    first day of the history once moved the window before the history, and nothing fired."""
    source, db = history
    late = day_rows(dt.date(2026, 10, 1), 1, 0, version="2.4.9")
    add_night(source, day_rows(NIGHT, 60, 30) + late)
    with pytest.raises(PassRateAlert) as raised:
        run_nightly(ScoreSettings(source=str(source), db=str(db)), alerts=AlertSettings())
    assert f"on {NIGHT}" in str(raised.value)
    assert "of 400 cases" in str(raised.value)  # the ten days before the night


def test_a_quiet_night_and_a_thin_one_do_not_fire(history: tuple[Path, Path]) -> None:
    source, db = history
    add_night(source, day_rows(NIGHT, 40, 3))  # 92.5%: within the range
    with WebhookServer() as hook:
        run = run_nightly(
            ScoreSettings(source=str(source), db=str(db)), alerts=AlertSettings(webhook=hook.url)
        )
    assert run["warning"] is None
    assert hook.received == []
    add_night(source, day_rows(NIGHT + dt.timedelta(1), 5, 5, version="2.4.9"))  # 0 of 5
    quiet = run_nightly(ScoreSettings(source=str(source), db=str(db)))
    assert quiet["rows_newly_scored"] == 5
    assert quiet["warning"] is None  # too few cases to say anything


def test_a_failing_webhook_is_logged_without_its_secret_and_loses_nothing(
    history: tuple[Path, Path],
) -> None:
    source, db = history
    add_night(source, day_rows(NIGHT, 60, 30))
    with WebhookServer(status=500) as hook:
        done = subprocess.run(  # noqa: PLW1510 (the code is asserted)
            [
                sys.executable,
                "-m",
                "flows.cli",
                "nightly",
                str(source),
                "--db",
                str(db),
                "--prefect",
                "no",
                "--alert-webhook",
                hook.url,
            ],
            capture_output=True,
            text=True,
            timeout=120,
            env={**os.environ, "COLUMNS": "80"},
        )
    assert done.returncode == 15, done.stderr
    # the night's two lines come first, as on a green night: its run, its judge check
    run_line, check_line = done.stdout.strip().splitlines()
    assert run_line.startswith("run ")
    assert "60 new" in run_line
    assert check_line.startswith("judge check on ")
    assert len(hook.received) == 2 * 3  # two drops (overall, 2.4.0), three attempts each
    assert "attempt 3 of 3 failed (HTTP 500)" in done.stderr
    assert SECRET not in done.stderr
    assert "token" not in done.stderr
    assert done.stderr.strip().splitlines()[-1].startswith("error: run ")
    newly = query(db, "SELECT count(*) FROM case_scores WHERE logged_at >= ?", NIGHT)
    assert newly == [(60,)]


class Trickle(BaseHTTPRequestHandler):
    """A webhook that answers a byte at a time and never finishes: each read of the client
    returns in time, so only a deadline on the whole POST ends it."""

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers["Content-Length"]))
        try:
            self.wfile.write(b"HTTP/1.1 200 OK\r\n")
            while not self.server.stop.wait(0.2):  # type: ignore[attr-defined]
                self.wfile.write(b"X")
                self.wfile.flush()
        except OSError:
            return  # the client gave up

    def log_message(self, *args: object) -> None:
        """Quiet."""


class TrickleServer(LoopbackServer):
    def __init__(self) -> None:
        self.stop = threading.Event()
        self._listen(Trickle, ThreadingHTTPServer, stop=self.stop)

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        super().__exit__(*exc)


def test_a_webhook_that_never_finishes_answering_cannot_hold_the_night(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Each attempt has its seconds in all, and the night's messages their budget: the
    night ends (and frees the database) however slowly the server answers."""
    messages = [{"kind": "pass_rate_drop", "text": f"drop {i}"} for i in range(5)]
    sent: list[int] = []
    with TrickleServer() as hook, caplog.at_level(logging.WARNING, logger="faithpipe"):
        url = f"http://127.0.0.1:{hook._server.server_address[1]}/hook"
        alerts = AlertSettings(
            webhook=url, webhook_timeout=0.5, webhook_attempts=2, webhook_budget=1.5
        )
        posting = threading.Thread(target=lambda: sent.append(post_messages(alerts, messages)))
        posting.start()
        posting.join(60)  # a hang guard, not a promise: the budget is 1.5 s
        assert not posting.is_alive(), "the webhook held the night"
    assert sent == [0]
    assert "failed (no answer within 0.5 s)" in caplog.text
    assert "messages not sent: the night's 1.5 s for the webhook are spent" in caplog.text


class Recorder(BaseHTTPRequestHandler):
    def do_POST(self) -> None:
        self.rfile.read(int(self.headers["Content-Length"]))
        seen = (self.path, self.headers.get("Authorization"))
        self.server.received.append(seen)  # type: ignore[attr-defined]
        self.send_response(200)
        self.end_headers()

    def log_message(self, *args: object) -> None:
        """Quiet."""


def test_a_webhook_with_credentials_in_its_url_gets_them_as_basic_auth() -> None:
    """urllib reads `user:pw@` as part of the host name (every POST failed with gaierror)."""
    received: list[tuple[str, str | None]] = []

    class Server(LoopbackServer):
        def __init__(self) -> None:
            self._listen(Recorder, ThreadingHTTPServer, received=received)

    with Server() as hook:
        port = hook._server.server_address[1]
        alerts = AlertSettings(webhook=f"http://alerts:p%40ss@127.0.0.1:{port}/hook?x=1")
        assert post_messages(alerts, [{"text": "drop"}]) == 1
    expected = "Basic " + base64.b64encode(b"alerts:p@ss").decode()
    assert received == [("/hook?x=1", expected)]


def test_a_webhook_failure_is_a_logged_reason_but_a_bug_is_raised(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Network and server failures are the night's to survive; an error of faithpipe's own
    in the POSTing thread must not pass as one of them."""
    from flows.nightly import alerts as posting

    def refused(*args: object, **kwargs: object) -> None:
        raise ConnectionRefusedError("refused")

    alerts = AlertSettings(webhook="http://127.0.0.1:9/hook", webhook_attempts=1)
    monkeypatch.setattr(posting._OPENER, "open", refused)
    with caplog.at_level(logging.WARNING, logger="faithpipe"):
        assert post_messages(alerts, [{"text": "drop"}]) == 0
    assert "attempt 1 of 1 failed (ConnectionRefusedError)" in caplog.text

    def broken(*args: object, **kwargs: object) -> None:
        raise TypeError("a bug")

    monkeypatch.setattr(posting._OPENER, "open", broken)
    with pytest.raises(TypeError, match="a bug"):
        post_messages(alerts, [{"text": "drop"}])


def test_the_judge_drift_message_names_its_kind_once() -> None:
    message = warning_message("judge_drift", "r1", "judge drift: agreement 0.9 < 0.99")
    assert message["text"] == "judge drift: agreement 0.9 < 0.99"
    assert warning_message("invalid_share", "r1", "60 of 100")["text"] == "invalid share: 60 of 100"


def test_on_the_prefect_route_the_webhook_is_no_flow_parameter(
    history: tuple[Path, Path], prefect_harness: None
) -> None:
    """Prefect stores and shows a flow run's parameters: the URL, a secret, goes to the flow
    through the environment, as `faith serve` sends it to its runs."""
    from prefect.client.orchestration import get_client
    from prefect.settings import PREFECT_API_URL

    source, db = history
    add_night(source, day_rows(NIGHT, 60, 30))
    with WebhookServer() as hook:
        argv = ["nightly", str(source), "--db", str(db), "--prefect", "yes"]
        done = subprocess.run(  # noqa: PLW1510 (the code is asserted)
            [sys.executable, "-m", "flows.cli", *argv, "--alert-webhook", hook.url],
            capture_output=True,
            text=True,
            timeout=180,
            env={**os.environ, "PREFECT_API_URL": str(PREFECT_API_URL.value())},
        )
    assert done.returncode == 15, done.stderr
    assert done.stdout.strip().splitlines()[-1].startswith("judge check on ")
    assert len(hook.received) == 2  # the flow still had it
    with get_client(sync_client=True) as client:
        stored = [run.parameters for run in client.read_flow_runs()]
    assert any("alert_window" in parameters for parameters in stored)
    assert SECRET not in json.dumps(stored, default=str)


def test_a_logged_webhook_names_its_host_only() -> None:
    assert safe_url("https://user:pw@hooks.slack.com/services/T0/B0/x?y=1") == (
        "https://hooks.slack.com"
    )
    assert safe_url("http://127.0.0.1:8080/a/b") == "http://127.0.0.1:8080"
    assert safe_url("http://127.0.0.1:99999/x") == "(a malformed URL)"  # ValueError before
    # an IPv6 host keeps its brackets: `http://::1:8080` named no host a reader could tell
    assert safe_url("http://u:pw@[::1]:8080/hook?t=1") == "http://[::1]:8080"
    assert safe_url("https://[2001:db8::5]/hook") == "https://[2001:db8::5]"
    for url in ("http://127.0.0.1:99999/x", "http://[::1/x", "ftp://h/x", "http:///x"):
        with pytest.raises(ConfigError, match="--alert-webhook"):
            check_webhook(url)


ONE = [{"kind": "pass_rate_drop", "text": "drop"}]


@pytest.mark.parametrize(
    ("alerts", "says"),
    [
        (AlertSettings(window=1_000_000_000), "--alert-window must be 0 to 36,500 days, got 1,000"),
        (AlertSettings(window=-3), "--alert-window must be 0 to 36,500 days, got -3$"),
        # it began `--alert-window must be 0 to 36,500 days`, an option nobody gave
        (AlertSettings(min_cases=0), "^--alert-min-cases must be 1 or more, got 0$"),
    ],
    ids=["window-too-long", "window-negative", "no-min-cases"],
)
def test_alert_options_a_flow_is_given_are_checked_before_the_night(
    history: tuple[Path, Path], alerts: AlertSettings, says: str
) -> None:
    """prefect.yaml's alert_window, or one changed in the UI's Run, reached the flow without
    the command line's check: 1e9 failed each night after its commit (DuckDB's dates, exit
    1, the alert lost), -3 looked at days after the night."""
    source, db = history
    add_night(source, day_rows(NIGHT, 60, 30))
    runs = query(db, "SELECT count(*) FROM runs")
    with pytest.raises(ConfigError, match=says):
        run_nightly(ScoreSettings(source=str(source), db=str(db)), alerts=alerts)
    assert query(db, "SELECT count(*) FROM runs") == runs


@pytest.mark.parametrize("url", ["http://[::1/hook", "http://127.0.0.1:99999/hook"])
def test_a_webhook_the_flow_is_given_is_checked_before_the_night(
    history: tuple[Path, Path], url: str
) -> None:
    """A worker's FAITH_ALERT_WEBHOOK or prefect.yaml's alert_webhook reaches the flow without
    the command line's check: the night was scored and checked, then sending raised
    ValueError (exit 1, no snapshot, the messages never sent), night after night."""
    source, db = history
    add_night(source, day_rows(NIGHT, 60, 30))
    runs = query(db, "SELECT count(*) FROM runs")
    with pytest.raises(ConfigError, match="--alert-webhook is not a URL"):
        run_nightly(
            ScoreSettings(source=str(source), db=str(db)), alerts=AlertSettings(webhook=url)
        )
    assert query(db, "SELECT count(*) FROM runs") == runs


def test_a_webhook_url_no_post_can_carry_is_refused_before_the_night() -> None:
    """A space or a control character in the URL (a token pasted with a space, a host name
    typed with one) passed the check: the night ran, and every attempt of every night failed
    with InvalidURL, its messages waiting for a next night that could not send them either."""
    with WebhookServer() as hook:
        port = hook._server.server_address[1]
        refused = [
            f"http://127.0.0.1:{port}/services/T0/B0/{SECRET} x",
            f"http://user:pw@127.0.0.1:{port}/a b",
            f"http://127.0.0.1:{port}/a\nb",
            f"http://127.0.0.1:{port}/a\x7fb",
            "http://host name/x",
            "http://127.0.0.1:0/x",
        ]
        for url in refused:
            assert post_messages(AlertSettings(webhook=url, webhook_attempts=1), ONE) == 0
            with pytest.raises(ConfigError, match="--alert-webhook is not a URL") as refusal:
                check_webhook(url)
            assert SECRET not in str(refusal.value)
        # what urllib sends all the same: a trailing newline (a URL read from a file), and
        # credentials, which are sent as a header
        for url in (f"{hook.url}\n", f"http://user:pw@127.0.0.1:{port}/hook"):
            check_webhook(url)
            assert post_messages(AlertSettings(webhook=url), ONE) == 1
    assert len(hook.received) == 2


class Redirect(BaseHTTPRequestHandler):
    def do_POST(self) -> None:
        self.rfile.read(int(self.headers["Content-Length"]))
        self.send_response(302)
        self.send_header("Location", self.server.target)  # type: ignore[attr-defined]
        self.end_headers()

    def log_message(self, *args: object) -> None:
        """Quiet."""


def test_a_redirect_is_not_followed_and_user_text_is_no_slack_markup(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """urllib followed a 302 to another host as a GET, the URL's user:password as Basic auth
    with it, and counted the message delivered; and a segment value `<!channel>` reached
    Slack as markup (a ping, a disguised link)."""
    received: list[tuple[str, str | None]] = []

    class AnyMethod(Recorder):
        def do_GET(self) -> None:  # what urllib resent a 302's POST as
            self.server.received.append((self.command, self.headers.get("Authorization")))  # type: ignore[attr-defined]
            self.send_response(200)
            self.end_headers()

    class Elsewhere(LoopbackServer):
        def __init__(self) -> None:
            self._listen(AnyMethod, ThreadingHTTPServer, received=received)

    class Mover(LoopbackServer):
        def __init__(self, target: str) -> None:
            self._listen(Redirect, ThreadingHTTPServer, target=target)

    with Elsewhere() as other:
        target = f"http://localhost:{other._server.server_address[1]}/"
        with Mover(target) as hook:
            url = f"http://user:pw@127.0.0.1:{hook._server.server_address[1]}/hook"
            alerts = AlertSettings(webhook=url, webhook_attempts=1)
            with caplog.at_level(logging.WARNING, logger="faithpipe"):
                assert post_messages(alerts, [{"text": "drop"}]) == 0
    assert received == []
    assert "attempt 1 of 1 failed (HTTP 302)" in caplog.text
    with WebhookServer() as hook:
        alerts = AlertSettings(webhook=hook.url)
        text = "drop (segment <!channel> *x* <https://evil.example|click> & more)"
        assert post_messages(alerts, [{"text": text, "segment_value": "<!channel>"}]) == 1
    ((_, body),) = hook.received
    assert body["text"] == (
        "drop (segment &lt;!channel&gt; *x* &lt;https://evil.example|click&gt; &amp; more)"
    )
    assert body["segment_value"] == "<!channel>"  # the raw value, for machines


def test_the_segment_drop_alone_fires_with_the_overall_within_range(
    history: tuple[Path, Path],
) -> None:
    source, db = history
    # 400 cases of 2.4.0 as before, 40 of 2.4.1 failing 20: overall 90.5% still near 95%
    add_night(source, day_rows(NIGHT, 400, 20) + day_rows(NIGHT, 40, 20, version="2.4.1"))
    with pytest.raises(PassRateAlert) as raised:
        run_nightly(ScoreSettings(source=str(source), db=str(db)))
    assert "segment 2.4.1" in str(raised.value)


def test_a_misspelt_alert_segment_is_warned_of_and_the_config_still_checked(
    history: tuple[Path, Path], caplog: pytest.LogCaptureFixture
) -> None:
    """`--alert-segment app_verison` sliced nothing, without a word: the night says so, naming
    the segment columns its cases do hold, and still checks each config's rate."""
    source, db = history
    add_night(source, day_rows(NIGHT, 60, 30))  # 50%: the config's rate fires
    with (
        caplog.at_level(logging.WARNING, logger="faithpipe"),
        pytest.raises(PassRateAlert) as raised,
    ):
        run_nightly(
            ScoreSettings(source=str(source), db=str(db)),
            alerts=AlertSettings(segment="app_verison"),
        )
    assert "segment" not in str(raised.value)  # the config's drop alone
    warned = [r.getMessage() for r in caplog.records if "--alert-segment" in r.getMessage()]
    assert len(warned) == 1
    assert "app_verison: none of the night's 60 cases" in warned[0]
    assert "(theirs: app_version)" in warned[0]


def test_the_default_segment_is_not_warned_of_when_the_logs_lack_it(
    history: tuple[Path, Path], caplog: pytest.LogCaptureFixture
) -> None:
    """app_version is sliced by when the logs have it: a night without it is no mistake."""
    source, db = history
    night = [{**row, "app_version": None} for row in day_rows(NIGHT, 40, 3)]
    add_night(source, night)
    with caplog.at_level(logging.WARNING, logger="faithpipe"):
        run = run_nightly(ScoreSettings(source=str(source), db=str(db)))
    assert run["rows_newly_scored"] == 40
    assert not [r for r in caplog.records if "--alert-segment" in r.getMessage()]


@pytest.mark.parametrize("segment", ["", "   "], ids=["empty", "blank"])
def test_an_empty_alert_segment_a_flow_is_given_means_none_as_on_the_command_line(
    history: tuple[Path, Path], caplog: pytest.LogCaptureFixture, segment: str
) -> None:
    """docs/scheduling.md: `--alert-segment ''` for none. prefect.yaml's `alert_segment: ""`
    (or one cleared in the UI's Run) reached the flow as a column named '': each night warned
    `--alert-segment : none of the night's 60 cases has that segment column`."""
    source, db = history
    add_night(source, day_rows(NIGHT, 60, 30))  # 50%: the config's rate fires
    with (
        caplog.at_level(logging.WARNING, logger="faithpipe"),
        pytest.raises(PassRateAlert) as raised,
    ):
        run_nightly(
            ScoreSettings(source=str(source), db=str(db)),
            alerts=AlertSettings(segment=segment),
        )
    assert "segment" not in str(raised.value)  # the config's drop alone
    assert not [r for r in caplog.records if "--alert-segment" in r.getMessage()]


class Killed(BaseException):
    """The night stopped between its scoring and its judge check (a SIGKILL, a crash)."""


def _killed_before_the_check(*_: object, **__: object) -> None:
    raise Killed


def test_a_night_killed_before_its_check_fires_on_the_re_run(history: tuple[Path, Path]) -> None:
    """The re-run of a killed night scores none of its cases again, and its night was only
    the cases it scored: the drop was lost for good, exit 0. The cases of nightly runs that
    never reached their check count in the next night's."""
    from flows.nightly.nightly_run import CheckSteps

    source, db = history
    add_night(source, day_rows(NIGHT, 60, 30))  # 50% against 95%
    with pytest.raises(Killed):
        run_nightly(
            ScoreSettings(source=str(source), db=str(db)),
            check_steps=CheckSteps(check=_killed_before_the_check),
        )
    with pytest.raises(PassRateAlert) as raised:
        run_nightly(ScoreSettings(source=str(source), db=str(db)))
    assert f"50.0% of 60 cases on {NIGHT}" in str(raised.value)
    # checked now: the night after it is its own again
    add_night(source, day_rows(NIGHT + dt.timedelta(1), 40, 1))
    assert run_nightly(ScoreSettings(source=str(source), db=str(db)))["warning"] is None


def test_each_day_of_the_night_is_checked_on_its_own(history: tuple[Path, Path]) -> None:
    """50 failing late rows of an old day scored with 60 good ones: the alert said "52.7% of
    110 cases on <the night>", a day that held 60 cases, 57 passing. Each day is told apart."""
    source, db = history
    late = [
        {**row, "case_id": f"late-{i}"}
        for i, row in enumerate(day_rows(dt.date(2026, 10, 2), 50, 50))
    ]
    add_night(source, day_rows(NIGHT, 60, 3) + late)
    with pytest.raises(PassRateAlert) as raised:
        run_nightly(ScoreSettings(source=str(source), db=str(db)))
    assert "0.0% of 50 cases on 2026-10-02" in str(raised.value)
    assert f"on {NIGHT}" not in str(raised.value)


def test_a_re_run_scoring_only_a_straggler_still_tells_the_killed_nights_drop(
    history: tuple[Path, Path],
) -> None:
    from flows.nightly.nightly_run import CheckSteps

    source, db = history
    add_night(source, day_rows(NIGHT, 60, 30))  # 50% against 95%, killed before its check
    with pytest.raises(Killed):
        run_nightly(
            ScoreSettings(source=str(source), db=str(db)),
            check_steps=CheckSteps(check=_killed_before_the_check),
        )
    late = day_rows(dt.date(2026, 10, 2), 1, 0, version="2.4.9")
    write(cases(late), source / "late.parquet")
    with pytest.raises(PassRateAlert) as raised:
        run_nightly(ScoreSettings(source=str(source), db=str(db)))
    assert f"50.0% of 60 cases on {NIGHT}" in str(raised.value)


def test_a_killed_night_swept_by_the_next_does_not_hide_its_drop(
    history: tuple[Path, Path],
) -> None:
    """The next scheduled night sweeps a killed one: the busier day of the two was taken
    for the night's, and a drop on the next night's own day went untold."""
    from flows.nightly.nightly_run import CheckSteps

    source, db = history
    add_night(source, day_rows(NIGHT, 60, 3))  # a good night, killed before its check
    with pytest.raises(Killed):
        run_nightly(
            ScoreSettings(source=str(source), db=str(db)),
            check_steps=CheckSteps(check=_killed_before_the_check),
        )
    write(cases(day_rows(NIGHT + dt.timedelta(1), 40, 20)), source / "next.parquet")
    with pytest.raises(PassRateAlert) as raised:
        run_nightly(ScoreSettings(source=str(source), db=str(db)))
    assert f"50.0% of 40 cases on {NIGHT + dt.timedelta(1)}" in str(raised.value)


def _checked_then_stopped(con: duckdb.DuckDBPyConnection, run_id: str, check: object) -> None:
    """The night's check is recorded, then Ctrl-C arrives: before its alerts went out."""
    from flows.store.judge_checks import record_check

    record_check(con, run_id, check)  # type: ignore[arg-type]
    signal.raise_signal(signal.SIGINT)


def test_a_night_stopped_before_its_alert_went_out_sends_it_with_the_next_night(
    history: tuple[Path, Path],
) -> None:
    """The night was committed and its check recorded, so the next night did not sweep it
    into its own (night_runs.sql); its drop was in runs.warning but never reached the
    webhook. It waits in alert_messages and goes out with the next night, marked late."""
    from flows.nightly.nightly_run import CheckSteps

    source, db = history
    add_night(source, day_rows(NIGHT, 60, 30))  # 50% against 95%
    settings = ScoreSettings(source=str(source), db=str(db))
    with WebhookServer() as hook:
        with pytest.raises(KeyboardInterrupt):
            run_nightly(
                settings,
                alerts=AlertSettings(webhook=hook.url),
                check_steps=CheckSteps(record=_checked_then_stopped),
            )
        assert hook.received == []  # the stop ended the night before the webhook
        ((stopped, warning),) = query(
            db, "SELECT run_id, warning FROM runs WHERE rows_newly_scored = 60"
        )
        assert "pass-rate drop" in warning
        quiet = run_nightly(settings, alerts=AlertSettings(webhook=hook.url))  # nothing new
    assert quiet["warning"] is None  # the late drop is the stopped night's, not this one's
    drops = [m for _, m in hook.received]
    assert [m["kind"] for m in drops] == ["pass_rate_drop", "pass_rate_drop"]
    assert all(m["run_id"] == stopped and m["late"] for m in drops)
    assert drops[0]["text"].startswith(f"late, from run {stopped}: pass-rate drop")
    assert f"50.0% of 60 cases on {NIGHT}" in drops[0]["text"]
    assert query(db, "SELECT count(*) FROM alert_messages WHERE sent_at IS NULL") == [(0,)]
    assert SECRET not in str(query(db, "SELECT * FROM alert_messages"))  # the URL is not kept


class StopOnSecond(BaseHTTPRequestHandler):
    """Takes the first message; on the second, Ctrl-C reaches the night while it waits for the
    answer, which never comes. Every POST after those is taken."""

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        self.server.posts.append(body)  # type: ignore[attr-defined]
        if len(self.server.posts) == 2:  # type: ignore[attr-defined]
            os.kill(os.getpid(), signal.SIGINT)
            self.server.closing.wait(10)  # type: ignore[attr-defined]
            return
        self.server.received.append(body)  # type: ignore[attr-defined]
        self.send_response(200)
        self.end_headers()

    def log_message(self, *args: object) -> None:
        """Quiet."""


class StopOnSecondServer(WebhookServer):
    def __init__(self) -> None:
        self.received: list[dict] = []  # type: ignore[assignment]
        self.closing = threading.Event()
        self._listen(
            StopOnSecond,
            ThreadingHTTPServer,
            received=self.received,
            posts=[],
            closing=self.closing,
        )

    def __exit__(self, *exc: object) -> None:
        self.closing.set()
        super().__exit__(*exc)


def test_a_stop_while_the_alerts_are_sent_leaves_the_rest_to_the_next_night(
    history: tuple[Path, Path],
) -> None:
    """Each message is marked sent as it arrives: the next night sends the one the stop cut
    short, not the one delivered before it."""
    source, db = history
    add_night(source, day_rows(NIGHT, 60, 30))  # two drops: the config, segment 2.4.0
    settings = ScoreSettings(source=str(source), db=str(db))
    with StopOnSecondServer() as hook:
        with pytest.raises(KeyboardInterrupt):
            run_nightly(settings, alerts=AlertSettings(webhook=hook.url))
        (first,) = hook.received
        run_nightly(settings, alerts=AlertSettings(webhook=hook.url))  # nothing new
    late = hook.received[1:]
    assert [m.get("late") for m in [first, *late]] == [None, True]
    assert first["segment_value"] is None
    assert late[0]["segment_value"] == "2.4.0"
    assert query(db, "SELECT count(*) FROM alert_messages WHERE sent_at IS NULL") == [(0,)]


def test_a_night_whose_logs_carry_a_wide_segment_column_is_still_checked(
    history: tuple[Path, Path],
) -> None:
    """A log column of a long system prompt (or tool definitions) rides along as a segment:
    DuckDB's JSON functions hold several times each case's segments at once, and the check
    ran out of the writer's memory limit after the night was scored (exit 7, every night,
    told to lower --batch-size), where the report, reading, had room."""
    source, db = history
    prompt = "You are the shop's helpful assistant; answer from the passages only. " * 600
    night = cases(day_rows(NIGHT, 2_100, 1_050)).with_columns(system_prompt=pl.lit(prompt))
    write(night, source / "night.parquet")
    with pytest.raises(PassRateAlert) as raised:
        run_nightly(ScoreSettings(source=str(source), db=str(db)))
    assert "pass-rate drop (config faith-" in str(raised.value)  # 2,100 cases of 43 kB
    assert query(db, "SELECT count(*) FROM judge_checks")[0][0] == 2  # the night was checked


def test_a_password_with_a_slash_is_refused_without_a_word_of_it() -> None:
    """A token holding `/`, `?` or `#` (base64 does) typed unencoded after `user:` ends the
    host there, and the rest reads as a port: the refusal quoted Python's "Port could not be
    cast to integer value as 'Zm9vYmFy'", the password's first part, on stderr and in logs."""
    for url in (
        "https://bot:Zm9vYmFy/c2VjcmV0@hooks.example.com/services/x",
        "https://bot:Zm9vYmFy#c2VjcmV0@hooks.example.com/services/x",
        "https://bot:Zm9vYmFy?c2VjcmV0@hooks.example.com/services/x",
    ):
        with pytest.raises(ConfigError, match="--alert-webhook is not a URL") as refusal:
            check_webhook(url)
        assert "Zm9vYmFy" not in str(refusal.value)
        assert "percent-encode" in str(refusal.value)  # what to do
        assert safe_url(url) == "(a malformed URL)"


HOSTILE = "<img src=x onerror=alert(1)> [click](javascript:alert(2)) **2.4**"


def test_a_hostile_segment_value_in_a_warning_is_text_in_the_runs_artifact(
    tmp_path: Path,
) -> None:
    """The run's Markdown artifact (the Prefect UI renders it) wrote the night's warning, which
    quotes a segment value, and the source path, which may hold a backtick, as they were: a
    logged value `<img onerror=…>` or `[x](javascript:…)` became markup."""
    from markdown_it import MarkdownIt

    from flows.run.summary import run_markdown

    source, db = tmp_path / "logs `<img src=y onerror=alert(3)>`", tmp_path / "faith.duckdb"
    first = dt.date(2026, 10, 1)
    history = [
        row
        for d in range(HISTORY_DAYS)
        for row in day_rows(first + dt.timedelta(d), 20, 1, HOSTILE)
    ]
    write(cases(history), source / "history.parquet")
    run_nightly(ScoreSettings(source=str(source), db=str(db)), alerts=AlertSettings(window=0))
    add_night(source, day_rows(NIGHT, 40, 20, HOSTILE))
    with pytest.raises(PassRateAlert) as raised:
        run_nightly(ScoreSettings(source=str(source), db=str(db)), alerts=AlertSettings())
    night = raised.value.night or {}
    assert f"segment {HOSTILE}" in night["warning"]
    page = MarkdownIt("commonmark").render(run_markdown(night))
    assert "<img" not in page, page
    assert "<a " not in page, page
    assert "<strong>2.4</strong>" not in page, page
    assert "&lt;img src=x onerror=alert(1)&gt; [click](javascript:alert(2)) **2.4**" in page
    assert "<code>logs `&lt;img src=y onerror=alert(3)&gt;`</code>" in page.replace(
        str(tmp_path) + "/", ""
    )


def test_an_empty_webhook_an_unset_variable_gives_is_refused_before_the_night(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`faith nightly logs/ --alert-webhook "$HOOK"` with HOOK unset (cron's environment): the
    night ran with no webhook and not a word, every drop told to no one. It is refused as an
    empty --golden or --html is, before the database is made."""
    from flows.cli import main

    monkeypatch.delenv("FAITH_ALERT_WEBHOOK", raising=False)
    source = write(cases(day_rows(NIGHT, 5, 0)), tmp_path / "logs" / "night.parquet")
    db = tmp_path / "faith.duckdb"
    argv = ["nightly", str(source), "--db", str(db), "--prefect", "no"]
    for empty in ("", "  "):
        capsys.readouterr()
        assert main([*argv, "--alert-webhook", empty]) == 2
        (line,) = capsys.readouterr().err.splitlines()
        assert line.startswith("error: --alert-webhook is empty: ")
        assert not db.exists()


@pytest.mark.parametrize(
    "host", ["hooks..slack.com", ".hooks.slack.com", "a" * 64 + ".example.com"]
)
def test_a_host_name_no_lookup_can_take_is_refused_before_the_night(host: str) -> None:
    """A host with an empty label (a dot typed twice, a leading dot) or one past 63
    characters passed the check: each attempt of every night failed (UnicodeError) and the
    messages waited for nights that could not send them either."""
    url = f"https://{host}/services/T0/B0/{SECRET}"
    assert post_messages(AlertSettings(webhook=url, webhook_attempts=1), ONE) == 0
    with pytest.raises(ConfigError, match="--alert-webhook is not a URL") as refusal:
        check_webhook(url)
    assert "host name" in str(refusal.value)
    assert SECRET not in str(refusal.value)
    assert host not in str(refusal.value)


def test_host_names_a_lookup_takes_pass_the_check() -> None:
    for url in ("http://[::1]:8080/x", "https://münchen.example/x", "https://hooks.slack.com./x"):
        check_webhook(url)


class SlowBody(BaseHTTPRequestHandler):
    """A webhook that accepts (200, its headers whole) and then sends its body a byte at a
    time, never finishing it."""

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers["Content-Length"]))
        self.server.received.append(self.path)  # type: ignore[attr-defined]
        try:
            self.send_response(200)
            self.send_header("Content-Length", "1000")
            self.end_headers()
            while not self.server.stop.wait(0.2):  # type: ignore[attr-defined]
                self.wfile.write(b"X")
                self.wfile.flush()
        except OSError:
            return  # the client went away

    def log_message(self, *args: object) -> None:
        """Quiet."""


class SlowBodyServer(LoopbackServer):
    def __init__(self) -> None:
        self.stop = threading.Event()
        self.received: list[str] = []
        self._listen(SlowBody, ThreadingHTTPServer, stop=self.stop, received=self.received)

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        super().__exit__(*exc)


def test_a_message_the_server_accepted_is_delivered_however_slow_its_body(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The server said 200 and then sent its (unused) body slowly: each attempt was 'no
    answer', the message was POSTed three times a night, and again every night after, never
    marked sent. A 2xx status is the delivery."""
    with SlowBodyServer() as hook, caplog.at_level(logging.WARNING, logger="faithpipe"):
        url = f"http://127.0.0.1:{hook._server.server_address[1]}/hook"
        alerts = AlertSettings(webhook=url, webhook_timeout=0.5, webhook_budget=10)
        assert post_messages(alerts, ONE) == 1
    assert hook.received == ["/hook"]
    assert "failed" not in caplog.text


def test_a_bad_webhook_from_the_environment_is_named_as_the_environment_gave_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """FAITH_ALERT_WEBHOOK without a scheme (a Prefect worker's environment) was refused as
    `--alert-webhook must be…`, an option nobody passed; the option given wins and is named."""
    from flows.cli import main

    monkeypatch.setenv("FAITH_ALERT_WEBHOOK", f"hooks.slack.com/services/{SECRET}")
    source = write(cases(day_rows(NIGHT, 5, 0)), tmp_path / "logs" / "night.parquet")
    db = tmp_path / "faith.duckdb"
    argv = ["nightly", str(source), "--db", str(db), "--prefect", "no"]
    assert main(argv) == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert line == "error: FAITH_ALERT_WEBHOOK must be an http(s) URL with a host"
    assert main([*argv, "--alert-webhook", "ftp://hooks.example.com/x"]) == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert line == "error: --alert-webhook must be an http(s) URL with a host"
    assert not db.exists()


class RateLimitedHook(BaseHTTPRequestHandler):
    """Slack's rate limit: the first POST is answered 429 with a Retry-After, later ones 200."""

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers["Content-Length"]))
        server = self.server
        server.times.append(time.monotonic())  # type: ignore[attr-defined]
        limited = len(server.times) == 1  # type: ignore[attr-defined]
        self.send_response(429 if limited else 200)
        if limited:
            self.send_header("Retry-After", server.retry_after)  # type: ignore[attr-defined]
        self.send_header("Content-Length", "2")
        self.end_headers()
        self.wfile.write(b"ok")

    def log_message(self, *args: object) -> None:
        """Quiet."""


@pytest.mark.parametrize(("retry_after", "sent"), [("1", 2), ("120", 0)])
def test_a_rate_limited_webhook_is_asked_again_after_the_wait_it_asks_for(
    retry_after: str, sent: int, caplog: pytest.LogCaptureFixture
) -> None:
    """A 429 was retried after 0.4 s whatever its Retry-After, into the same limit (Slack
    allows about one message a second): the night's messages went to the next night as late.
    A wait past the night's 30 s is not waited for, nor are the night's other messages sent
    into the same limit: the next night sends them."""
    times: list[float] = []
    server = LoopbackServer()
    server._listen(RateLimitedHook, ThreadingHTTPServer, times=times, retry_after=retry_after)
    two = [*ONE, {"kind": "segment_drop", "text": "another drop"}]
    with server:
        url = f"http://127.0.0.1:{server._server.server_address[1]}/services/{SECRET}"
        with caplog.at_level(logging.WARNING):
            assert post_messages(AlertSettings(webhook=url), two) == sent
    if sent:
        assert len(times) == 3
        assert times[1] - times[0] >= 1.0  # the server's wait, not the 0.4 s back-off
    else:
        assert len(times) == 1
        assert (
            "asks to wait 120 s (Retry-After), past the night's 30 s for the webhook: 2 of 2 "
            "messages not sent" in caplog.text
        )
    assert SECRET not in caplog.text
