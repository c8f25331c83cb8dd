"""docs/calibration.md's examples run as written: the shell commands, the Python, the SQL and
the prefect.yaml parameters (issue 20, item 4)."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import duckdb
import polars as pl
import pytest
import yaml

from flows.cli import main
from flows.run.settings import ScoreSettings
from tests.support.planted import planted_cases, separating_supports

LOW, HIGH = separating_supports()  # a perfect cut-off lies above LOW, at most HIGH

DOC = Path(__file__).resolve().parents[3] / "docs" / "calibration.md"


def blocks(language: str) -> list[str]:
    """The doc's fenced blocks of one language, in order."""
    return re.findall(rf"^```{language}\n(.*?)^```", DOC.read_text(), re.MULTILINE | re.DOTALL)


def test_the_shell_example_and_the_sql_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    cases = planted_cases(40)
    cases.drop("label").write_parquet("cases.parquet")
    cases.select("case_id", "label").write_csv("labels.csv")
    (shell,) = blocks("bash")
    commands = [line for line in shell.splitlines() if line.strip()]
    assert [shlex.split(line)[:2] for line in commands] == [
        ["faith", "score"],
        ["faith", "calibrate"],
        ["faith", "score"],
    ]
    for line in commands:
        assert main(shlex.split(line)[1:]) == 0, line
    assert "calibration 'support-team' stored in faith.duckdb" in capsys.readouterr().out
    (query,) = blocks("sql")
    con = duckdb.connect("faith.duckdb", read_only=True)
    try:
        rows = con.sql(query).pl()
        series = con.sql("SELECT count(DISTINCT config_id) AS n FROM case_scores").pl()
    finally:
        con.close()
    assert rows["name"].to_list() == ["support-team"]
    assert LOW < rows["supported"][0] <= HIGH
    assert rows["balanced_accuracy"][0] == pytest.approx(1.0)
    assert series["n"][0] == 2  # the default judge's series and the calibrated one


def test_the_python_example_runs() -> None:
    (code,) = blocks("python")
    cases = planted_cases(40)
    names = {
        "cases": cases.drop("label"),
        "labels": cases.select("case_id", label=pl.col("label") == 1),
    }
    exec(code, names)  # the doc's own example
    assert LOW < names["validation"].cutoffs.supported <= HIGH
    assert names["frames"].case_scores["success"].sum() == 20


def test_the_prefect_yaml_parameters_name_a_calibration() -> None:
    (parameters,) = blocks("yaml")
    settings = yaml.safe_load(parameters)["parameters"]["settings"]
    assert ScoreSettings.model_validate(settings).judge.calibration == "support-team"
