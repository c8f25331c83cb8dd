"""The folder layout is the architecture: faith_udfs stays pure, schemas import no I/O."""

from __future__ import annotations

import subprocess
import sys

import pytest

CHECK = """
import sys
import {package}
io = ("prefect", "duckdb", "pandera", "openai", "httpx", "httpx2")
heavy = sorted(m for m in io if m in sys.modules)
print(",".join(heavy))
"""


@pytest.mark.parametrize(("package", "allowed"), [("faith_udfs", set()), ("schemas", {"pandera"})])
def test_package_imports_no_io_layer(package: str, allowed: set[str]) -> None:
    result = subprocess.run(
        [sys.executable, "-c", CHECK.format(package=package)],
        capture_output=True,
        text=True,
        check=True,
    )
    imported = set(filter(None, result.stdout.strip().split(",")))
    assert imported <= allowed, f"{package} imports {imported - allowed}"
