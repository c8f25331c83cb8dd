"""The wheel works outside the repository: built, installed into an empty folder, and run
from a directory that is not the repository, with the source tree off sys.path (issue 13)."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import duckdb
import pytest

from tests.support.wheel import build_wheel

ROOT = Path(__file__).resolve().parents[1]


def _run(*args: str, cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        args, cwd=cwd, env=env, capture_output=True, text=True, timeout=180, check=False
    )


@pytest.mark.wheel
def test_the_installed_wheel_runs_the_demo_outside_the_repository(tmp_path: Path) -> None:
    wheel = build_wheel(ROOT, tmp_path)
    names = set(zipfile.ZipFile(wheel).namelist())
    for shipped in (
        "flows/read/bundled/sample_cases.parquet",
        "flows/read/bundled/golden.parquet",
        "flows/store/sql/001_tables.sql",
        "flows/cli/__main__.py",
    ):
        assert shipped in names

    site = tmp_path / "site"
    installed = _run(
        sys.executable, "-m", "pip", "install", "--no-deps", "--no-index", "--quiet",
        "--target", str(site), str(wheel),
        cwd=tmp_path,
    )  # fmt: skip
    assert installed.returncode == 0, installed.stderr

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONSAFEPATH")}
    env["PYTHONPATH"] = str(site)
    where = _run(
        sys.executable, "-c", "import flows; print(flows.__file__)", cwd=elsewhere, env=env
    )
    assert Path(where.stdout.strip()).is_relative_to(site), where.stdout + where.stderr

    version = _run(sys.executable, "-m", "flows", "--version", cwd=elsewhere, env=env)
    assert version.returncode == 0, version.stderr
    assert version.stdout.startswith("faith 0.")

    db = elsewhere / "faith.duckdb"
    demo = _run(
        sys.executable, "-m", "flows", "demo", "--prefect", "no", "--db", str(db),
        cwd=elsewhere, env=env,
    )  # fmt: skip
    assert demo.returncode == 0, demo.stderr
    con = duckdb.connect(str(db), read_only=True)
    try:
        scored = con.execute("SELECT count(*) FROM case_scores WHERE status = 'scored'").fetchone()
    finally:
        con.close()
    assert scored is not None
    assert scored[0] > 0

    # The nightly run reads the bundled golden set; the report reads the database.
    sample = site / "flows" / "read" / "bundled" / "sample_cases.parquet"
    nightly = _run(
        sys.executable, "-m", "flows", "nightly", str(sample), "--prefect", "no", "--db", str(db),
        cwd=elsewhere, env=env,
    )  # fmt: skip
    assert nightly.returncode == 0, nightly.stderr
    assert "judge check on" in nightly.stdout
    report = _run(sys.executable, "-m", "flows", "report", "--db", str(db), cwd=elsewhere, env=env)
    assert report.returncode == 0, report.stderr
