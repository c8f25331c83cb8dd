"""A bench/ script run as `__main__` in the test's process: its exit code and output, as a
subprocess would give them, without an interpreter start and its imports (~0.5-2 CPU-s)."""

from __future__ import annotations

import contextlib
import io
import runpy
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench"


def bench_here(script: str, *args: str) -> subprocess.CompletedProcess[str]:
    """`python bench/SCRIPT ARGS` in this process: `sys.exit`'s code is the return code (0 if
    the script just ends), stdout and stderr are captured; sys.argv and sys.path, which the
    scripts extend, are put back."""
    path = BENCH / script
    command = [str(path), *args]
    argv, sys_path = sys.argv, list(sys.path)
    stdout, stderr = io.StringIO(), io.StringIO()
    code: object = None
    sys.argv = command
    try:
        with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
            runpy.run_path(str(path), run_name="__main__")
    except SystemExit as exit_:
        code = exit_.code
        if isinstance(code, str):  # `raise SystemExit("message")`: printed, status 1
            stderr.write(code + "\n")
    finally:
        sys.argv, sys.path[:] = argv, sys_path
    returncode = 0 if code is None else code if isinstance(code, int) else 1
    return subprocess.CompletedProcess(command, returncode, stdout.getvalue(), stderr.getvalue())
