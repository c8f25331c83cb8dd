"""Endpoints that never answer, for the circuit breaker's tests: a port nobody listens on,
and a server that accepts every connection and never sends a byte."""

from __future__ import annotations

import socket
import threading
from contextlib import suppress


def free_port() -> int:
    """A 127.0.0.1 port nobody listens on (a connection to it is refused)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


CUT_SHORT = (
    b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
    b'Content-Length: 500\r\n\r\n{"id": "chatcmpl-1", '
)
NOT_HTTP = b"SSH-2.0-OpenSSH_9.6\r\nProtocol mismatch.\r\n\r\n"


class BlackHole:
    """Accepts every connection and never sends a byte; counts the connections."""

    def __init__(self) -> None:
        self._listener = socket.create_server(("127.0.0.1", 0), backlog=128)
        # Closing a socket does not wake an accept() blocked on it in another thread (Linux):
        # the accepting thread looks for the stop between short waits instead, and the exit
        # took the join's whole 5 s.
        self._listener.settimeout(0.05)
        self._stop = threading.Event()
        self._held: list[socket.socket] = []
        self.connections = 0
        self._thread = threading.Thread(target=self._accept, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._listener.getsockname()[1]}/v1"

    def _accept(self) -> None:
        while not self._stop.is_set():
            try:
                connection, _ = self._listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            self.connections += 1
            self._serve(connection)

    def _serve(self, connection: socket.socket) -> None:
        """Hold the connection open, never sending a byte."""
        self._held.append(connection)

    def __enter__(self) -> BlackHole:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(5)
        self._listener.close()
        for connection in self._held:
            connection.close()


class CutShort(BlackHole):
    """Reads each request, starts a 200 answer of 500 bytes and closes the connection after
    its first few: a server that dies (or a proxy that drops it) mid-answer; or, given other
    bytes, answers them and closes (`NOT_HTTP`: a port where another service listens)."""

    def __init__(self, answer: bytes = CUT_SHORT) -> None:
        super().__init__()
        self._answer = answer

    def _serve(self, connection: socket.socket) -> None:
        """Read the request, send the answer's bytes, hang up."""
        with connection, suppress(OSError):
            connection.settimeout(2)
            connection.recv(1 << 20)
            connection.sendall(self._answer)


HEALTHY = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 4\r\n\r\ntrue"


class HealthyBlackHole(BlackHole):
    """A Prefect API that answers its health check and nothing else: every other request's
    connection is held open without a byte (a server hung past its health endpoint)."""

    @property
    def api_url(self) -> str:
        return f"http://127.0.0.1:{self._listener.getsockname()[1]}/api"

    def _serve(self, connection: socket.socket) -> None:
        with suppress(OSError):
            connection.settimeout(2)
            request = connection.recv(1 << 16)
            if request.startswith(b"GET /api/health "):
                with connection:
                    connection.sendall(HEALTHY)
                return
        self._held.append(connection)
