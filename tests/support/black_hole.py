"""Endpoints that never answer, for the circuit breaker's tests: a port nobody listens on,
and a server that accepts every connection and never sends a byte."""

from __future__ import annotations

import socket
import threading


def free_port() -> int:
    """A 127.0.0.1 port nobody listens on (a connection to it is refused)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


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
            self._held.append(connection)
            self.connections += 1

    def __enter__(self) -> BlackHole:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(5)
        self._listener.close()
        for connection in self._held:
            connection.close()
