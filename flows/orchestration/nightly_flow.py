"""The nightly Prefect flow, and its deployment for `faith serve` (prefect.yaml declares the same).

The flow calls `run_nightly` with task-wrapped steps rather than running `score_flow` as a
subflow: the judge check must follow the run on the same connection (one write lock from
the run to its check), and the plain route then runs exactly the same code.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from prefect import flow, get_run_logger, task
from prefect.artifacts import create_markdown_artifact
from prefect.deployments.runner import EntrypointType, RunnerDeployment
from prefect.exceptions import InvalidNameError
from prefect.schedules import Cron

from faith_udfs.errors import ConfigError
from flows.errors import RunAlarm
from flows.nightly.alerts import (
    DEFAULT_ALERT_MIN_CASES,
    DEFAULT_ALERT_SEGMENT,
    DEFAULT_ALERT_WINDOW,
    AlertSettings,
    given_webhook,
)
from flows.nightly.nightly_run import (
    DEFAULT_AGREEMENT_FLOOR,
    CheckSteps,
    check_agreement_floor,
    check_judge,
    check_line,
    record_check,
    run_nightly,
)
from flows.orchestration.score_flow import TASK_OPTIONS, TASK_STEPS, flow_progress, publish_kept
from flows.orchestration.score_flow import publish_summary as publish_run_summary
from flows.run.deadline import NIGHTLY_RUN_TIMEOUT, run_deadline
from flows.run.settings import ScoreSettings
from flows.run.summary import markdown_code, markdown_text

check_task = task(name="check-judge", **TASK_OPTIONS)(check_judge)
# Writing touches the disk: one retry, on a fresh transaction (the failed one rolled back).
record_task = task(name="record-judge-check", retries=1, retry_delay_seconds=1, **TASK_OPTIONS)(
    record_check
)
CHECK_STEPS = CheckSteps(check=check_task, record=record_task)
TAGS = ["faithpipe", "nightly"]


@flow(name="faithpipe-nightly", log_prints=True)
def nightly_flow(
    settings: ScoreSettings,
    golden: str | None = None,
    agreement_floor: float = DEFAULT_AGREEMENT_FLOOR,
    *,
    alert_window: int = DEFAULT_ALERT_WINDOW,
    alert_min_cases: int = DEFAULT_ALERT_MIN_CASES,
    alert_segment: str | None = DEFAULT_ALERT_SEGMENT,
    alert_webhook: str | None = None,
    run_timeout: float | None = NIGHTLY_RUN_TIMEOUT,
) -> dict[str, Any]:
    """Score what is new in SOURCE, then check the judge on the golden set; publish both.
    A pass-rate alert fails the flow run (PassRateAlert, exit 15) after everything is kept;
    past `run_timeout` seconds (6 h; None or 0: none) the run stops as on SIGTERM
    (RunDeadline, exit 14), unless a deadline is already armed (`faith nightly`'s own)."""
    webhook, webhook_from = given_webhook(alert_webhook)
    with run_deadline(run_timeout):
        try:
            run = run_nightly(
                settings,
                golden=golden,
                agreement_floor=agreement_floor,
                alerts=AlertSettings(
                    window=alert_window,
                    min_cases=alert_min_cases,
                    segment=alert_segment,
                    webhook=webhook,
                    webhook_from=webhook_from,
                ),
                steps=TASK_STEPS,
                progress=flow_progress(),
                check_steps=CHECK_STEPS,
            )
        except RunAlarm as alarm:  # exit 8, 11, 15: a night kept whole, published as any
            if alarm.night is not None:
                night = alarm.night
                publish_kept(lambda: publish_night(night), "night")
            raise
    return publish_night(run)


def publish_night(run: dict[str, Any]) -> dict[str, Any]:
    """The night's check line and warning in the flow run's log, and its artifacts."""
    if run["judge_check"] is None:  # a dry run: nothing judged, no check
        publish_run_summary(run)
        return run
    logger = get_run_logger()
    logger.info(check_line(run["judge_check"]))
    if run["judge_check"]["warning"]:
        logger.warning(run["judge_check"]["warning"])
    publish_run_summary(run)
    create_markdown_artifact(
        key="faithpipe-nightly-judge-check",
        markdown=check_markdown(run["run_id"], run["judge_check"]),
        description="agreement of the judge with the golden set",
    )
    return run


def check_markdown(run_id: str, check: dict[str, Any]) -> str:
    """The judge check as markdown: outcome, then every item the judge disagreed on."""
    lines = [
        f"# Judge check of nightly run `{run_id}`",
        "",
        f"* {check_line(check)}",
        f"* metric config `{check['config_id']}`; golden set {markdown_code(check['golden'])} "
        f"(`{check['golden_hash'][:12]}`)",
    ]
    if check["warning"]:
        lines.append(f"* **warning**: {markdown_text(check['warning'])}")
    if check["disagreements"]:
        lines += ["", "| case | claim | expected | judge |", "| --- | --- | --- | --- |"]
        lines += [
            f"| {_cell(d['case_id'])} | {_cell(d['claim'] or '')} "
            f"| {_cell(d['expected'] or '(no claim)')} | {_cell(d['verdict'] or '(none)')} |"
            for d in check["disagreements"]
        ]
    return "\n".join(lines)


def _cell(text: object) -> str:
    """A golden set's text as one markdown table cell: its `|` and line breaks split the row,
    and its HTML and Markdown are shown, not rendered."""
    return markdown_text(text)


def deployment_parameters(
    settings: ScoreSettings,
    *,
    golden: str | None,
    agreement_floor: float,
    run_timeout: float | None = NIGHTLY_RUN_TIMEOUT,
    alerts: AlertSettings | None = None,
) -> dict[str, Any]:
    """The flow's parameters as JSON; settings, deadline and alert options left at their
    defaults are omitted. Never the webhook: the server stores and shows the parameters, so
    served runs read it from FAITH_ALERT_WEBHOOK in the serving process's environment."""
    alerts = alerts or AlertSettings()
    chosen = {
        "run_timeout": (run_timeout or None, NIGHTLY_RUN_TIMEOUT),
        "alert_window": (alerts.window, DEFAULT_ALERT_WINDOW),
        "alert_min_cases": (alerts.min_cases, DEFAULT_ALERT_MIN_CASES),
        "alert_segment": (alerts.segment, DEFAULT_ALERT_SEGMENT),
    }
    return {
        "settings": settings.model_dump(mode="json", exclude_defaults=True),
        "golden": golden,
        "agreement_floor": agreement_floor,
        **{name: value for name, (value, default) in chosen.items() if value != default},
    }


def build_deployment(
    settings: ScoreSettings,
    *,
    cron: str = "0 2 * * *",
    timezone: str = "UTC",
    name: str = "nightly",
    golden: str | None = None,
    agreement_floor: float = DEFAULT_AGREEMENT_FLOOR,
    run_timeout: float | None = NIGHTLY_RUN_TIMEOUT,
    alerts: AlertSettings | None = None,
) -> RunnerDeployment:
    """The nightly flow's deployment on a cron schedule, as `faith serve` serves it: each
    scheduled run gets the deadline (`run_timeout`) and the alert options."""
    try:
        ZoneInfo(timezone)
        _check_iana_name(timezone)
        schedule = Cron(cron, timezone=timezone)
        if len(cron.split()) > 5:  # croniter's sixth field is seconds: a run every second
            raise ValueError("give the 5 fields minute hour day month weekday; a sixth is seconds")
        _first_night(cron, timezone)
    except (ValueError, ZoneInfoNotFoundError) as exc:
        raise ConfigError(f"--cron {cron!r} --timezone {timezone!r}: {exc}") from None
    check_agreement_floor(agreement_floor)
    try:  # Prefect checks the name as the deployment is made
        deployment = nightly_flow.to_deployment(
            name=name,
            schedules=[schedule],
            parameters=deployment_parameters(
                settings.model_copy(update={"flow": "nightly"}),
                golden=golden,
                agreement_floor=agreement_floor,
                run_timeout=run_timeout,
                alerts=alerts,
            ),
            tags=TAGS,
            description=f"faithpipe nightly scoring of {settings.source} into {settings.db}",
            # faithpipe is an installed package: runs import the flow by module, from any
            # directory.
            entrypoint_type=EntrypointType.MODULE_PATH,
        )
    except InvalidNameError as exc:  # '' or 'a/b': Prefect's own word, a usage error (exit 2)
        raise ConfigError(f"--name {name!r}: {str(exc).splitlines()[0]}") from None
    # Called outside an event loop, prefect's sync-compatible method returns the value itself.
    assert isinstance(deployment, RunnerDeployment)
    return deployment


def _check_iana_name(timezone: str) -> None:
    """Refuse a zone Python opens but Prefect does not take (a file of the zoneinfo folder
    such as `posix/Europe/Berlin` or `posixrules`: a ValidationError as the deployment was
    made, exit 1), and `localtime`, the serving host's zone, whatever it is."""
    from zoneinfo import available_timezones

    if timezone == "localtime" or timezone not in available_timezones():
        raise ValueError("not an IANA time zone name (e.g. Europe/Berlin, UTC)")


def _first_night(cron: str, timezone: str) -> None:
    """Refuse a cron that never fires (30 February): Prefect takes it, and no night runs."""
    from prefect._vendor.croniter import CroniterBadDateError, croniter

    try:
        croniter(cron, datetime.now(ZoneInfo(timezone))).get_next(datetime)
    except CroniterBadDateError:
        raise ValueError("it never fires: no date has those fields") from None


def describe_deployment(deployment: RunnerDeployment) -> dict[str, Any]:
    """What a deployment will do, as JSON: for `faith serve --dry-run` and for reading."""
    return {
        "deployment": f"{deployment.flow_name}/{deployment.name}",
        "entrypoint": deployment.entrypoint,
        "schedules": [
            {
                "cron": getattr(item.schedule, "cron", None),
                "timezone": getattr(item.schedule, "timezone", None),
                "active": item.active,
            }
            for item in deployment.schedules or []
        ],
        "parameters": deployment.parameters,
        "tags": deployment.tags,
    }


def serve_deployment(deployment: RunnerDeployment, *, say: Callable[[str], object]) -> None:
    """Run the deployment's scheduled runs in this process until stopped (`faith serve`),
    `say`ing so once they are; a server that does not answer is one line and exit 2, as for
    `faith score`. A stop ends it as any command's (130, 143: serving.py), once the runner
    has stopped its runs and paused the schedule."""
    from flows.orchestration.prefect_server import require_prefect_server
    from flows.orchestration.serving import serve

    require_prefect_server(plain_route=False)
    # The runner polls the server every ~10 s; httpx would log an INFO line for each poll.
    logging.getLogger("httpx").setLevel(logging.WARNING)
    line = (
        f"serving {deployment.flow_name}/{deployment.name}: each scheduled run starts here; "
        "Ctrl-C or SIGTERM stops serving and pauses the schedule"
    )
    serve(deployment, say=lambda: say(line))
