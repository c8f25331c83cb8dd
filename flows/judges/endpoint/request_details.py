"""The small print of a chat-completions request: token counts, the endpoint's printable
name, credentials in the URL, the structured-output request, Retry-After."""

from __future__ import annotations

import base64
import email.utils
import hashlib
import math
from datetime import UTC, datetime
from typing import Any
from urllib.parse import unquote, urlsplit

from faith_udfs.packed_prompts import reply_schema
from faith_udfs.replies import HALF_PAIR

# No reply costs more: a larger "count" is a broken or hostile server's, and stored as it is
# overflowed the token columns: polars refused 10**30 and the run crashed with exit 1.
MOST_TOKENS = 100_000_000


def token_count(value: Any, estimate: int) -> int:
    """A token count from a reply's usage, or the estimate when it is missing or not a count
    (not an integer, negative, or past MOST_TOKENS)."""
    counted = isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= MOST_TOKENS
    return value if counted else estimate


def endpoint_name(base_url: str | None) -> str:
    """Host and port of the endpoint: never the userinfo, path or query (they may hold keys)."""
    if not base_url:
        return "api.openai.com"
    parts = urlsplit(base_url)
    host = parts.hostname or "?"
    return f"{host}:{parts.port}" if parts.port else host


def base_url_problem(base_url: str) -> str | None:
    """Why the HTTP client cannot call `base_url` (without credentials), or None. Never
    quotes a URL without `://`, whose credentials (`user:password@host`) were not split off."""
    if any(char.isspace() or not char.isprintable() for char in base_url):
        # urlsplit strips or keeps what the client refuses (exit 1) or reads as a relative
        # URL (a leading space: exit 6, `could not be connected to`)
        return (
            "it holds white space or a control character (a line break or a space copied "
            "with it?), which no request can carry"
        )
    if "://" not in base_url:
        return "it does not start with http:// or https://"
    problem = _parts_problem(base_url)
    if problem is None and "?" in base_url:  # an empty query too: /v1/?chat/completions
        # The OpenAI client appends the request's path after it: /v1/?key=…chat/completions.
        return (
            "it has a query (?…), which the client would send glued to the request's path; "
            "give a key with --api-key-env, not in the URL"
        )
    return problem


def _parts_problem(base_url: str) -> str | None:
    """Why the scheme, host or port of `base_url` cannot be called, or None."""
    try:
        parts = urlsplit(base_url)
        parts.port  # noqa: B018 - raises ValueError for a port that is no number from 0 to 65535
    except ValueError as exc:
        return str(exc)
    if parts.scheme.lower() not in ("http", "https"):
        return f"its scheme is {parts.scheme or 'missing'!r}, not http or https"
    if not parts.hostname:
        return "it names no host"
    import httpx2  # the client's own parser (an IDNA host), loaded here only with a base URL

    try:
        httpx2.URL(base_url)
    except httpx2.InvalidURL as exc:
        return str(exc)
    return None


def url_without_query(url: str) -> str:
    """`url` without its query and fragment (`?key=…`, `#…`), cut as text: fit to show in a
    message even when the URL does not parse."""
    return url.split("?", 1)[0].split("#", 1)[0]


def endpoint_key(base_url: str | None) -> str:
    """What an endpoint is remembered by in the database: the first 32 hex digits of the
    SHA-256 of its base URL without credentials (never the URL itself)."""
    public = split_userinfo(base_url)[0].rstrip("/") if base_url else "https://api.openai.com/v1"
    return hashlib.sha256(public.encode()).hexdigest()[:32]


def split_userinfo(url: str) -> tuple[str, str | None]:
    """(the URL without `user:password@`, that userinfo or None). Split as text at the last
    `@`, so a password holding `/`, `?`, `#` or `@` (often not percent-encoded in a config)
    neither stays in the URL nor breaks URL parsing. (An OpenAI-compatible base URL has no `@`
    in its path.)"""
    scheme, sep, rest = url.partition("://")
    userinfo, at, host_and_path = rest.rpartition("@")
    if not sep or not at:
        return url, None
    return f"{scheme}{sep}{host_and_path}", userinfo


def without_userinfo(base_url: str | None) -> tuple[str | None, str | None]:
    """The URL without `user:password@`, and those credentials as a Basic auth header."""
    if not base_url:
        return base_url, None
    public, userinfo = split_userinfo(base_url)
    if userinfo is None:
        return base_url, None
    user, _, password = userinfo.partition(":")
    token = base64.b64encode(f"{unquote(user)}:{unquote(password)}".encode()).decode()
    return public, f"Basic {token}"


def chat_request_body(
    model: str,
    messages: list[dict[str, str]],
    *,
    schema: str,
    response_format: str,
    max_tokens: int,
    parameters: dict[str, Any],
    limit_field: str = "max_tokens",
) -> dict[str, Any]:
    """The one body of a chat-completions request: model, messages, the request parameters,
    `max_tokens` (always sent: a server without it generates until its context is full) and
    the structured-output request of `response_format` (json_schema, json_object or text).
    `limit_field` is `max_completion_tokens` for servers that refuse `max_tokens` (OpenAI's
    reasoning models).

    The live judge posts it; a Batch-API judge writes it as the `body` of a JSONL line.
    """
    return {
        "model": model,
        "messages": messages,
        **parameters,
        limit_field: int(max_tokens),
        **format_request(response_format, schema),
    }


def conversation(prompt: str, previous: tuple[str, str] | None = None) -> list[dict[str, str]]:
    """The messages of one question: the prompt as a single user turn; asked again, the
    previous reply as the assistant's turn and the note as the next user turn, so roles
    alternate as every chat template (Gemma's, Llama's, ...) demands. No system role."""
    messages = [{"role": "user", "content": prompt}]
    if previous is not None:
        reply, note = previous
        messages += [
            # half of a UTF-16 pair (a reply cut inside an emoji) is no text a body can carry
            {"role": "assistant", "content": HALF_PAIR.sub("\N{REPLACEMENT CHARACTER}", reply)},
            {"role": "user", "content": note},
        ]
    return messages


def format_request(kind: str, schema: str) -> dict[str, Any]:
    """The `response_format` field of one structured-output kind (none for text)."""
    if kind == "json_schema":
        name = schema.replace(".", "_")
        return {
            "response_format": {
                "type": "json_schema",
                "json_schema": {"name": name, "strict": True, "schema": reply_schema(schema)},
            }
        }
    if kind == "json_object":
        return {"response_format": {"type": "json_object"}}
    return {}


def _number(text: str) -> float:
    """A header's number; `nan` is none (it compared false with every wait, and hid the
    other header's), so ValueError as for any word."""
    number = float(text)
    if math.isnan(number):
        raise ValueError(text)
    return number


def retry_after_seconds(headers: Any, ceiling: float) -> float | None:
    """Seconds the server asks us to wait (`retry-after-ms` or `Retry-After`), capped."""
    seconds: float | None = None
    millis = headers.get("retry-after-ms")
    if millis is not None:
        try:
            seconds = _number(millis) / 1000
        except ValueError:
            seconds = None
    value = headers.get("retry-after")
    if seconds is None and value is not None:
        try:
            seconds = _number(value)
        except ValueError:
            try:
                when = email.utils.parsedate_to_datetime(value)
            except (TypeError, ValueError):
                when = None
            if when is not None:
                if when.tzinfo is None:
                    when = when.replace(tzinfo=UTC)
                seconds = (when - datetime.now(UTC)).total_seconds()
    if seconds is None:
        return None
    return min(max(seconds, 0.0), ceiling)
