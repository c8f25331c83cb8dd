"""Whether the LLM judge's API key is there and can be sent: its variable set, not empty, and
nothing in it that an HTTP header cannot carry."""

from __future__ import annotations

import os
import re

# What no header value can carry: C0 controls (a line break among them) and DEL. httpx
# refuses them at each call, which the breaker counted as an endpoint that cannot be reached.
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def missing_api_key(api_key_env: str) -> str | None:
    """The one-line error for an LLM judge whose key variable is unset or empty, or holds a
    key no HTTP header can carry, else None: checked before a run creates its database
    (judges/factory.py), and again where the client is built. Never the key itself."""
    if not api_key_env.strip():  # `--api-key-env "$KEY_VAR"` with KEY_VAR unset
        return (
            "--api-key-env is empty: name the environment variable that holds the API key "
            "(default OPENAI_API_KEY), e.g. --api-key-env OPENAI_API_KEY"
        )
    key = os.environ.get(api_key_env)
    if key:
        return _unsendable(api_key_env, key)
    if _looks_like_a_key(api_key_env):  # never repeated: the line goes to a night's log
        return (
            "--api-key-env takes the name of the variable that holds the API key, and what it "
            "was given is set nowhere and looks like a key itself (not shown here): export "
            "OPENAI_API_KEY=<key> and give --api-key-env OPENAI_API_KEY, or leave it out"
        )
    return (
        f"the openai judge reads its API key from the environment variable {api_key_env}, "
        f"which is not set; export {api_key_env}=<key> (any non-empty value for a local "
        "server without auth), or name another variable with --api-key-env"
    )


def _looks_like_a_key(name: str) -> bool:
    """Whether an unset variable's name is rather a key given in its place: 20 characters or
    more that are no variable name (`sk-…`, 32 hex digits: a dash, a leading digit), or hold
    a long run of lower-case letters and digits (`gsk_…`), where names are words
    (`OPENAI_API_KEY`, `team_key`). A short one is shown: it is a typo, not a key."""
    if len(name) < 20:
        return False
    if not _NAME.fullmatch(name):
        return True
    mixed = any(c.isdigit() for c in name) and any(c.islower() for c in name)
    return mixed and max(map(len, name.split("_"))) >= 16


def _unsendable(api_key_env: str, key: str) -> str | None:
    """Why `key` cannot be sent as `Authorization: Bearer <key>`, naming the variable only."""
    if key != key.strip():
        what = (
            "begins or ends with white space (a line break, as `echo KEY > file` leaves in a "
            "secret made from that file, is the usual cause)"
        )
    elif _CONTROL.search(key):
        what = "holds a control character"
    elif not key.isascii():
        what = "holds a character outside ASCII (a typographic quote or dash pasted with it?)"
    else:
        return None
    return (
        f"the API key in {api_key_env} {what}, which no HTTP header can carry: set it "
        "without, e.g. from a file with printf '%s' \"$(cat key.txt)\""
    )
