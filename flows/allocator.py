"""How long polars' allocator keeps freed memory: set before polars loads (flows/__init__.py)."""

from __future__ import annotations

import os

# polars gives freed pages back to the OS after 0.5 s (jemalloc's dirty_decay_ms:500), so every
# batch of a run faulted its memory in afresh: ~1 s of system time per 1M rows. Kept 10 s, the
# next batch reuses them; peak RSS is still that of one batch in flight (bench/pipeline.py).
# polars appends this variable to its own setting, so ours wins; a value the user set wins too.
FREED_PAGES_KEPT = "dirty_decay_ms:10000,muzzy_decay_ms:10000"
# What polars writes into the variable when it loads: a process started by one that had
# imported polars inherits it, and that is polars' default, not a choice of the user.
POLARS_DEFAULT = "dirty_decay_ms:500,muzzy_decay_ms:1000"


def keep_freed_pages() -> None:
    """Ask polars' jemalloc to keep freed pages for reuse, unless the user configured it."""
    if os.environ.get("_RJEM_MALLOC_CONF") in (None, "", POLARS_DEFAULT):
        os.environ["_RJEM_MALLOC_CONF"] = FREED_PAGES_KEPT
