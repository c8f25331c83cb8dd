"""The folder layout is the architecture: faith_udfs stays pure, schemas import no I/O, the
rooms of flows/ import one way (tests/support/import_rules.py), importing changes nothing."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.import_rules import broken_rules, room_of

ROOT = Path(__file__).resolve().parents[1]

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
import sys
from flows.cli import main  # the `faith` console script
try:
    main(["--help"])
except SystemExit:
    pass
assert "polars" in sys.modules
print(os.environ["_RJEM_MALLOC_CONF"], file=sys.stderr)
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
        [sys.executable, "-c", ALLOCATOR],
        capture_output=True,
        text=True,
        check=True,
        env=env,
        cwd=ROOT,
    )
    # polars puts its own default first and appends what it found set: the last value wins.
    assert result.stderr.strip().startswith("dirty_decay_ms:500")
    assert result.stderr.strip().endswith("," + wanted)


def test_imports_run_one_way() -> None:
    assert broken_rules(ROOT) == []


def _tree(root: Path, modules: dict[str, str]) -> Path:
    for name, text in modules.items():
        path = root / Path(*name.split(".")).with_suffix(".py")
        path.parent.mkdir(parents=True, exist_ok=True)
        for parent in path.relative_to(root).parents:
            if parent != Path("."):
                (root / parent / "__init__.py").touch()
        path.write_text(text)
    return root


HOUSE = {
    "flows.store.db": "import duckdb\n",
    "flows.read.source": "import duckdb\nfrom flows.store.db import connect\n",
    "flows.run.pipeline": "from flows.read.source import x\nfrom flows.errors import E\n",
    "flows.orchestration.flow": "import prefect\nfrom flows.run import pipeline\n",
    "flows.cli.commands": "from flows.orchestration.flow import f\n",
    "flows.errors": "from faith_udfs.errors import FaithError\n",
    "faith_udfs.metric": "import polars\n",
}


def test_the_checker_passes_a_house_that_keeps_the_rules(tmp_path: Path) -> None:
    assert broken_rules(_tree(tmp_path, HOUSE)) == []


@pytest.mark.parametrize(
    ("module", "text", "broken"),
    [
        ("flows.store.writes", "from flows.run.pipeline import x\n", "store may not import run"),
        ("flows.read.golden", "from flows.cli.commands import f\n", "read may not import cli"),
        ("flows.report.html", "from flows.run import pipeline\n", "report may not import run"),
        ("flows.run.flow", "from prefect import flow\n", "only its own room may import prefect"),
        ("flows.run.batches", "import duckdb\n", "only its own room may import duckdb"),
        ("flows.engines.partitions", "import pyarrow.parquet\n", "only read/ reads Parquet"),
        ("faith_udfs.claims", "import duckdb\n", "faith_udfs is pure"),
        ("faith_udfs.scores", "from flows.errors import E\n", "faith_udfs is pure"),
        ("flows.errors", "from flows.run import pipeline\n", "a shared module imports no room"),
        # inside a function counts too
        ("flows.judges.llm", "def f():\n    from flows.run.pipeline import x\n", "judges may not"),
    ],
)
def test_the_checker_fails_on_a_forbidden_import(
    tmp_path: Path, module: str, text: str, broken: str
) -> None:
    problems = broken_rules(_tree(tmp_path, {**HOUSE, module: HOUSE.get(module, "") + text}))
    assert any(broken in problem for problem in problems), problems


def test_the_checker_fails_on_a_cycle(tmp_path: Path) -> None:
    house = {
        **HOUSE,
        "flows.cli.demo": "from flows.cli import commands\n",
        "flows.cli.commands": "def f():\n    from flows.cli import demo\n",
    }
    problems = broken_rules(_tree(tmp_path, house))
    assert problems == ["import cycle: flows.cli.commands -> flows.cli.demo"]


def test_a_type_only_library_import_loads_nothing(tmp_path: Path) -> None:
    text = "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import duckdb\n"
    assert broken_rules(_tree(tmp_path, {**HOUSE, "flows.run.batches": text})) == []


TYPE_ONLY = "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from {module} import X\n"


def test_a_type_only_import_up_the_house_is_refused(tmp_path: Path) -> None:
    # Issue 21: eight such imports hid from the checker (JudgeSettings, ScoredBatch, ...).
    text = TYPE_ONLY.format(module="flows.run.pipeline")
    problems = broken_rules(_tree(tmp_path, {**HOUSE, "flows.store.writes": text}))
    assert problems == [
        "flows.store.writes:3 imports (for types) flows.run.pipeline (store may not import run)"
    ]


def test_a_type_only_import_closes_a_cycle(tmp_path: Path) -> None:
    house = {
        **HOUSE,
        "flows.cli.demo": "from flows.cli import commands\n",
        "flows.cli.commands": TYPE_ONLY.format(module="flows.cli.demo"),
    }
    problems = broken_rules(_tree(tmp_path, house))
    assert problems == ["import cycle: flows.cli.commands -> flows.cli.demo"]


def test_every_module_of_flows_lives_in_a_room() -> None:
    shared = {
        "flows/__init__.py",
        "flows/__main__.py",
        "flows/errors.py",
        "flows/allocator.py",
        "flows/waits.py",
        "flows/printable.py",
        "flows/scrub.py",
        "flows/clock.py",
        "flows/scratch.py",
    }
    for path in (ROOT / "flows").rglob("*.py"):
        name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        assert room_of(name) or str(path.relative_to(ROOT)) in shared, name


UNCHANGED = """
import importlib, logging, os, pkgutil, sys
before = dict(os.environ)
# Ours only: importing prefect (orchestration/) sets prefect's own loggers, as it does anywhere.
levels = {name: logging.getLogger(name).level for name in ("", "faithpipe", "httpx")}
import flows
for module in pkgutil.walk_packages(flows.__path__, "flows."):
    if module.name not in ("flows.__main__", "flows.cli.__main__"):
        importlib.import_module(module.name)
# polars writes its allocator default into _RJEM_MALLOC_CONF when it loads (flows/allocator.py);
# pandera, when pandas is installed (the dev extra), sets two for pyspark
# (pandera/external_config.py)
theirs = {"_RJEM_MALLOC_CONF", "SPARK_LOCAL_IP", "PYARROW_IGNORE_TIMEZONE"}
changed = sorted(
    k for k in set(before) | set(os.environ)
    if before.get(k) != os.environ.get(k) and k not in theirs
)
after = {name: logging.getLogger(name).level for name in levels}
print(changed, after == levels, logging.getLogger("faithpipe").handlers)
"""


def test_importing_any_module_changes_no_environment_or_logging() -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PREFECT_", "_RJEM"))}
    env.pop("DO_NOT_TRACK", None)
    result = subprocess.run(
        [sys.executable, "-c", UNCHANGED],
        capture_output=True,
        text=True,
        check=True,
        env=env,
        cwd=ROOT,
        timeout=120,
    )
    assert result.stdout.strip().splitlines()[-1] == "[] True []"
