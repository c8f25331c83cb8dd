"""Whether the LLM judge's API key is there and can be sent: its variable set, not empty, and
nothing in it that an HTTP header cannot carry."""

from __future__ import annotations

import os
import re

# What no header value can carry: C0 controls (a line break among them) and DEL. httpx
# refuses them at each call, which the breaker counted as an endpoint that cannot be reached.
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


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
    return (
        f"the openai judge reads its API key from the environment variable {api_key_env}, "
        f"which is not set; export {api_key_env}=<key> (any non-empty value for a local "
        "server without auth), or name another variable with --api-key-env"
    )


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
