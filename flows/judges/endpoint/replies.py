"""What a chat-completions endpoint answered, read: the reply's text, why it ended and what
it cost, from a body that may be a chat completion, an error object, or neither."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import openai

from flows.judges.endpoint.breaker import EndpointFailure
from flows.judges.endpoint.request_details import token_count
from flows.scrub import scrub


@dataclass(frozen=True)
class Reply:
    """One chat completion's text, why it ended, what it cost (`estimated`: the server sent
    no usage, so the tokens are characters / 4), and the `max_tokens` it was asked with."""

    text: str
    finish_reason: str | None
    prompt_tokens: int
    completion_tokens: int
    estimated: bool = False
    max_tokens: int = 0

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens


def json_body(raw: Any) -> Any:
    """The answer's body as JSON, or None when it is not JSON (a proxy's HTML page, empty)."""
    try:
        return json.loads(raw.content)
    except (ValueError, RecursionError):  # RecursionError: nested past the interpreter's depth
        return None


def error_answer(answer: Any, raw: Any) -> openai.APIStatusError | None:
    """A 200 whose body is an error object without choices (OpenRouter, some LiteLLM setups):
    the refusal it is, read as an HTTP error would be (a format refusal steps down)."""
    if not isinstance(answer, dict) or "choices" in answer:
        return None
    error = answer.get("error")
    if not isinstance(error, dict):
        return None
    message = scrub(str(error.get("message") or error))
    return openai.APIStatusError(message, response=raw.http_response, body=error)


def _content_text(content: Any) -> str:
    """A message's text: a string, or the text parts of a list of content parts."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(
            part["text"]
            for part in content
            if isinstance(part, dict) and isinstance(part.get("text"), str)
        )
    return ""


def clipped(text: str, secret: str | None, limit: int = 300) -> str:
    """Server text fit for an error: every credential cut out (flows/scrub.py; some servers
    echo the key or the Authorization header), the key too, then clipped."""
    text = scrub(text)
    if secret:
        text = text.replace(secret, "[redacted]")
    return text if len(text) <= limit else text[: limit - 1] + "…"


def reply_of(
    raw: Any,
    completion: Any,
    messages: list[dict[str, str]],
    max_tokens: int,
    *,
    secret: str | None,
) -> Reply:
    """The text and usage of a chat completion (`completion`: the body as JSON, or None);
    EndpointFailure (kind "answer") when it is not one (a proxy's HTML page, an empty body,
    JSON of another shape), counted by the circuit breaker: a proxy answering every call so is
    not asked 5 times a call for every case. `secret` is cut out of what an error shows."""
    choices = completion.get("choices") if isinstance(completion, dict) else None
    choice = choices[0] if isinstance(choices, list) and choices else None
    message = choice.get("message") if isinstance(choice, dict) else None
    if not isinstance(message, dict) and isinstance(choice, dict) and "text" in choice:
        message = {"content": choice["text"]}  # a server answering in the completions shape
    if not isinstance(message, dict) or not isinstance(choice, dict):
        # a header is server text as the body is: scrubbed and clipped (a proxy echoing
        # the key into it stored it in every case's error)
        kind = clipped(raw.headers.get("content-type") or "no content type", secret, 80)
        body = " ".join(raw.content.decode("utf-8", "replace").split())
        shown = repr(clipped(body, secret, 120)) if body else "an empty body"
        raise EndpointFailure(
            f"the endpoint's answer is not a chat completion (HTTP {raw.status_code}, "
            f"{kind}): {shown}",
            "answer",
        )
    text = scrub(_content_text(message.get("content")), model_text=True)  # its echoes, too
    finish = choice.get("finish_reason")
    usage = completion.get("usage")
    usage = usage if isinstance(usage, dict) else {}
    # Servers that report no usage get an estimate (4 characters a token) so caps hold;
    # the reply and the run say the figures are estimates.
    asked = sum(len(message["content"]) for message in messages)
    prompt_tokens = token_count(usage.get("prompt_tokens"), asked // 4)
    completion_tokens = token_count(usage.get("completion_tokens"), len(text) // 4)
    estimated = (prompt_tokens, completion_tokens) != (
        usage.get("prompt_tokens"),
        usage.get("completion_tokens"),
    )
    return Reply(
        text,
        finish if isinstance(finish, str) else None,
        prompt_tokens,
        completion_tokens,
        estimated=estimated,
        max_tokens=max_tokens,
    )
