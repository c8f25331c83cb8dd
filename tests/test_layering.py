"""The folder layout is the architecture: faith_udfs stays pure, schemas import no I/O."""

from __future__ import annotations

import os
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


ALLOCATOR = """
import os
import flows.cli  # what the `faith` command loads first
print(os.environ["_RJEM_MALLOC_CONF"])
"""


@pytest.mark.parametrize(
    ("given", "wanted"),
    [
        (None, "dirty_decay_ms:10000,muzzy_decay_ms:10000"),
        # inherited from a parent process that had loaded polars: polars' default, replaced
        ("dirty_decay_ms:500,muzzy_decay_ms:1000", "dirty_decay_ms:10000,muzzy_decay_ms:10000"),
        ("dirty_decay_ms:0", "dirty_decay_ms:0"),  # the user's own choice
    ],
)
def test_the_cli_sets_the_allocator_before_polars_loads(given: str | None, wanted: str) -> None:
    env = {k: v for k, v in os.environ.items() if k != "_RJEM_MALLOC_CONF"}
    if given:
        env["_RJEM_MALLOC_CONF"] = given
    result = subprocess.run(
        [sys.executable, "-c", ALLOCATOR], capture_output=True, text=True, check=True, env=env
    )
    # polars puts its own default first and appends what it found set: the last value wins.
    assert result.stdout.strip().startswith("dirty_decay_ms:500")
    assert result.stdout.strip().endswith("," + wanted)
