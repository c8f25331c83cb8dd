"""What a judge's calls cost: calls, cached answers, failures, retries, tokens; per item too."""

from __future__ import annotations

import threading


class Usage:
    """Thread-safe run counters."""

    FIELDS = (
        "calls",
        "cached",
        "failed",
        "retries",
        "throttled",
        "prompt_tokens",
        "completion_tokens",
        "estimated",  # calls whose token counts are estimates (the server sent no usage)
        "escalated",  # items a packed reply left unusable, asked again alone
    )

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._counts = dict.fromkeys(self.FIELDS, 0)
        self._items: list[tuple[str, int, float, int, int, bool]] = []

    def add(self, **counts: int) -> None:
        with self._lock:
            for name, value in counts.items():
                self._counts[name] += value

    def get(self, name: str) -> int:
        with self._lock:
            return self._counts[name]

    def tokens(self) -> int:
        with self._lock:
            return self._counts["prompt_tokens"] + self._counts["completion_tokens"]

    def snapshot(self) -> dict[str, int]:
        with self._lock:
            return dict(self._counts)

    def record_items(self, rows: list[tuple[str, int, float, int, int, bool]]) -> None:
        with self._lock:
            self._items.extend(rows)

    def drain_items(self) -> list[tuple[str, int, float, int, int, bool]]:
        with self._lock:
            rows, self._items = self._items, []
            return rows
