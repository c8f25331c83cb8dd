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
# A secret shorter than this is cut out as a whole word only: the key `test` (any value will
# do for a server without auth) cut out of "the latest tests" stored the claims mangled, and
# made cases invalid. Keys providers issue are far longer; a short one is cut where it stands
# alone, as an echo of it does.
_WHOLE_WORD_BELOW = 12
# A user name alone is cut as a whole word from this length: "admin" or "user" are words of
# replies too (and cutting them would change the claims judged); user:password always goes.
_SHORTEST_NAME = 6
_secrets: set[str] = set()
_words: set[str] = set()  # short secrets and user names: cut out as whole words only
# Short secrets of letters alone (`test`, `none`, `EMPTY`, `ollama`): placeholders. A model's
# text keeps them (scrub(..., model_text=True)): there they are words of what it says.
_placeholders: set[str] = set()
_lock = threading.Lock()
# The secrets longest first (a secret inside a longer one goes with it), and the patterns of
# whole words: every one, and those a model's text loses.
_compiled: dict[str, Any] = {"ordered": [], "words": None, "model_words": None}

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


def register_secret(value: str | None, *, key: bool = False) -> None:
    """Cut `value` out of every text scrubbed from now on (as sent, JSON-escaped, URL-quoted
    and base64-encoded). `key`: an API key, which when short and of letters alone is a
    placeholder a model's text keeps (a password never is)."""
    if not value or len(value) < _SHORTEST:
        return
    forms = {value, json.dumps(value)[1:-1], quote(value, safe=""), _b64(value)}
    _add(forms, placeholders=key)


def register_endpoint_secrets(api_key: str | None, base_url: str | None) -> None:
    """An endpoint's secrets: its key, and the credentials of its URL (user:password@): the
    pair and the password in plain, URL-quoted and base64 form, the user name as a word
    (from 6 characters)."""
    register_secret(api_key, key=True)
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
        _words.update(name for name in {user, unquote(user)} if len(name) >= _SHORTEST_NAME)
        _compile_words()


def scrub(text: str, *, model_text: bool = False) -> str:
    """`text` without the registered secrets and without any Authorization value.
    `model_text`: what a model wrote (a reply's content, a batch's results), which keeps a
    short key of letters alone, a placeholder such as `test`, where it is a word of the text."""
    if not text:
        return text
    with _lock:
        secrets = list(_compiled["ordered"])
        names = _compiled["model_words" if model_text else "words"]
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


def scrub_bytes(data: bytes, *, model_text: bool = False) -> bytes:
    """`scrub` of a body or file read as UTF-8 (undecodable bytes kept as they were)."""
    text = data.decode("utf-8", "surrogateescape")
    return scrub(text, model_text=model_text).encode("utf-8", "surrogateescape")


class ScrubbingFilter(logging.Filter):
    """A handler's filter: every record's message scrubbed before it is written."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        cleaned = scrub(message)
        if cleaned != message:
            record.msg, record.args = cleaned, None
        return True


def _add(forms: set[str], *, placeholders: bool = False) -> None:
    with _lock:
        kept = {form for form in forms if len(form) >= _SHORTEST}
        short = {form for form in kept if len(form) < _WHOLE_WORD_BELOW}
        _secrets.update(kept - short)
        _words.update(short)
        if placeholders:
            _placeholders.update(form for form in short if form.isalpha())
        else:  # a password of letters registered after a key of the same letters: cut
            _placeholders.difference_update(short)
        _compiled["ordered"] = sorted(_secrets, key=len, reverse=True)
        _compile_words()


def _compile_words() -> None:
    """The whole-word patterns of the short secrets and names (under `_lock`)."""
    for key, words in (("words", _words), ("model_words", _words - _placeholders)):
        alternatives = "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))
        _compiled[key] = re.compile(rf"(?<!\w)(?:{alternatives})(?!\w)") if alternatives else None


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
