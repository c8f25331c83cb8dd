"""A key sent in clear: a `--base-url http://…` whose host is out on the network.

Every request carries the API key (or the URL's `user:password`, as Basic auth) in a header,
and over plain http anyone on the path reads it, and the prompts. A server on this machine
or on one's own network (vLLM on a LAN box, a compose service) is commonly called over http
and is not refused, nor warned of: a loopback, private, link-local or shared (100.64/10)
address, `localhost`, a one-word name (`vllm`, resolved by /etc/hosts or a container
network) or a name under a local suffix (`.local`, `.lan`, `.internal`, `.home.arpa`). Any
other host over http is warned of once a process, in one line on stderr that names the host
and the variable, never the key.
"""

from __future__ import annotations

import ipaddress
import logging
import threading
from urllib.parse import urlsplit

__all__ = ["cleartext_host", "leave_to_the_flow_process", "warn_if_cleartext"]

log = logging.getLogger("faithpipe")

_LOCAL_SUFFIXES = (".localhost", ".local", ".lan", ".internal", ".home.arpa", ".localdomain")
_SHARED = ipaddress.ip_network("100.64.0.0/10")  # carrier-grade NAT, Tailscale: not the Internet
_warned: set[str] = set()
_lock = threading.Lock()
# Set in a Dask worker (flows/engines/worker_setup.py): the flow process warns for the run.
_left_to_flow = threading.Event()


def cleartext_host(base_url: str | None) -> str | None:
    """The host (and port) a plain-http `base_url` sends the key to across the network, or
    None: https, no URL (api.openai.com, over https), or a host of this machine or network."""
    if not base_url:
        return None
    try:
        parts = urlsplit(base_url)
        host, port = (parts.hostname or "").rstrip(".").lower(), parts.port
    except ValueError:  # a URL no client can call: refused elsewhere, never a crash here
        return None
    if parts.scheme.lower() != "http" or not host or _nearby(host):
        return None
    return f"{host}:{port}" if port else host


def _nearby(host: str) -> bool:
    try:
        address = ipaddress.ip_address(host)
    except ValueError:  # a name
        return host == "localhost" or "." not in host or host.endswith(_LOCAL_SUFFIXES)
    return (
        address.is_loopback
        or address.is_private
        or address.is_link_local
        or (address.version == 4 and address in _SHARED)
    )


def warn_if_cleartext(base_url: str | None, api_key_env: str) -> None:
    """One warning line, once a process for each such host, when the key would cross the
    network unencrypted; the run goes on (a LAN server over http is common)."""
    host = cleartext_host(base_url)
    if host is None or _left_to_flow.is_set():
        return
    with _lock:
        if host in _warned:
            return
        _warned.add(host)
    sent = "user:password of --base-url" if "@" in urlsplit(base_url or "").netloc else None
    log.warning(
        "the judge endpoint %s is called over plain http: the %s and the prompts cross the "
        "network unencrypted; use https:// for a server outside this machine and network",
        host,
        sent or f"API key in ${api_key_env}",
    )


def leave_to_the_flow_process() -> None:
    """No warning from this process (a Dask worker): the flow process builds the run's judge
    first and warns once for the run; each worker's own line, forwarded to the terminal, said
    it again once a worker."""
    _left_to_flow.set()
