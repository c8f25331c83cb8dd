"""The `faith` process leaves pandas and hypothesis to those who use them: pandera would load
both (~0.8 CPU-s of every start) for a pandas API faithpipe never calls
(flows/cli/lean_start.py)."""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
import types
from pathlib import Path

import pytest

from flows.cli.lean_start import HiddenFromPandera
from tests.support.builders import case_row, cases, many_cases, write


def _import_from(module_name: str, target: str) -> types.ModuleType:
    """Run `import target` as the code of a module called `module_name`."""
    scope: dict[str, object] = {"__name__": module_name}
    exec(f"import {target} as found", scope)
    return scope["found"]  # type: ignore[return-value]


def test_a_hidden_package_is_absent_for_pandera_and_present_for_others(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "probe_pkg").mkdir()
    (tmp_path / "probe_pkg" / "__init__.py").write_text("VALUE = 7\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    finder = HiddenFromPandera(frozenset({"probe_pkg"}))
    monkeypatch.setattr(sys, "meta_path", [finder, *sys.meta_path])
    with pytest.raises(ModuleNotFoundError, match="No module named 'probe_pkg'"):
        _import_from("pandera.engines.probe", "probe_pkg")
    assert "probe_pkg" not in sys.modules
    assert _import_from("flows.read.probe", "probe_pkg").VALUE == 7
    monkeypatch.delitem(sys.modules, "probe_pkg")
    assert _import_from("pandera_tools.probe", "probe_pkg").VALUE == 7  # not pandera itself
    monkeypatch.delitem(sys.modules, "probe_pkg")


def test_a_faith_run_validates_without_loading_pandas(tmp_path: Path) -> None:
    # a row without its log time breaks the data contract: pandera still does its work
    bad = cases([case_row("late", logged_at=None)])
    source = write(many_cases(40).vstack(bad), tmp_path / "cases.parquet")
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "flows", "score", str(source),
         "--db", str(tmp_path / "faith.duckdb"), "--prefect", "no"],
        check=False, capture_output=True, text=True, timeout=300,
        env={**os.environ, "NO_COLOR": "1"},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    imported = {line.split("|")[-1].strip() for line in done.stderr.splitlines() if "|" in line}
    assert "pandera.polars" in imported
    # (-X importtime lists a refused import too: a package loaded has its inner modules listed)
    assert not {"pandas.core.frame", "hypothesis.core"} & imported
    assert "scored 40, invalid 0, quarantined 1" in done.stdout + done.stderr


def test_the_report_room_loads_plotly_only_when_it_draws() -> None:
    probe = (
        "import sys, flows.cli.commands\n"
        "before = 'plotly' in sys.modules\n"
        "from flows.report import report_figures, DEFAULT_SEGMENT\n"
        "print(before, 'plotly' in sys.modules, callable(report_figures), DEFAULT_SEGMENT)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=300, check=True
    )
    assert done.stdout.split() == ["False", "True", "True", "app_version"]


def test_every_name_of_the_report_room_resolves_from_where_it_lives() -> None:
    import flows.report as report

    assert sorted(report.__all__) == sorted(report._HOMES)
    for name in report.__all__:
        home = importlib.import_module(f"flows.report.{report._HOMES[name]}")
        assert getattr(report, name) is getattr(home, name)
