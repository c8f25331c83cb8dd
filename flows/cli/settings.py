"""CLI arguments -> the settings objects: one typed function per command, each checked as
any caller's settings are (flows/judges/settings.py, flows/run/settings.py)."""

from __future__ import annotations

import argparse
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Literal

from faith_udfs.errors import ConfigError

if TYPE_CHECKING:
    from flows.judges.settings import JudgeSettings
    from flows.run.settings import ScoreSettings

__all__ = ["judge_settings", "run_settings", "settings_error"]


def settings_error(exc: Any) -> ConfigError:
    """A pydantic ValidationError of the settings as one line naming each bad option as it is
    typed (`--max-calls: ...`)."""
    problems = "; ".join(
        f"{_option_name(e['loc'])}: {e['msg']}{_given(e.get('input'))}"
        if e["loc"]
        else e["msg"].removeprefix("Value error, ")  # a rule across options
        for e in exc.errors()
    )
    return ConfigError(problems)


def _given(value: object) -> str:
    """`, got 2` for a number out of range (`--max-invalid-share 2`, `nan`): the line said the
    bound alone. Only numbers are shown: a text option's value may hold a secret (a password
    written into --base-url)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return ""
    return f", got {value:g}" if isinstance(value, float) else f", got {value}"


# Settings fields whose flag is not `--` and the field's name with dashes.
_FLAG_OF_FIELD = {
    "kind": "--judge",
    "mode": "--judge-mode",
    "include_reason": "--no-reason",
    "price_input_usd": "--price-input",
    "price_output_usd": "--price-output",
}


def _option_name(loc: tuple[Any, ...]) -> str:
    """`--max-calls` for the field `max_calls` (`--columns.input` for a part of one)."""
    field = str(loc[0])
    option = _FLAG_OF_FIELD.get(field, "--" + field.replace("_", "-"))
    return ".".join([option, *map(str, loc[1:])])


# Settings fields whose option has another name on the command line (a field's option is
# otherwise the field's own name: --max-calls sets max_calls).
_OPTION_OF_FIELD = {
    "kind": "judge",
    "price_input_usd": "price_input",
    "price_output_usd": "price_output",
    "dry_run": "dry_run_estimate",
}


def _options_for(args: argparse.Namespace, fields: Iterable[str]) -> dict[str, Any]:
    """The parsed options that set these settings fields (those the command has)."""
    options = vars(args)
    return {
        name: options[_OPTION_OF_FIELD.get(name, name)]
        for name in fields
        # an option not given (None) leaves the field's default: `--timeout` unset is the
        # settings' default, raised to fit a latency judge-check measured (judges/modes.py)
        if options.get(_OPTION_OF_FIELD.get(name, name)) is not None
    }


def judge_settings(args: argparse.Namespace, **fixed: Any) -> JudgeSettings:
    """The judge's settings from a command's options (`fixed` ones win), checked as any
    caller's are (judges/settings.py)."""
    from pydantic import ValidationError

    from flows.judges.settings import JudgeSettings

    try:
        return JudgeSettings(**{**_options_for(args, JudgeSettings.model_fields), **fixed})
    except ValidationError as exc:
        raise settings_error(exc) from None


def run_settings(args: argparse.Namespace, *, flow: Literal["score", "nightly"]) -> ScoreSettings:
    """`faith score` and `faith nightly` (and `serve`): the run's settings and its judge's."""
    from pydantic import ValidationError

    from flows.run.settings import ScoreSettings

    judge = judge_settings(args)
    _offline_judge_takes_no_endpoint_option(judge)
    run_fields = (name for name in ScoreSettings.model_fields if name not in ("judge", "flow"))
    try:
        return ScoreSettings(**_options_for(args, run_fields), judge=judge, flow=flow)
    except ValidationError as exc:
        raise settings_error(exc) from None


# Options only a judge that calls an endpoint (--judge openai) uses.
_ENDPOINT_FIELDS = (
    "base_url",
    "api_key_env",
    "mode",
    "batch_wait",
    "llm_reason",
    "timeout",
    "rpm",
    "tpm",
    "max_output_tokens",
    "max_reply_bytes",
    "breaker_failures",
)


def _offline_judge_takes_no_endpoint_option(judge: JudgeSettings) -> None:
    """Refuse an endpoint's option given to an offline judge: `faith score logs/ --judge-mode
    batch --base-url URL` (--judge openai forgotten) scored with the grounded judge, exit 0."""
    if judge.kind == "openai":
        return
    for name in _ENDPOINT_FIELDS:
        if getattr(judge, name) != type(judge).model_fields[name].default:
            raise ConfigError(
                f"{_option_name((name,))} is an option of the LLM judge: give --judge openai "
                f"--model NAME with it, or leave it out (--judge {judge.kind} calls no endpoint)"
            )
