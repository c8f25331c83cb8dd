"""Which redirects of a judge endpoint are followed: within its origin only."""

from __future__ import annotations

import pytest

from flows.judges.endpoint.redirects import other_origin

ASKED = "http://127.0.0.1:8080/v1/chat/completions"


@pytest.mark.parametrize(
    ("location", "elsewhere"),
    [
        ("/v2/chat/completions", None),  # another path of the same server
        ("http://127.0.0.1:8080/v1/chat/completions/", None),
        ("HTTP://127.0.0.1:8080/x", None),  # the scheme's case is no other origin
        ("http://127.0.0.1:9090/v1/chat/completions", "http://127.0.0.1:9090"),
        ("https://127.0.0.1:8080/v1/chat/completions", "https://127.0.0.1:8080"),
        ("http://evil.example/collect?k=1", "http://evil.example"),
        ("http://user:secret@evil.example:81/x", "http://evil.example:81"),  # no userinfo
        ("//evil.example/x", "http://evil.example"),  # scheme-relative
        ("https://api.example:abc/x", "https://api.example (a bad port)"),  # refused, no error
        ("http://127.0.0.1:99999/x", "http://127.0.0.1 (a bad port)"),
        ("http://Collect.Example/x", "http://Collect.Example"),  # as written: scrubbed so
        ("KeyAb12Cd34://collect.example/", "a URL that is not http or https"),  # lower-cased
        ("KeyAb12Cd34:rest", "a URL that is not http or https"),
    ],
)
def test_a_redirect_is_followed_within_the_origin_only(
    location: str, elsewhere: str | None
) -> None:
    assert other_origin(ASKED, location) == elsewhere


def test_default_ports_are_the_same_origin() -> None:
    assert other_origin("https://api.example.com/v1/x", "https://api.example.com:443/v2") is None
    assert other_origin("http://api.example.com/v1/x", "http://api.example.com:80/v2") is None
