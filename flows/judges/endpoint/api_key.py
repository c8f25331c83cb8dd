"""Whether the LLM judge's API key is there: its variable set and not empty."""

from __future__ import annotations

import os


def missing_api_key(api_key_env: str) -> str | None:
    """The one-line error for an LLM judge whose key variable is unset or empty, else None:
    checked before a run creates its database (judges/factory.py), and again where the
    client is built."""
    if not api_key_env.strip():  # `--api-key-env "$KEY_VAR"` with KEY_VAR unset
        return (
            "--api-key-env is empty: name the environment variable that holds the API key "
            "(default OPENAI_API_KEY), e.g. --api-key-env OPENAI_API_KEY"
        )
    if os.environ.get(api_key_env):
        return None
    return (
        f"the openai judge reads its API key from the environment variable {api_key_env}, "
        f"which is not set; export {api_key_env}=<key> (any non-empty value for a local "
        "server without auth), or name another variable with --api-key-env"
    )
