"""Secrets out of every text a server sends, before it is stored, logged or printed.

A server may echo what it received: the key, the `Authorization` header (`Bearer <key>`,
`Basic <base64 of user:password>`), the credentials of a base URL. `scrub` is the one
function every boundary uses (the chat endpoint's replies and errors, the Batch API's answers
and files, log lines, the CLI's error line): it cuts out the secrets registered by the
endpoints this process talks to, in every form they travel in, and any Authorization value.
"""

from __future__ import annotations

import base64
import binascii
import json
import logging
import re
import threading
from typing import Any
from urllib.parse import quote, unquote

__all__ = [
    "REDACTED",
    "ScrubbingFilter",
    "register_endpoint_secrets",
    "register_secret",
    "scrub",
    "scrub_bytes",
]

REDACTED = "[redacted]"
# A secret shorter than this is cut out only inside its longer forms (user:password, base64):
# cutting every "ab" out of a reply would mangle it.
_SHORTEST = 4
# A user name alone is cut as a whole word from this length: "admin" or "user" are words of
# replies too (and cutting them would change the claims judged); user:password always goes.
_SHORTEST_NAME = 6
_secrets: set[str] = set()
_names: set[str] = set()  # user names: cut out as whole words only
_lock = threading.Lock()
# The secrets longest first (a secret inside a longer one goes with it), and the names' pattern.
_compiled: dict[str, Any] = {"ordered": [], "names": None}

# Any Authorization-like header's value, as a header line, a JSON field or a repr (but not a
# placeholder of our own help: `export OPENAI_API_KEY=<key>`).
_HEADER = re.compile(
    r"""(?ix)
    (["']?(?:proxy-)?authorization["']?|["']?x-api-key["']?|["']?api[-_]key["']?)
    (\s*[:=]\s*)
    ("[^"\r\n]*"|'[^'\r\n]*'|(?!<)[^\s,;}"'\\]+(?:[ \t]+[^\s,;}"'\\]+)?)
    """
)
# `Bearer <token>`: a token has a digit, a dash or a dot (keys do; "Bearer bonds" does not).
_BEARER = re.compile(r"(?i)\b(bearer)\s+(?=[^\s\"']*[\d._-])[^\s\"'\\,;}]{6,}")
# `Basic <base64>`: cut when it decodes to user:password ("Basic facts" does not).
_BASIC = re.compile(r"(?i)\b(basic)\s+([A-Za-z0-9+/]{4,}={0,2})")
# Credentials written into any URL: scheme://user:password@host.
_USERINFO = re.compile(r"(?i)\b([a-z][a-z0-9+.-]*://)[^\s/@\"'<>]+@")
# OpenAI-style keys, whoever's they are.
_KEY_LIKE = re.compile(r"\bsk-[A-Za-z0-9_-]{12,}")


def register_secret(value: str | None) -> None:
    """Cut `value` out of every text scrubbed from now on (as sent, JSON-escaped, URL-quoted
    and base64-encoded)."""
    if not value or len(value) < _SHORTEST:
        return
    forms = {value, json.dumps(value)[1:-1], quote(value, safe=""), _b64(value)}
    _add(forms)


def register_endpoint_secrets(api_key: str | None, base_url: str | None) -> None:
    """An endpoint's secrets: its key, and the credentials of its URL (user:password@): the
    pair and the password in plain, URL-quoted and base64 form, the user name as a word
    (from 6 characters)."""
    register_secret(api_key)
    if not base_url:
        return
    rest = base_url.partition("://")[2]
    userinfo, at, _ = rest.rpartition("@")
    if not at:
        return
    user, _, password = userinfo.partition(":")
    plain = f"{unquote(user)}:{unquote(password)}"
    _add({userinfo, plain, _b64(plain), _b64(userinfo)})
    for secret in {password, unquote(password)}:
        register_secret(secret)
    with _lock:
        _names.update(name for name in {user, unquote(user)} if len(name) >= _SHORTEST_NAME)
        words = "|".join(re.escape(name) for name in sorted(_names, key=len, reverse=True))
        _compiled["names"] = re.compile(rf"(?<![\w]){words}(?![\w])") if words else None


def scrub(text: str) -> str:
    """`text` without the registered secrets and without any Authorization value."""
    if not text:
        return text
    with _lock:
        secrets, names = list(_compiled["ordered"]), _compiled["names"]
    for secret in secrets:
        if secret in text:
            text = text.replace(secret, REDACTED)
    text = _HEADER.sub(_header, text)
    text = _BEARER.sub(lambda m: f"{m.group(1)} {REDACTED}", text)
    text = _BASIC.sub(_basic, text)
    text = _USERINFO.sub(lambda m: f"{m.group(1)}{REDACTED}@", text)
    text = _KEY_LIKE.sub(REDACTED, text)
    if names is not None:
        text = names.sub(REDACTED, text)
    return text


def scrub_bytes(data: bytes) -> bytes:
    """`scrub` of a body or file read as UTF-8 (undecodable bytes kept as they were)."""
    return scrub(data.decode("utf-8", "surrogateescape")).encode("utf-8", "surrogateescape")


class ScrubbingFilter(logging.Filter):
    """A handler's filter: every record's message scrubbed before it is written."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        cleaned = scrub(message)
        if cleaned != message:
            record.msg, record.args = cleaned, None
        return True


def _add(forms: set[str]) -> None:
    with _lock:
        _secrets.update(form for form in forms if len(form) >= _SHORTEST)
        _compiled["ordered"] = sorted(_secrets, key=len, reverse=True)


def _header(match: re.Match[str]) -> str:
    """A header's name as it was, its value cut (quoted when it was: JSON stays JSON)."""
    value = match.group(3)
    quote_mark = value[0] if value[0] in "\"'" else ""
    return f"{match.group(1)}{match.group(2)}{quote_mark}{REDACTED}{quote_mark}"


def _b64(value: str) -> str:
    return base64.b64encode(value.encode()).decode()


def _basic(match: re.Match[str]) -> str:
    token = match.group(2)
    try:
        decoded = base64.b64decode(token + "=" * (-len(token) % 4), validate=True)
    except (binascii.Error, ValueError):
        return match.group(0)
    return f"{match.group(1)} {REDACTED}" if b":" in decoded else match.group(0)
