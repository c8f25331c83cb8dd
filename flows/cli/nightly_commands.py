"""`faith nightly` and `faith serve`: the nightly run from the command line."""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from faith_udfs.errors import ConfigError
from flows.cli.options import (
    EXIT_OK,
    add_dry_run_argument,
    add_read_arguments,
    add_run_arguments,
    add_run_timeout_argument,
    add_source_argument,
)
from flows.cli.routes import use_prefect
from flows.cli.settings import run_settings
from flows.errors import RunAlarm
from flows.nightly.nightly_run import (
    DEFAULT_AGREEMENT_FLOOR,
    check_line,
    check_night_options,
    run_nightly,
)
from flows.orchestration.prefect_env import (
    configure_prefect_environment,
    prefect_server_configured,
)
from flows.printable import printable
from flows.run.deadline import NIGHTLY_RUN_TIMEOUT, run_deadline
from flows.run.progress_bar import console_progress
from flows.run.stop_signals import stops_held
from flows.run.summary import run_line

if TYPE_CHECKING:
    from flows.run.settings import ScoreSettings


def add_nightly_commands(commands: argparse._SubParsersAction) -> None:
    """Add `faith nightly` and `faith serve` to the CLI's subcommands."""
    nightly = commands.add_parser(
        "nightly",
        help="score what is new in SOURCE, then check the judge on the golden set",
        description="Score the cases of SOURCE not yet scored under this metric config (and "
        "those left invalid or pending), batch by batch, as a `nightly` run; then score the "
        "golden set with the same judge and store the agreement in judge_checks. A run below "
        "--agreement-floor is marked with a drift warning.",
    )
    add_source_argument(nightly)
    add_read_arguments(nightly)
    add_run_arguments(nightly)
    add_dry_run_argument(nightly)
    add_run_timeout_argument(nightly, default=NIGHTLY_RUN_TIMEOUT)
    _add_check_arguments(nightly)
    _add_alert_arguments(nightly)
    nightly.set_defaults(command=nightly_command)

    serve = commands.add_parser(
        "serve",
        help="serve the nightly flow on a cron schedule (Prefect)",
        description="Serve the nightly flow of SOURCE on a cron schedule with Prefect: this "
        "process registers the deployment with the Prefect server (PREFECT_API_URL; the "
        "temporary server has no scheduler) and runs each scheduled run until stopped (Ctrl-C).",
    )
    add_source_argument(serve)
    add_read_arguments(serve)
    add_run_arguments(serve)
    add_run_timeout_argument(serve, default=NIGHTLY_RUN_TIMEOUT)  # each scheduled run's
    _add_check_arguments(serve)
    _add_alert_arguments(serve)
    schedule = serve.add_argument_group("schedule")
    schedule.add_argument("--cron", default="0 2 * * *", help='cron schedule (default "0 2 * * *")')
    schedule.add_argument("--timezone", default="UTC", help="IANA zone of the cron (default UTC)")
    schedule.add_argument("--name", default="nightly", help="deployment name (default nightly)")
    schedule.add_argument(
        "--dry-run",
        action="store_true",
        help="print the deployment (name, schedule, parameters) as JSON and exit",
    )
    for action in serve._actions:  # serve always runs through Prefect
        if action.dest == "prefect":
            action.help = argparse.SUPPRESS
    serve.set_defaults(command=serve_command)


def _add_alert_arguments(parser: argparse.ArgumentParser) -> None:
    from flows.nightly.alerts import DEFAULT_ALERT_MIN_CASES, DEFAULT_ALERT_WINDOW

    alerts = parser.add_argument_group("alerts (docs/report.md)")
    alerts.add_argument(
        "--alert-window",
        type=int,
        default=DEFAULT_ALERT_WINDOW,
        metavar="DAYS",
        help="exit 15 when the night's pass rate is below the trailing DAYS' range "
        f"(default {DEFAULT_ALERT_WINDOW}; 0: no pass-rate alert)",
    )
    alerts.add_argument(
        "--alert-min-cases",
        type=int,
        default=DEFAULT_ALERT_MIN_CASES,
        metavar="N",
        help="scored cases a night and its window need to alert "
        f"(default {DEFAULT_ALERT_MIN_CASES})",
    )
    alerts.add_argument(
        "--alert-segment",
        metavar="COL",
        default="app_version",
        help="also alert per value of this segment column (default app_version; '' for none)",
    )
    alerts.add_argument(
        "--alert-webhook",
        metavar="URL",
        help="POST each warning of the night as JSON (Slack-compatible `text`) to URL; "
        "also $FAITH_ALERT_WEBHOOK. A secret: never stored, logged as scheme://host",
    )


def alert_settings(args: argparse.Namespace) -> Any:
    """The AlertSettings of `faith nightly`'s options (the webhook also from the environment)."""
    from flows.nightly.alerts import AlertSettings, check_alerts, given_webhook

    if args.alert_webhook is not None and not args.alert_webhook.strip():
        # `--alert-webhook "$HOOK"` with HOOK unset (cron's environment): every night's
        # warnings went to no one, without a word
        raise ConfigError(
            "--alert-webhook is empty: give it the webhook's URL (an unset variable?), or "
            "leave it out (FAITH_ALERT_WEBHOOK is read then)"
        )
    webhook, webhook_from = given_webhook(args.alert_webhook)
    alerts = AlertSettings(
        window=args.alert_window,
        min_cases=args.alert_min_cases,
        segment=args.alert_segment or None,
        webhook=webhook,
        webhook_from=webhook_from,
    )
    check_alerts(alerts)
    return alerts


def _add_check_arguments(parser: argparse.ArgumentParser) -> None:
    check = parser.add_argument_group("judge check")
    check.add_argument(
        "--golden",
        metavar="PATH",
        help="labelled golden set (default: the bundled one, data/golden.parquet)",
    )
    check.add_argument(
        "--agreement-floor",
        type=float,
        default=DEFAULT_AGREEMENT_FLOOR,
        metavar="F",
        help=f"warn when agreement with the golden set is below F "
        f"(default {DEFAULT_AGREEMENT_FLOOR})",
    )


def nightly_command(args: argparse.Namespace) -> int:
    with run_deadline(args.run_timeout):
        return _nightly(args)


def _nightly(args: argparse.Namespace) -> int:
    try:
        return _night(args)
    except RunAlarm as exc:  # exit 8, 11 or 15 after a night kept whole
        if exc.night is not None:
            _print_night(exc.night)
        raise


def _print_night(result: dict[str, Any]) -> None:
    """The night's two lines: its run and its judge check."""
    print(run_line(result))
    print(printable(check_line(result["judge_check"])))


def check_golden_option(args: argparse.Namespace) -> None:
    """An empty --golden (an unset variable) is refused, before anything is scheduled too."""
    check_night_options(args.golden)


def _night(args: argparse.Namespace) -> int:
    check_golden_option(args)
    settings = run_settings(args, flow="nightly")
    progress = console_progress()
    if use_prefect(args.prefect):
        from flows.engines import check_engine_source

        alerts = alert_settings(args)
        check_night_options(args.golden, alerts)
        check_engine_source(settings)  # before Prefect starts a temporary server (routes.py)
        configure_prefect_environment()
        with stops_held():  # Prefect loads: a stop inside pydantic's code there was lost
            from flows.orchestration.last_calls import arm_last_calls_deadline, flow_returned
            from flows.orchestration.nightly_flow import nightly_flow
            from flows.orchestration.prefect_server import require_prefect_server
            from flows.orchestration.score_flow import show_console_progress

        require_prefect_server()  # a server that does not answer: exit 2, nothing read
        arm_last_calls_deadline()  # one that stops answering mid-run: exit 2, not a hang
        show_console_progress(progress)
        if alerts.webhook:  # the flow reads it there: a parameter is stored and shown by Prefect
            os.environ["FAITH_ALERT_WEBHOOK"] = alerts.webhook
        try:
            result = nightly_flow(
                settings,
                golden=args.golden,
                agreement_floor=args.agreement_floor,
                alert_window=alerts.window,
                alert_min_cases=alerts.min_cases,
                alert_segment=alerts.segment,
                run_timeout=args.run_timeout,  # shown in Prefect; the deadline above governs
            )
        finally:
            flow_returned()
    else:
        result = run_nightly(
            settings,
            golden=args.golden,
            agreement_floor=args.agreement_floor,
            progress=progress,
            alerts=alert_settings(args),
        )
    if result.get("dry_run"):  # no judge check either
        from flows.run.cost_summary import dry_run_line

        print(dry_run_line(result))
        if result.get("dry_run_alarm"):  # the real run would end so: exit 11 or 8
            raise result["dry_run_alarm"]
        return EXIT_OK
    # A drift warning is already logged on stderr by the run.
    _print_night(result)
    return EXIT_OK


def serve_command(args: argparse.Namespace) -> int:
    from flows.errors import DatabaseError
    from flows.read.bundled import golden_set_path
    from flows.read.finding import resolve_source
    from flows.read.golden import read_golden
    from flows.run.calibration import check_calibration_stored
    from flows.store.db import holds_no_database

    check_golden_option(args)
    if args.prefect == "no":  # the option is shared with `faith nightly`; serve is Prefect
        raise ConfigError(
            "faith serve always runs through Prefect (its schedule lives on the server): "
            "--prefect no is for `faith nightly`, run by cron or another scheduler"
        )
    if not args.name.strip() or args.name != args.name.strip():
        raise ConfigError(f"--name {args.name!r}: name the deployment without spaces around it")
    settings = run_settings(args, flow="nightly")
    # An unset variable is never the working folder, as for `faith nightly`: SOURCE is
    # checked when each night runs, its emptiness now (an empty one would be pinned as '.').
    if not settings.source.strip():
        resolve_source(settings.source)  # InputUnreadable, exit 3: SOURCE is empty
    if not str(settings.db).strip():
        raise DatabaseError("--db is empty: name the database file (an unset variable?)")
    # A folder (`warehouse/`, pinned below as a file named `warehouse`), a pipe or a device:
    # exit 5 as each night would end; a missing file is made by the first night.
    holds_no_database(settings.db)
    # Prefect stores the parameters with the secret as **********, and each night sent that.
    if settings.judge.base_url_userinfo is not None:
        raise ConfigError(
            "--base-url holds credentials (user:password@), which a deployment cannot keep: "
            "give the key through --api-key-env's variable in the serving process instead"
        )
    check_calibration_stored(settings)  # a name no night could read: refused now, not at 02:00
    _check_served_judge(settings, dry_run=args.dry_run)
    # Scheduled runs start from wherever the runner was: pin every path now.
    settings = settings.model_copy(
        update={"source": _absolute(settings.source), "db": _absolute(settings.db)}
    )
    golden = _absolute(args.golden) if args.golden else None
    # Each night reads it first and fails (exit 3) on a missing or bad one: refused now.
    read_golden(golden or golden_set_path())
    alerts = alert_settings(args)
    configure_prefect_environment()
    with stops_held():  # Prefect loads: a stop inside pydantic's code there was lost
        from flows.orchestration.nightly_flow import build_deployment, describe_deployment

    deployment = build_deployment(
        settings,
        cron=args.cron,
        timezone=args.timezone,
        name=args.name,
        golden=golden,
        agreement_floor=args.agreement_floor,
        run_timeout=args.run_timeout,
        alerts=alerts,
    )
    if args.dry_run:
        print(json.dumps(describe_deployment(deployment), indent=2))
        return EXIT_OK
    # Prefect's temporary server runs no scheduler: served runs would never start.
    if not prefect_server_configured():
        raise ConfigError(
            "faith serve needs a Prefect server for its schedule: start `prefect server start` "
            "and set PREFECT_API_URL=http://127.0.0.1:4200/api (see docs/scheduling.md)"
        )
    from flows.orchestration.nightly_flow import serve_deployment

    if alerts.webhook:  # the runs (this process's subprocesses) read it; never a parameter
        os.environ["FAITH_ALERT_WEBHOOK"] = alerts.webhook
    # Returns only when the runner stops by itself; a stop raises (130, 143) as for any command.
    serve_deployment(deployment, say=lambda line: print(line, flush=True))
    return EXIT_OK


def _check_served_judge(settings: ScoreSettings, *, dry_run: bool) -> None:
    """Refuse a judge every night would refuse, before anything is scheduled: `--judge openai`
    without `--model`, a grounded `--model` no rules version has (exit 2, as `faith nightly`),
    where the deployment was served and each night failed at 02:00; unless `dry_run`, one
    without its API key in this process's environment, which each night's process inherits.
    No judge is called (an LLM's is the cost-counting one, built offline)."""
    from flows.judges.factory import build_judge, close_judge, refuse_unbuildable

    refuse_unbuildable(settings.judge, dry_run=dry_run)
    judge = settings.judge
    if judge.calibration is not None and judge.cutoffs is None:  # check_calibration_stored's
        judge = judge.model_copy(update={"calibration": None})
    close_judge(build_judge(judge, dry_run=True))


def _absolute(path: str) -> str:
    return str(Path(path).expanduser().absolute())
