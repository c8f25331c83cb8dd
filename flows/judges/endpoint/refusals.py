"""What an endpoint's refusal means: a structured-output mode or a token-limit field it does
not take (ask again differently), a passing failure (retry), or a refusal of every call."""

from __future__ import annotations

import json
import re
from typing import Literal

import openai

from faith_udfs.errors import JudgeError

# Structured-output requests, best first; a server that refuses one gets the next, and the
# mode found is remembered per endpoint and model (flows/store/judge_memory.py).
FORMATS = ("json_schema", "json_object", "text")
# Words of an error body that blame the structured-output request (llama.cpp's server answers
# json_schema with a 500 whose body names `body.response_format.type`).
_FORMAT_WORDS = ("response_format", "json_schema")
# A 400/422 that speaks of these is about the prompt's size, not the response_format.
_SIZE_WORDS = ("context", "too long", "exceed")
# A 400/422 naming another field of ours is about that field ("max_tokens is too large",
# "Unsupported value: 'temperature'"): stepping the format down would not help.
_PARAMETERS = ("max_tokens", "max_completion_tokens", "temperature")
_OTHER_FIELDS = (*_PARAMETERS, "messages")
# A prompt's first run of characters that JSON, repr and HTML escaping all leave as they are:
# an error whose text holds it repeats our request back (an echoing server or proxy), so the
# words in it are ours, not the server's.
_PLAIN_RUN = re.compile(r"[A-Za-z0-9 .,;:|()_-]{24,}")
# 408 and 409 are what the openai client itself retries besides 429 and 5xx.
TRANSIENT_STATUS = frozenset({408, 409, 429})
# OpenAI's 429 once the account's credit is spent: no wait or retry ends it, so it refuses
# every call as a 401 does (FATAL_STATUS knows it by this code, not by its status).
QUOTA_SPENT = "insufficient_quota"
FATAL_STATUS: dict[int | str, str] = {
    401: "the endpoint refused the API key read from ${env} (HTTP 401); set a valid key",
    403: "the endpoint denied access to model {model!r} with the key read from ${env} "
    "(HTTP 403); check the key's permissions",
    404: "the endpoint has no model {model!r} or no chat-completions route at {endpoint} "
    "(HTTP 404); check --model and --base-url",
    QUOTA_SPENT: "the endpoint refused every call: the quota of the account whose key was "
    "read from ${env} is used up (HTTP 429 insufficient_quota); check its plan and billing",
}
# With credentials in --base-url (user:password@), those are sent instead of the key.
_BASIC_FATAL_STATUS: dict[int | str, str] = {
    401: "the endpoint refused the user name and password of --base-url (HTTP 401; sent as "
    "Basic auth, in place of the API key); correct them in --base-url",
    403: "the endpoint denied access to model {model!r} with the user name and password of "
    "--base-url (HTTP 403); check that user's permissions",
    QUOTA_SPENT: "the endpoint refused every call: the quota of the account whose user name "
    "and password --base-url gives is used up (HTTP 429 insufficient_quota); check its plan "
    "and billing",
}


class RequestRefused(JudgeError):
    """The endpoint refused one request (a 4xx that is no passing failure, no refusal of
    every call and no refused format): for what it holds (a content filter, a prompt too
    long), a pack it carried is asked item by item, so one item's prompt fails only its own
    cases; not when it names a parameter every call sends (temperature, max_tokens)."""

    @property
    def per_item(self) -> bool:
        """Whether asking a pack's items one by one may fare better."""
        text = str(self).lower()
        return not any(field in text for field in _PARAMETERS)


class FatalRefusals:
    """What each error that refuses every call says, naming what was refused: the key read
    from `env`, or the --base-url's user name and password when those are sent instead."""

    def __init__(self, env: str, model: str, endpoint: str, *, basic_auth: bool) -> None:
        templates = FATAL_STATUS | (_BASIC_FATAL_STATUS if basic_auth else {})
        self._messages = {
            kind: template.format(env=env, model=model, endpoint=endpoint)
            for kind, template in templates.items()
        }

    def message_for(self, exc: openai.APIStatusError) -> str | None:
        """The message of an error that refuses every call (None for any other): a 401,
        403 or 404, or the 429 that says the account's credit is spent. Never the server's
        text, which may echo the key."""
        spent = exc.status_code == 429 and QUOTA_SPENT in (exc.code, exc.type)
        return self._messages.get(QUOTA_SPENT if spent else exc.status_code)


def wants_completion_tokens(exc: openai.APIStatusError, body: dict[str, object]) -> bool:
    """Whether the server wants `max_completion_tokens` instead of `max_tokens` (OpenAI's
    reasoning models answer 400 "Unsupported parameter: 'max_tokens' ...")."""
    if exc.status_code != 400 or "max_tokens" not in body:
        return False
    return "max_completion_tokens" in f"{exc.message} {json.dumps(exc.body, default=str)}"


def format_refusal(exc: openai.APIStatusError, prompt: str) -> Literal["named", "unnamed"] | None:
    """Whether the server refused our response_format, and how surely.

    "named": the error names `response_format` or `json_schema` in its own words (llama.cpp
    answers 500 with a `literal_error` at `body.response_format.type`). "unnamed": a 400/422
    ("unrecognized argument") that speaks neither of the context's size nor of another field
    we send (max_tokens, temperature, messages): maybe the format, maybe the prompt (a content
    filter), which only asking in the next mode tells. None: not a refusal. An error that
    repeats `prompt` back is read by its status alone: the words in it are our own request's.
    """
    body = json.dumps(exc.body, default=str) if exc.body is not None else ""
    text = f"{exc.message} {exc.param or ''} {body}".lower()
    plain = _PLAIN_RUN.search(prompt)
    if plain is not None and plain.group().lower() in text:
        text = ""  # an echo: nothing in it is the server's word
    if any(word in text for word in _FORMAT_WORDS):
        return "named"
    elsewhere = (*_SIZE_WORDS, *_OTHER_FIELDS)
    if exc.status_code in (400, 422) and not any(word in text for word in elsewhere):
        return "unnamed"
    return None
