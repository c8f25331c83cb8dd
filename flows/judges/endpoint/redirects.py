"""A judge endpoint that redirects a call to another origin is not followed there: the prompts
(logged conversations) would go to a host the run was never told of, and a 301 turns the POST
into a GET whose error reads as a wrong model. A redirect within the origin is followed."""

from __future__ import annotations

from urllib.parse import urljoin, urlsplit

__all__ = ["RedirectRefused", "other_origin"]

REDIRECT_STATUSES = frozenset({301, 302, 303, 307, 308})
_DEFAULT_PORTS = {"http": 80, "https": 443}


class RedirectRefused(Exception):
    """The endpoint answered a call with a redirect to another origin; it was not followed."""

    def __init__(self, target: str) -> None:
        super().__init__(f"the endpoint redirected the call to {target}, which is not followed")
        self.target = target


def other_origin(url: str, location: str) -> str | None:
    """Where `location` (a redirect's, relative or not) points when that is another origin
    than `url`'s (scheme, host, port), as `scheme://host[:port]` (never its userinfo, path or
    query; a scheme other than http or https is not named); None when it is the same
    origin."""
    asked, target = urlsplit(url), urlsplit(urljoin(url, location))
    scheme, host, port = _origin(target)
    if _origin(asked) == (scheme, host, port):
        return None
    if scheme not in _DEFAULT_PORTS:  # never shown: lower-cased, its words pass the scrub
        return "a URL that is not http or https"
    # the host as the server wrote it: lower-cased, a key it echoed there passed the scrub
    written = target.netloc.rpartition("@")[2]
    start = written.lower().find(host)
    host = written[start : start + len(host)] if start >= 0 else host
    shown = "" if port in (None, _DEFAULT_PORTS.get(scheme)) else f":{port}"
    return f"{scheme}://{host}{shown}" if port != -1 else f"{scheme}://{host} (a bad port)"


def _origin(parts: object) -> tuple[str, str, int | None]:
    scheme = str(getattr(parts, "scheme", "")).lower()
    host = str(getattr(parts, "hostname", None) or "").lower()
    try:
        port = getattr(parts, "port", None) or _DEFAULT_PORTS.get(scheme)
    except ValueError:  # a port that is no number: never the origin asked
        port = -1
    return scheme, host, port
