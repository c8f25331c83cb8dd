"""Who holds a database's write lock, in words a reader's message can name."""

from __future__ import annotations

from pathlib import Path


def lock_holder(pid: str | None) -> str:
    """The process holding the lock, for a reader: `a faith run (pid N)` when its command line
    says so (Linux /proc), else `process N`."""
    if pid is None:
        return "another process"
    try:
        argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    except OSError:
        return f"process {pid}"
    names = {Path(arg.decode(errors="replace")).name for arg in argv[:2]}
    if "faith" in names or {b"flows", b"flows.cli"} & set(argv):
        return f"a faith run (pid {pid})"
    return f"process {pid}"
