"""`faith ARGV` through its entry point in the test's process: its exit code and output, as
a subprocess would give them, without an interpreter start (~1-2 CPU-seconds each)."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from flows.cli import main


@dataclass(frozen=True)
class Done:
    """How a `faith` command ended: its exit code, what it wrote to stdout and stderr."""

    returncode: int
    stdout: str
    stderr: str

    @classmethod
    def of(cls, ran: subprocess.CompletedProcess[str]) -> Done:
        """A subprocess's ending, for the same checks."""
        return cls(ran.returncode, ran.stdout, ran.stderr)


def faith_here(capture: pytest.CaptureFixture[str], *argv: str) -> Done:
    """`main(argv)`; `capture` is capsys, or capfd to take what reaches the file descriptors
    too (a line written past sys.stdout or sys.stderr)."""
    capture.readouterr()
    code = main(list(argv))
    out = capture.readouterr()
    return Done(code, out.out, out.err)


def faith_process(*argv: str) -> subprocess.CompletedProcess[str]:
    """`faith ARGV` in a process of its own, from the repository's root, 2 minutes at most:
    where its exit code and stderr lines, or another process's view of the database, are
    the point."""
    return subprocess.run(
        [sys.executable, "-m", "flows.cli", *argv],
        cwd=Path(__file__).resolve().parents[2],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
