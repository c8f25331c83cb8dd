"""Options every faithpipe task shares."""

from __future__ import annotations

from typing import Any

from prefect.cache_policies import NO_CACHE

# Frames pass between tasks in memory: no caching (hashing a big frame costs 0.25 s a call)
# and no result persistence (a pickled 1M-row frame is 33 MB), stack-notes §1d.
TASK_OPTIONS: dict[str, Any] = {"cache_policy": NO_CACHE, "persist_result": False}
