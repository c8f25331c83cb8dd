"""A TCP proxy to a real server that can stop answering at once, as a server paused with
`kill -STOP` does: connections stay open, nothing more reaches either side."""

from __future__ import annotations

import socket
import threading
from contextlib import suppress
from urllib.parse import urlsplit, urlunsplit


class PausableProxy:
    """Forwards 127.0.0.1:port to `target_url`'s host and port until `pause()`."""

    def __init__(self, target_url: str) -> None:
        parts = urlsplit(target_url)
        self._target = (parts.hostname or "127.0.0.1", parts.port or 80)
        self._parts = parts
        self._listener = socket.create_server(("127.0.0.1", 0), backlog=128)
        self._listener.settimeout(0.05)
        self._stop = threading.Event()
        self._paused = threading.Event()
        self._sockets: list[socket.socket] = []
        self._thread = threading.Thread(target=self._accept, daemon=True)

    @property
    def url(self) -> str:
        """`target_url` with this proxy's port in its place."""
        port = self._listener.getsockname()[1]
        return urlunsplit(self._parts._replace(netloc=f"127.0.0.1:{port}"))

    def pause(self) -> None:
        self._paused.set()

    def __enter__(self) -> PausableProxy:
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._stop.set()
        self._thread.join(5)
        for held in [self._listener, *self._sockets]:
            with suppress(OSError):
                held.close()

    def _accept(self) -> None:
        while not self._stop.is_set():
            try:
                client, _ = self._listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            if self._paused.is_set():  # a paused server takes the connection, answers nothing
                self._sockets.append(client)
                continue
            try:
                upstream = socket.create_connection(self._target, timeout=5)
            except OSError:
                client.close()
                continue
            self._sockets += [client, upstream]
            for source, sink in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(source, sink), daemon=True).start()

    def _pipe(self, source: socket.socket, sink: socket.socket) -> None:
        source.settimeout(0.1)
        while not self._stop.is_set():
            try:
                data = source.recv(65536)
            except TimeoutError:
                continue
            except OSError:
                return
            if not data:
                with suppress(OSError):
                    sink.shutdown(socket.SHUT_WR)
                return
            if not self._paused.is_set():  # paused: read and dropped, never answered
                with suppress(OSError):
                    sink.sendall(data)
