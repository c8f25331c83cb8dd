"""What an echoing server sends back: everything it received, credentials first.

Hostile or careless servers (and proxies) echo the request's headers into their errors; the
test servers' echo modes answer with this text so a test can show that none of it is kept,
logged or printed. The Authorization header leads (an error clipped to its first few hundred
characters still holds it), with a Basic value's decoded `user:password` beside it.
"""

from __future__ import annotations

import base64
import binascii
from typing import Any


def echo_text(headers: Any, body: bytes, *, path: str = "") -> str:
    """Every header and the body of a request, as one text, Authorization first."""
    authorization = headers.get("Authorization", "")
    decoded = ""
    scheme, _, token = authorization.partition(" ")
    if scheme.lower() == "basic":
        try:
            decoded = base64.b64decode(token).decode("utf-8", "replace")
        except (binascii.Error, ValueError):
            decoded = "?"
    lines = [f"you sent Authorization: {authorization} ({decoded or 'not basic'}) to {path}"]
    lines += [f"{name}: {value}" for name, value in headers.items()]
    lines.append(body.decode("utf-8", "replace")[:2000])
    return "\n".join(lines)
