"""The life every test HTTP server shares: listen on a free 127.0.0.1 port, serve from a
daemon thread while in a `with` block, shut down and join on the way out."""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Self


class LoopbackServer:
    """Base of the test servers: `_listen` in __init__, then use as a context manager."""

    _server: ThreadingHTTPServer
    _thread: threading.Thread

    def _listen(
        self, handler: type[BaseHTTPRequestHandler], server: type[ThreadingHTTPServer], **on: Any
    ) -> None:
        """Bind a free port; `on` become attributes of the server, where handlers find them."""
        self._server = server(("127.0.0.1", 0), handler)
        for name, value in on.items():
            setattr(self._server, name, value)
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def __enter__(self) -> Self:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join()
