"""What an endpoint's refusal means: a structured-output mode or a token-limit field it does
not take (ask again differently), a passing failure (retry), or a refusal of every call."""

from __future__ import annotations

import json

import openai

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
_OTHER_FIELDS = ("max_tokens", "max_completion_tokens", "temperature", "messages")
# 408 and 409 are what the openai client itself retries besides 429 and 5xx.
TRANSIENT_STATUS = frozenset({408, 409, 429})
FATAL_STATUS = {
    401: "the endpoint refused the API key read from ${env} (HTTP 401); set a valid key",
    403: "the endpoint denied access to model {model!r} with the key read from ${env} "
    "(HTTP 403); check the key's permissions",
    404: "the endpoint has no model {model!r} or no chat-completions route at {endpoint} "
    "(HTTP 404); check --model and --base-url",
}
# With credentials in --base-url (user:password@), those are sent instead of the key.
_BASIC_FATAL_STATUS = {
    401: "the endpoint refused the user name and password of --base-url (HTTP 401; sent as "
    "Basic auth, in place of the API key); correct them in --base-url",
    403: "the endpoint denied access to model {model!r} with the user name and password of "
    "--base-url (HTTP 403); check that user's permissions",
}


def fatal_messages(env: str, model: str, endpoint: str, *, basic_auth: bool) -> dict[int, str]:
    """What each status that refuses every call says, naming what was refused: the key read
    from `env`, or the --base-url's user name and password when those are sent instead."""
    templates = FATAL_STATUS | (_BASIC_FATAL_STATUS if basic_auth else {})
    return {
        status: template.format(env=env, model=model, endpoint=endpoint)
        for status, template in templates.items()
    }


def wants_completion_tokens(exc: openai.APIStatusError, body: dict[str, object]) -> bool:
    """Whether the server wants `max_completion_tokens` instead of `max_tokens` (OpenAI's
    reasoning models answer 400 "Unsupported parameter: 'max_tokens' ...")."""
    if exc.status_code != 400 or "max_tokens" not in body:
        return False
    return "max_completion_tokens" in f"{exc.message} {json.dumps(exc.body, default=str)}"


def refuses_format(exc: openai.APIStatusError) -> bool:
    """Whether the server refused our response_format.

    Refused means: any status whose body names `response_format` or `json_schema` (llama.cpp
    answers 500), or a 400/422 ("unrecognized argument") unless its body speaks of the
    context's size or names another field we send (max_tokens, temperature, messages).
    A refusal will not change on retry, so it is never retried as it was.
    """
    body = json.dumps(exc.body, default=str) if exc.body is not None else ""
    text = f"{exc.message} {exc.param or ''} {body}".lower()
    names = any(word in text for word in _FORMAT_WORDS)
    elsewhere = (*_SIZE_WORDS, *_OTHER_FIELDS)
    invalid = exc.status_code in (400, 422) and not any(word in text for word in elsewhere)
    return names or invalid
