"""One asyncio loop on its own thread, where every request runs under its deadline."""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import threading
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")

log = logging.getLogger(__name__)


class LoopThread:
    """One asyncio loop on its own thread, where an endpoint's requests run: a request there
    can be cancelled at its deadline, or by a stop, wherever it is."""

    def __init__(self, name: str) -> None:
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name=name, daemon=True)
        self._thread.start()

    def run(self, coroutine: Coroutine[Any, Any, T], wait: float) -> T:
        """Run `coroutine` on the loop and wait at most `wait` seconds for it (then cancel it).

        Raises TimeoutError past `wait`, concurrent.futures.CancelledError when cancelled.
        """
        future = asyncio.run_coroutine_threadsafe(coroutine, self._loop)
        try:
            return future.result(timeout=wait)
        except TimeoutError:
            future.cancel()
            raise

    def cancel_all(self) -> None:
        """Cancel every coroutine running on the loop."""

        def cancel() -> None:
            for task in asyncio.all_tasks(self._loop):
                task.cancel()

        if self._thread.is_alive():
            self._loop.call_soon_threadsafe(cancel)

    def close(self, last: Coroutine[Any, Any, None], wait: float) -> None:
        """Run `last` (e.g. closing the client), then stop the loop and its thread."""
        if not self._thread.is_alive():
            last.close()
            return
        try:
            self.run(last, wait)
            self.run(self._loop.shutdown_default_executor(), wait)
        except (TimeoutError, concurrent.futures.CancelledError):
            log.warning("the judge's HTTP connections did not close within %g s", wait)
        finally:
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(wait)
            if not self._thread.is_alive():
                self._loop.close()
