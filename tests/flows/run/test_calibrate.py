"""`faith calibrate` and `--calibration NAME` on a real DuckDB file (issue 20, items 4 and 7):
a planted set whose fitted cut-off beats the default, the refusals (exit 2, one line, nothing
stored), the calibrated config series, and the same rows as the Python API."""

from __future__ import annotations

import decimal
import gzip
import io
import json
import re
import shutil
import subprocess
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import duckdb
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from faith_udfs import Cutoffs, GroundedJudge, MetricConfig, score_cases
from faith_udfs.calibration_weights import MIN_WEIGHT_LABELS
from faith_udfs.errors import ConfigError
from faith_udfs.grounded import (
    GroundedV2Judge,
    GroundedV3Judge,
    GroundedV4Judge,
    GroundedV5Judge,
    GroundedV6Judge,
)
from flows.cli import main
from flows.cli.calibrate_command import reading
from flows.errors import InputUnreadable
from flows.judges.settings import JudgeSettings
from flows.nightly.nightly_run import run_nightly
from flows.read.labels import read_labels
from flows.report import config_names
from flows.run.calibrate import MIN_LABELS, calibrate, check_labels
from flows.run.pipeline import run_score
from flows.run.settings import ScoreSettings
from flows.store.calibrations import labelled_cases
from schemas import Calibrations
from tests.support.builders import COMPARED, case_row, cases, write
from tests.support.cli_run import faith_process as faith
from tests.support.db_reading import frame as query
from tests.support.planted import planted_cases, separating_supports

LOW, HIGH = separating_supports()  # a perfect cut-off lies above LOW, at most HIGH

CASES = planted_cases(40)


def faith_here(*args: str) -> subprocess.CompletedProcess:
    """The same `faith` command run in this process (its imports already paid for): what it
    printed on stdout and stderr, and its exit code, as `faith()` gives them."""
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(list(args))
    return subprocess.CompletedProcess(["faith", *args], code, out.getvalue(), err.getvalue())


@pytest.fixture(scope="module")
def scored(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path]:
    """The planted cases scored by the default judge, and their labels as CSV."""
    folder = tmp_path_factory.mktemp("calibrate")
    source = write(CASES.drop("label"), folder / "cases.parquet")
    db = folder / "f.duckdb"
    run = run_score(ScoreSettings(source=str(source), db=str(db)))
    assert run["rows_in"] == run["rows_scored"] == 40  # = scored + 0 invalid + 0 pending + 0 q.
    labels = folder / "labels.csv"
    CASES.select("case_id", "label").write_csv(labels)
    return source, db, labels


@pytest.fixture(scope="module")
def calibrated(scored: tuple[Path, Path, Path]) -> tuple[Path, Path, subprocess.CompletedProcess]:
    """The planted labels fitted and stored as `planted`, through the command line."""
    source, db, labels = scored
    db = Path(shutil.copy(db, db.with_name("calibrated.duckdb")))  # `scored` stays uncalibrated
    done = faith(
        "calibrate", str(labels), "--db", str(db), "--name", "planted", "--resamples", "200"
    )
    return source, db, done


def test_calibrate_fits_a_cutoff_that_beats_the_default(
    calibrated: tuple[Path, Path, subprocess.CompletedProcess],
) -> None:
    _, db, done = calibrated
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("calibration 'planted' stored in")
    assert lines[1] == "judge weights: the rules version's own (fewer than 100 labelled cases)"
    assert "5-fold cross-validation on 40 labelled cases (20 labelled 1), seed 0" in lines[2]
    accuracy = next(line for line in lines if line.startswith("balanced accuracy"))
    assert accuracy.split()[2:6:3] == ["1.000", "0.500"]  # calibrated, uncalibrated
    assert lines[-1] == (
        "cross-validation: the calibration agrees with the labels better than the default "
        "judge (the balanced accuracy's interval lies above 0)"
    )
    stored = query(db, "SELECT * FROM calibrations")
    Calibrations.validate(stored, lazy=True)
    row = stored.row(0, named=True)
    assert LOW < row["supported"] <= HIGH  # the default passes every planted case
    assert (row["judge_kind"], row["judge_model"], row["labels"], row["positives"]) == (
        "grounded",
        GroundedJudge.rules_version,
        40,
        20,
    )
    table = json.loads(row["agreement"])["table"]
    assert [r["metric"] for r in table] == ["balanced_accuracy", "cohen_kappa", "roc_auc"]


def score_calibrated(source: Path, db: Path) -> tuple[Cutoffs, MetricConfig]:
    """`faith score --calibration planted` of `source` into `db`; the calibration's cut-offs
    and the metric config they score with."""
    code = main(
        ["score", str(source), "--db", str(db), "--prefect", "no", "--calibration", "planted"]
    )
    assert code == 0
    row = query(db, "SELECT * FROM calibrations").row(0, named=True)
    cutoffs = Cutoffs(row["supported"], row["silent"], row["threshold"])
    return cutoffs, MetricConfig(threshold=cutoffs.threshold)


def test_score_with_a_calibration_is_its_own_series_with_the_python_apis_rows(
    calibrated: tuple[Path, Path, subprocess.CompletedProcess], tmp_path: Path
) -> None:
    source, db, done = calibrated
    assert done.returncode == 0, done.stderr
    db = Path(shutil.copy(db, tmp_path / "f.duckdb"))
    cutoffs, config = score_calibrated(source, db)
    expected = score_cases(CASES.drop("label"), GroundedJudge(cutoffs), config).case_scores
    calibrated_id = config.config_id(GroundedJudge(cutoffs).identity)
    default_id = MetricConfig().config_id(GroundedJudge().identity)
    assert calibrated_id != default_id
    configs = query(db, "SELECT config_id, count(*) AS n FROM case_scores GROUP BY ALL ORDER BY 1")
    assert dict(configs.rows()) == {calibrated_id: 40, default_id: 40}
    stored = query(db, f"SELECT * FROM case_scores WHERE config_id = '{calibrated_id}'")
    columns = ["config_id", *COMPARED]
    assert (
        stored.select(columns)
        .sort("case_id")
        .equals(expected.select(columns).cast(stored.select(columns).schema).sort("case_id"))
    )
    assert stored["success"].sum() == 20  # the faithful half passes, and only it
    run = query(db, f"SELECT config FROM runs WHERE config_id = '{calibrated_id}'")
    judge = json.loads(run["config"][0])["judge"]
    assert judge["options"] == dict(cutoffs.judge_options())


def test_a_given_threshold_wins_over_the_calibrations(
    calibrated: tuple[Path, Path, subprocess.CompletedProcess], tmp_path: Path
) -> None:
    source, db, _ = calibrated
    db = Path(shutil.copy(db, tmp_path / "f.duckdb"))
    settings = ScoreSettings(
        source=str(source), db=str(db), threshold=1.0, judge=JudgeSettings(calibration="planted")
    )
    run_score(settings)
    thresholds = query(db, "SELECT DISTINCT threshold FROM case_scores ORDER BY 1")["threshold"]
    assert thresholds.to_list() == [0.5, 1.0]


def test_the_nightly_judge_check_uses_the_calibration(
    calibrated: tuple[Path, Path, subprocess.CompletedProcess], tmp_path: Path
) -> None:
    source, db, _ = calibrated
    db = Path(shutil.copy(db, tmp_path / "f.duckdb"))
    settings = ScoreSettings(
        source=str(source), db=str(db), judge=JudgeSettings(calibration="planted")
    )
    run = run_nightly(settings)
    row = query(db, "SELECT * FROM calibrations").row(0, named=True)
    cutoffs = Cutoffs(row["supported"], row["silent"], row["threshold"])
    calibrated_id = MetricConfig(threshold=cutoffs.threshold).config_id(
        GroundedJudge(cutoffs).identity
    )
    assert run["config_id"] == run["judge_check"]["config_id"] == calibrated_id
    assert query(db, "SELECT config_id FROM judge_checks")["config_id"].to_list() == [calibrated_id]


def relabelled(db: Path, folder: Path, rules: str) -> Path:
    """A copy of `db` whose calibration `planted` says it was fitted for `rules`."""
    db = Path(shutil.copy(db, folder / "relabelled.duckdb"))
    con = duckdb.connect(str(db))
    try:
        con.execute("UPDATE calibrations SET judge_model = ?", [rules])
    finally:
        con.close()
    return db


def test_serve_refuses_a_calibration_no_night_could_read(
    calibrated: tuple[Path, Path, subprocess.CompletedProcess],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`faith serve --calibration plantd` (a typo) scheduled a deployment whose every night
    failed at 02:00; it is refused now, naming the stored ones, as `faith nightly` refuses it.
    The name stays a parameter: the night reads what is stored under it then."""
    source, db, _ = calibrated
    serve = ["serve", str(source), "--db", str(db), "--dry-run", "--calibration"]
    assert main([*serve, "plantd"]) == 2
    err = capsys.readouterr().err
    assert "--calibration 'plantd': no such calibration" in err
    assert "(stored: planted)" in err
    assert len(err.strip().splitlines()) == 1
    assert main([*serve, "planted"]) == 0
    parameters = json.loads(capsys.readouterr().out)["parameters"]
    assert parameters["settings"]["judge"] == {"calibration": "planted"}
    # a database no calibration was stored in: refused too, the file left as it was
    missing = tmp_path / "none.duckdb"
    assert main(["serve", str(source), "--db", str(missing), "--dry-run", "--calibration=x"]) == 2
    assert "does not exist yet" in capsys.readouterr().err
    assert not missing.exists()


def test_without_a_name_the_calibration_is_named_after_the_labels_file(
    scored: tuple[Path, Path, Path], tmp_path: Path
) -> None:
    source, db, labels = scored
    db = Path(shutil.copy(db, tmp_path / "f.duckdb"))
    named = Path(shutil.copy(labels, tmp_path / "support-team.csv"))
    done = faith_here("calibrate", str(named), "--db", str(db), "--resamples", "50")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"calibration 'support-team' stored in {db}")
    argv = ["score", str(source), "--db", str(db), "--prefect", "no"]
    assert main([*argv, "--calibration", "support-team"]) == 0
    assert query(db, "SELECT name FROM calibrations")["name"].to_list() == ["support-team"]


def test_a_gzip_csv_of_labels_is_read_and_named_without_its_extensions(
    scored: tuple[Path, Path, Path], tmp_path: Path
) -> None:
    """`support-team.csv.gz`, gzipped as the logs may be, was read as Parquet (exit 3)."""
    _, db, labels = scored
    db = Path(shutil.copy(db, tmp_path / "f.duckdb"))
    packed = tmp_path / "support-team.csv.gz"
    packed.write_bytes(gzip.compress(labels.read_bytes()))
    assert read_labels(packed).equals(read_labels(labels))
    done = faith_here("calibrate", str(packed), "--db", str(db), "--resamples", "50")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"calibration 'support-team' stored in {db}")


REFIT_CASES = planted_cases(MIN_WEIGHT_LABELS + 20)


@pytest.fixture(scope="module")
def refitted(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, dict[str, str]]:
    """120 planted cases scored, then calibrated twice through `faith calibrate` in this
    process (faith_here: the same argv, stdout, stderr and exit code; `calibrated` keeps the
    child process): `weights` as it runs by default (the judge's weights refitted: 100 labels
    or more) and `cut` with --cutoffs-only; the source, the database and each run's output."""
    folder = tmp_path_factory.mktemp("refit")
    source = write(REFIT_CASES.drop("label"), folder / "cases.parquet")
    db = folder / "f.duckdb"
    run = run_score(ScoreSettings(source=str(source), db=str(db)))
    assert run["rows_in"] == run["rows_scored"] == REFIT_CASES.height
    labels = folder / "labels.csv"
    REFIT_CASES.select("case_id", "label").write_csv(labels)
    outputs = {}
    for name, extra in (("weights", []), ("cut", ["--cutoffs-only"])):
        done = faith_here(
            "calibrate", str(labels), "--db", str(db), "--name", name, "--resamples", "100", *extra
        )
        assert done.returncode == 0, done.stderr
        outputs[name] = done.stdout
        outputs[f"{name} log"] = done.stderr
    return source, db, outputs


def test_calibrate_refits_the_judges_weights_from_100_labels(
    refitted: tuple[Path, Path, dict[str, str]],
) -> None:
    _, db, outputs = refitted
    refit_line = outputs["weights"].splitlines()[1]
    assert refit_line.startswith("judge weights refitted on the labels, on each fold too: ")
    assert outputs["cut"].splitlines()[1] == (
        "judge weights: the rules version's own (--cutoffs-only)"
    )
    # beside the table, the same folds fitting the cut-offs alone (planted: both separate)
    alone = [line for line in outputs["weights"].splitlines() if line.startswith("cut-offs only")]
    assert alone == [
        "cut-offs only        1.000 [1.000, 1.000]   (the same folds, the judge's own weights: "
        "--cutoffs-only)"
    ]
    assert "cut-offs only" not in outputs["cut"]
    # progress on stderr: each fold's refit, then the fit on every label
    fits = re.findall(
        r"calibrate: weights refitted on (\d+) labels, 120 cases judged again \(fit (\d)",
        outputs["weights log"],
    )
    assert fits == [("96", str(k)) for k in range(1, 6)] + [("120", "6")]
    assert "weights refitted" not in outputs["cut log"]
    stored = query(db, "SELECT * FROM calibrations ORDER BY name")
    Calibrations.validate(stored, lazy=True)
    cut, refit = stored.rows(named=True)
    assert cut["weights"] is None
    weights = json.loads(refit["weights"])
    assert list(weights) == list(GroundedJudge.weights)
    assert weights != GroundedJudge.weights
    fold_weights = json.loads(refit["agreement"])["fold_weights"]
    assert len(fold_weights) == 5
    assert all(set(w) == set(weights) for w in fold_weights)  # each fold's own fit
    assert json.loads(cut["agreement"])["fold_weights"] == [None] * 5
    table = json.loads(refit["agreement"])["cutoffs_only_table"]
    assert [r["metric"] for r in table] == ["balanced_accuracy", "cohen_kappa", "roc_auc"]
    assert json.loads(cut["agreement"])["cutoffs_only_table"] is None


def test_score_with_refitted_weights_is_its_own_series_with_the_python_apis_rows(
    refitted: tuple[Path, Path, dict[str, str]], tmp_path: Path
) -> None:
    source, db, _ = refitted
    db = Path(shutil.copy(db, tmp_path / "f.duckdb"))
    series = {}
    for name in ("weights", "cut"):
        argv = ["score", str(source), "--db", str(db), "--prefect", "no", "--calibration", name]
        assert main(argv) == 0
        row = query(db, f"SELECT * FROM calibrations WHERE name = '{name}'").row(0, named=True)
        weights = None if row["weights"] is None else json.loads(row["weights"])
        cutoffs = Cutoffs(row["supported"], row["silent"], row["threshold"], weights=weights)
        config = MetricConfig(threshold=cutoffs.threshold)
        judge = GroundedJudge(cutoffs)
        series[name] = config.config_id(judge.identity)
        expected = score_cases(REFIT_CASES.drop("label"), judge, config).case_scores
        stored = query(db, f"SELECT * FROM case_scores WHERE config_id = '{series[name]}'")
        columns = ["config_id", *COMPARED]
        assert stored.height == REFIT_CASES.height
        assert (
            stored.select(columns)
            .sort("case_id")
            .equals(expected.select(columns).cast(stored.select(columns).schema).sort("case_id"))
        )
    default_id = MetricConfig().config_id(GroundedJudge().identity)
    assert len({default_id, *series.values()}) == 3
    # the report names each series by its own calibration, weights compared too: a
    # calibration of the same cut-offs without weights (listed first) names neither
    con = duckdb.connect(str(db))
    try:
        con.execute(
            "INSERT INTO calibrations SELECT * REPLACE ('a-same-cuts' AS name, NULL AS weights) "
            "FROM calibrations WHERE name = 'weights'"
        )
        names = config_names(con)
    finally:
        con.close()
    for name, config_id in series.items():
        assert f"calibration {name} [" in names[config_id]
    # the planted labels are separable: the refitted judge passes exactly the faithful cases
    passed = query(
        db, f"SELECT case_id FROM case_scores WHERE config_id = '{series['weights']}' AND success"
    )
    faithful = REFIT_CASES.filter(pl.col("label") == 1)["case_id"]
    assert sorted(passed["case_id"]) == sorted(faithful)


def test_labels_whose_faithful_cases_are_all_copied_fit_the_cutoffs_only(tmp_path: Path) -> None:
    """A faithful answer copied word for word from its context is `yes` by rule: with 100
    labels or more but fewer than 20 of a label whose claims the weights weigh, only the
    cut-offs are fitted, and the output says why."""
    context = pl.col("retrieval_context").list.first()
    copied = REFIT_CASES.with_columns(
        actual_output=pl.when(pl.col("label") == 1).then(context).otherwise("actual_output")
    )
    source = write(copied.drop("label"), tmp_path / "cases.parquet")
    db = tmp_path / "f.duckdb"
    run_score(ScoreSettings(source=str(source), db=str(db)))
    labels = tmp_path / "labels.csv"
    copied.select("case_id", "label").write_csv(labels)
    result = calibrate(labels, db, "copied", resamples=50)
    assert result.weights_kept == (
        "0 cases labelled 1 and 60 labelled 0 have a claim the weights weigh, fewer than 20 of each"
    )
    assert result.validation.cutoffs.weights is None
    assert result.cutoffs_only is None
    assert query(db, "SELECT weights FROM calibrations")["weights"].to_list() == [None]


@pytest.mark.parametrize(
    "old", [GroundedV2Judge, GroundedV3Judge, GroundedV4Judge, GroundedV5Judge, GroundedV6Judge]
)
def test_a_calibration_of_older_rules_keeps_scoring_their_series(
    calibrated: tuple[Path, Path, subprocess.CompletedProcess],
    tmp_path: Path,
    old: type[GroundedV3Judge],
) -> None:
    """Stored before a later version was the default: the nightly run that names it goes on
    with the version it was fitted for."""
    source, db, _ = calibrated
    db = relabelled(db, tmp_path, old.rules_version)
    cutoffs, config = score_calibrated(source, db)
    old_id = config.config_id(old(cutoffs).identity)
    run = query(db, f"SELECT config FROM runs WHERE config_id = '{old_id}'")
    assert json.loads(run["config"][0])["judge"]["model"] == old.rules_version
    expected = score_cases(CASES.drop("label"), old(cutoffs), config).case_scores
    stored = query(db, f"SELECT * FROM case_scores WHERE config_id = '{old_id}'")
    assert (
        stored.select(COMPARED)
        .sort("case_id")
        .equals(expected.select(COMPARED).cast(stored.select(COMPARED).schema).sort("case_id"))
    )


@pytest.mark.parametrize(
    ("fitted_for", "model", "said"),
    [
        ("grounded-v3", "grounded-v1", "fitted for grounded-v3, this judge is grounded-v1"),
        ("grounded-v2", "grounded-v3", "fitted for grounded-v2, this judge is grounded-v3"),
        ("grounded-v3", "grounded-v2", "fitted for grounded-v3, this judge is grounded-v2"),
        ("grounded-v14", None, "fitted for grounded-v14, this judge is grounded-v13"),
        # by a faithpipe of 2026-12-01, before calibrations were of v2 on; once said "fitted
        # for grounded-v1, this judge is grounded-v1"
        ("grounded-v1", "grounded-v1", "fitted for grounded-v1, whose cut-offs this faithpipe"),
        ("grounded-v1", None, "fitted for grounded-v1, this judge is grounded-v13"),
        ("grounded-v4", "grounded-v5", "fitted for grounded-v4, this judge is grounded-v5"),
        ("grounded-v5", "grounded-v6", "fitted for grounded-v5, this judge is grounded-v6"),
        ("grounded-v6", "grounded-v7", "fitted for grounded-v6, this judge is grounded-v7"),
        ("grounded-v7", "grounded-v8", "fitted for grounded-v7, this judge is grounded-v8"),
        ("grounded-v8", "grounded-v9", "fitted for grounded-v8, this judge is grounded-v9"),
        ("grounded-v9", "grounded-v10", "fitted for grounded-v9, this judge is grounded-v10"),
        ("grounded-v10", "grounded-v11", "fitted for grounded-v10, this judge is grounded-v11"),
        ("grounded-v11", "grounded-v12", "fitted for grounded-v11, this judge is grounded-v12"),
        ("grounded-v12", "grounded-v13", "fitted for grounded-v12, this judge is grounded-v13"),
    ],
)
def test_a_calibration_for_other_rules_is_refused_before_any_run(
    calibrated: tuple[Path, Path, subprocess.CompletedProcess],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    fitted_for: str,
    model: str | None,
    said: str,
) -> None:
    source, db, _ = calibrated
    db = relabelled(db, tmp_path, fitted_for)
    runs_before = query(db, "SELECT count(*) AS n FROM runs")["n"][0]
    given = ["--calibration", "planted", *(["--model", model] if model else [])]
    capsys.readouterr()
    code = main(["score", str(source), "--db", str(db), "--prefect", "no", *given])
    errors = [line for line in capsys.readouterr().err.splitlines() if line.strip()]
    assert code == 2
    assert len(errors) == 1
    assert said in errors[0]
    assert query(db, "SELECT count(*) AS n FROM runs")["n"][0] == runs_before


def labels_file(folder: Path, frame: pl.DataFrame) -> Path:
    path = folder / "labels.parquet"
    frame.write_parquet(path)
    return path


@pytest.mark.parametrize(
    ("labels", "message"),
    [
        (
            CASES.head(10),
            f"too few labels: 10 labelled cases, calibration needs at least {MIN_LABELS}",
        ),
        (CASES.with_columns(label=pl.lit(1)), "one class only: all 40 labels are 1"),
        (
            pl.concat(
                [
                    CASES,
                    CASES.head(2).with_columns(
                        pl.lit("nowhere").alias("case_id") + pl.int_range(2).cast(pl.String)
                    ),
                ]
            ),
            "2 of 42 labelled case ids are not scored in",
        ),
        (  # integer ids as pandas writes them once the column held a gap
            CASES.with_columns(case_id=pl.int_range(40).cast(pl.Float64).cast(pl.String)),
            "ids such as '1.0' are whole numbers written as floats",
        ),
    ],
)
def test_bad_labels_exit_2_with_one_line_and_store_nothing(
    scored: tuple[Path, Path, Path],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    labels: pl.DataFrame,
    message: str,
) -> None:
    _, db, _ = scored
    db = Path(shutil.copy(db, tmp_path / "f.duckdb"))
    path = labels_file(tmp_path, labels.select("case_id", "label"))
    code = main(["calibrate", str(path), "--db", str(db), "--name", "bad"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2
    assert len(err) == 1
    assert err[0].startswith("error:")
    assert message in err[0]
    assert query(db, "SELECT count(*) AS n FROM calibrations")["n"][0] == 0


def test_labelled_rows_a_run_left_invalid_or_quarantined_are_named_as_such(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """ "Score them first" alone sent a team to score again rows a run had read: the refusal
    says how many of the ids the database holds as invalid or quarantined."""
    empty_context = case_row("no-context", retrieval_context=[])  # invalid: EmptyContext
    no_answer = case_row("no-answer", actual_output=None)  # quarantined: actual_output null
    extra = cases([empty_context, no_answer]).drop("app_version")
    source = write(pl.concat([CASES.drop("label"), extra]), tmp_path / "cases.parquet")
    db = tmp_path / "f.duckdb"
    run = run_score(ScoreSettings(source=str(source), db=str(db)))
    assert (run["rows_scored"], run["rows_invalid"], run["rows_quarantined"]) == (40, 1, 1)
    capsys.readouterr()  # the run's own log lines
    labels = pl.concat(
        [
            CASES.select("case_id", "label"),
            pl.DataFrame({"case_id": ["no-context", "no-answer", "nowhere"], "label": [1, 0, 1]}),
        ],
        how="vertical_relaxed",
    )
    path = labels_file(tmp_path, labels)
    code = main(["calibrate", str(path), "--db", str(db), "--name", "x"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2
    assert err == [
        f"error: 3 of 43 labelled case ids are not scored in {db} (e.g. 'no-answer', "
        "'no-context', 'nowhere'): score them first, or leave them out of the labels; of "
        "them, 1 invalid, 1 quarantined (case_scores.error and the quarantine table say why)"
    ]
    assert query(db, "SELECT count(*) AS n FROM calibrations")["n"][0] == 0


def test_a_name_in_use_needs_replace(
    calibrated: tuple[Path, Path, subprocess.CompletedProcess],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    _, db, _ = calibrated
    db = Path(shutil.copy(db, tmp_path / "f.duckdb"))
    path = labels_file(tmp_path, CASES.select("case_id", "label"))
    code = main(["calibrate", str(path), "--db", str(db), "--name", "planted"])
    assert code == 2
    assert "pass --replace" in capsys.readouterr().err
    code = main(
        [
            "calibrate",
            str(path),
            "--db",
            str(db),
            "--name",
            "planted",
            "--replace",
            "--resamples",
            "20",
        ]
    )
    assert code == 0
    assert "calibration 'planted' replaced" in capsys.readouterr().out


def test_an_unknown_calibration_at_score_time_exits_2_before_any_run(
    scored: tuple[Path, Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source, db, _ = scored
    db = Path(shutil.copy(db, tmp_path / "f.duckdb"))
    # a run a killed process left `running`: the next run that starts marks it superseded,
    # a refused one leaves the database as it was (docs/exit-codes.md, exit 2)
    con = duckdb.connect(str(db))
    con.execute("UPDATE runs SET status = 'running', pid = 2147483646, finished_at = NULL")
    con.close()
    before = query(db, "SELECT run_id, status FROM runs ORDER BY run_id")
    capsys.readouterr()
    code = main(["score", str(source), "--db", str(db), "--prefect", "no", "--calibration", "nope"])
    stderr = capsys.readouterr().err
    assert code == 2, stderr
    errors = [line for line in stderr.splitlines() if line.strip()]
    assert len(errors) == 1
    assert "--calibration 'nope': no such calibration in" in errors[0]
    assert query(db, "SELECT run_id, status FROM runs ORDER BY run_id").equals(before)


def test_a_calibration_is_for_the_grounded_judge_only(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["score", "x.parquet", "--judge", "lexical", "--calibration", "planted"])
    assert code == 2
    assert "--calibration calibrates the grounded judge" in capsys.readouterr().err


def test_labels_are_read_from_csv_or_parquet_and_refused_when_wrong(tmp_path: Path) -> None:
    csv = tmp_path / "labels.csv"
    csv.write_text('case_id,label,note,claim_labels\na,1,x,1 1\nb,0,y,"1, 0"\nc,true,z,\n')
    assert read_labels(csv).rows() == [
        ("a", True, [True, True]),
        ("b", False, [True, False]),
        ("c", True, None),
    ]
    parquet = labels_file(tmp_path, pl.DataFrame({"case_id": [1, 2], "label": [1, 0]}))
    assert read_labels(parquet).rows() == [("1", True, None), ("2", False, None)]
    csv.write_text("case_id,label,claim_labels\na,1,1 x\n")
    with pytest.raises(InputUnreadable, match=r"claim_labels must be 1s and 0s, found \['x'\]"):
        read_labels(csv)
    csv.write_text("case_id,label\na,1\nb,maybe\n")
    with pytest.raises(InputUnreadable, match=r"label must be 1 or 0, found \['maybe'\]"):
        read_labels(csv)
    csv.write_text("case_id,label\na,1\na,0\n")
    with pytest.raises(InputUnreadable, match="case_id must be unique"):
        read_labels(csv)
    csv.write_text("id,label\na,1\n")
    with pytest.raises(InputUnreadable, match=r"missing columns \['case_id'\]"):
        read_labels(csv)
    # each of these was exit 1 (a polars error named by its class alone)
    csv.write_text("case_id,label,label \na,1,0\n")
    with pytest.raises(InputUnreadable, match="more than one column is named 'label'"):
        read_labels(csv)
    durations = pl.DataFrame({"case_id": ["a"], "label": [1]}).with_columns(
        label=pl.duration(seconds=pl.col("label"))
    )
    with pytest.raises(InputUnreadable, match="cannot be read as text and 1/0"):
        read_labels(labels_file(tmp_path, durations))
    with pytest.raises(InputUnreadable, match="a CSV or a Parquet file, not JSON"):
        read_labels(tmp_path / "labels.jsonl")


def test_labels_are_read_as_pandas_and_spreadsheets_write_them(tmp_path: Path) -> None:
    """1.0/0.0 (a label column that held a NaN), "[1, 0]" claim labels, padded headers and a
    blank last line are what a team's export looks like: read, not refused."""
    csv = tmp_path / "labels.csv"
    csv.write_text(' case_id , label ,claim_labels\na,1.0,"[1, 0]"\nb,0.0,\n\n')
    assert read_labels(csv).rows() == [("a", True, [True, False]), ("b", False, None)]
    floats = pl.DataFrame(
        {"case_id": ["a", "b"], "label": [1.0, 0.0], "claim_labels": [[1.0, 0.0], None]}
    )
    assert read_labels(labels_file(tmp_path, floats)).rows() == [
        ("a", True, [True, False]),
        ("b", False, None),
    ]
    never_given = pl.DataFrame({"case_id": ["a"], "label": [1], "claim_labels": [None]})
    assert read_labels(labels_file(tmp_path, never_given)).rows() == [("a", True, None)]
    categories = pl.DataFrame(  # pandas' `category` dtype, as a team's notebook leaves it
        {"case_id": ["a", "b"], "label": ["1", "0"], "claim_labels": ["1 0", None]},
        schema_overrides={"label": pl.Categorical, "claim_labels": pl.Categorical},
    )
    assert read_labels(labels_file(tmp_path, categories)).rows() == [
        ("a", True, [True, False]),
        ("b", False, None),
    ]


def test_other_columns_of_a_parquet_labels_file_are_not_read(tmp_path: Path) -> None:
    """A labels table exported from BigQuery keeps its BIGNUMERIC columns as Decimal(76, 38),
    which polars cannot read: the file was refused (exit 3) for a column it ignores."""
    path = tmp_path / "labels.parquet"
    amount = pa.array([decimal.Decimal("1.5")] * 2, type=pa.decimal256(76, 38))
    exported = pa.table({"case_id": ["a", "b"], "label": [1, 0], "amount": amount})
    pq.write_table(exported, path)
    assert read_labels(path).rows() == [("a", True, None), ("b", False, None)]
    pq.write_table(exported.rename_columns(["id", "label", "amount"]), path)
    with pytest.raises(InputUnreadable, match=r"found \['id', 'label', 'amount'\]"):
        read_labels(path)


@pytest.mark.parametrize(
    ("labels", "message"),
    [
        (
            pl.DataFrame({"case_id": ["a", "b"], "label": [1, None]}),
            r"label is empty for 1 case \(e.g. \['b'\]\)",
        ),
        (pl.DataFrame({"case_id": ["a"], "label": [1.5]}), r"label must be 1 or 0, found \[1.5\]"),
        # each wrong value once, in the file's order: a typo on 1,000 rows listed itself thrice
        (
            pl.DataFrame({"case_id": ["a", "b", "c", "d"], "label": ["y", "y", "n", "y"]}),
            r"label must be 1 or 0, found \['y', 'n'\]$",
        ),
        (
            pl.DataFrame({"case_id": ["a", "b"], "label": [1, 0], "claim_labels": ["2 2", "3 2"]}),
            r"claim_labels must be 1s and 0s, found \['2', '3'\]$",
        ),
        (pl.DataFrame({"case_id": ["a"], "label": [[1]]}), "label must be one value a row"),
        (
            pl.DataFrame({"case_id": ["a"], "label": [1], "claim_labels": [[1, None]]}),
            r"claim_labels must be 1s and 0s, found \['null'\]",
        ),
        (
            pl.DataFrame({"case_id": ["a"], "label": [1], "claim_labels": [[[1]]]}),
            "claim_labels must be a list of 1/0",
        ),
    ],
    ids=[
        "empty label",
        "not 1 or 0",
        "repeated wrong labels",
        "repeated wrong claim labels",
        "list label",
        "null claim label",
        "nested claim labels",
    ],
)
def test_a_label_that_is_not_one_value_of_1_or_0_is_refused(
    labels: pl.DataFrame, message: str, tmp_path: Path
) -> None:
    with pytest.raises(InputUnreadable, match=message):
        read_labels(labels_file(tmp_path, labels))


def test_a_csv_of_another_separator_is_refused_with_the_columns_found(tmp_path: Path) -> None:
    csv = tmp_path / "labels.csv"
    csv.write_text("case_id;label\na;1\n")
    with pytest.raises(InputUnreadable, match=r"found \['case_id;label'\] \(a CSV must be comma"):
        read_labels(csv)


def test_claim_labels_are_used_and_must_number_the_claims(
    scored: tuple[Path, Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, db, _ = scored
    db = Path(shutil.copy(db, tmp_path / "f.duckdb"))
    with_claims = CASES.select("case_id", "label", claim_labels=pl.concat_list("label"))
    path = labels_file(tmp_path, with_claims)
    code = main(["calibrate", str(path), "--db", str(db), "--name", "c", "--resamples", "20"])
    assert code == 0
    assert "cut-offs fitted on 40 claim labels" in capsys.readouterr().out
    row = query(db, "SELECT supported, claims_labelled FROM calibrations").row(0, named=True)
    assert row["claims_labelled"] == 40
    assert LOW < row["supported"] <= HIGH
    two = with_claims.with_columns(claim_labels=pl.concat_list("label", "label"))
    code = main(["calibrate", str(labels_file(tmp_path, two)), "--db", str(db), "--name", "d"])
    err = capsys.readouterr().err
    assert code == 2
    assert (
        "claim_labels of 40 cases do not number their claims (e.g. p000: 2 labels, 1 claims" in err
    )
    assert query(db, "SELECT name FROM calibrations")["name"].to_list() == ["c"]


def test_claim_labels_of_one_kind_leave_the_cutoffs_to_the_case_labels(
    scored: tuple[Path, Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, db, _ = scored
    db = Path(shutil.copy(db, tmp_path / "f.duckdb"))
    all_ones = CASES.select("case_id", "label", claim_labels=pl.concat_list(pl.lit(1)))
    code = main(
        ["calibrate", str(labels_file(tmp_path, all_ones)), "--db", str(db), "--resamples", "20"]
    )
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "claim labels" not in out
    assert "the 40 claim labels are all 1, so the case labels chose the cut-offs" in err
    assert query(db, "SELECT claims_labelled FROM calibrations")["claims_labelled"][0] == 0


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--seed", "2147483648"], "--seed must be 0 to 2,147,483,647, got 2147483648"),
        (["--name", "a\nb"], "a calibration name must not start or end with a space"),
        (["--name", " padded "], "a calibration name must not start or end with a space"),
        # 10**14 resamples aborted in Rust (exit 134), 10**8 was OOM-killed (exit 137)
        (["--resamples", "100001"], "--resamples must be 1 to 100,000, got 100001"),
    ],
    ids=["seed", "newline in name", "padded name", "resamples"],
)
def test_options_calibrate_could_not_keep_are_refused_before_any_fit(
    scored: tuple[Path, Path, Path],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    options: list[str],
    message: str,
) -> None:
    _, db, labels = scored
    db = Path(shutil.copy(db, tmp_path / "f.duckdb"))
    code = main(["calibrate", str(labels), "--db", str(db), *options])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2
    assert len(err) == 1
    assert message in err[0]
    assert query(db, "SELECT count(*) AS n FROM calibrations")["n"][0] == 0


def test_an_empty_file_is_no_database_and_a_wait_is_a_number_of_seconds(
    scored: tuple[Path, Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A 0-byte --db was migrated (25 tables written) by a calibration then refused; a
    --lock-timeout of nan waited on a locked database forever."""
    _, _, labels = scored
    empty = tmp_path / "empty.duckdb"
    empty.touch()
    assert main(["calibrate", str(labels), "--db", str(empty), "--name", "x"]) == 2
    assert "no such database" in capsys.readouterr().err
    assert empty.stat().st_size == 0
    for wait in ("nan", "-1"):
        with pytest.raises(SystemExit) as stopped:
            main(["calibrate", str(labels), "--db", str(empty), "--lock-timeout", wait])
        assert stopped.value.code == 2
        assert f"--lock-timeout: must be a number of seconds, 0 or more, got {wait}" in (
            capsys.readouterr().err
        )


def test_too_many_labels_are_refused_before_anything_is_read() -> None:
    """Fitting holds ~1 MB a labelled case: 20,000 labels were OOM-killed without a line."""
    labels = [True, False] * 2_500 + [True]
    many = pl.DataFrame({"case_id": [str(i) for i in range(5_001)], "label": labels})
    with pytest.raises(ConfigError, match="too many labels: 5,001 labelled cases"):
        check_labels(many, 5)


def test_the_cases_are_read_as_a_config_without_a_truths_limit_stored_them(
    tmp_path: Path,
) -> None:
    """A later run with --truths-extraction-limit 1 stored each passage's first sentence under
    its own config; calibrating then fitted on those and applied the cut-offs to whole ones."""
    passages = ["Order A17 shipped on 3 March. It goes by courier.", "Refunds take 5 days."]
    rows = [case_row(f"c{i}", retrieval_context=passages) for i in range(3)]
    source = write(cases(rows), tmp_path / "cases.parquet")
    db = tmp_path / "f.duckdb"
    run_score(ScoreSettings(source=str(source), db=str(db)))
    before = _labelled(db, ["c0", "c1", "c2"])
    assert before["retrieval_context"][0].to_list() == [
        "Order A17 shipped on 3 March.", "It goes by courier.", "Refunds take 5 days.",
    ]  # fmt: skip
    run_score(ScoreSettings(source=str(source), db=str(db), truths_extraction_limit=1))
    assert _labelled(db, ["c0", "c1", "c2"]).equals(before)


def test_cases_scored_only_with_a_truths_limit_are_named_on_stderr(
    scored: tuple[Path, Path, Path], tmp_path: Path
) -> None:
    """Their context is each passage's first sentence, not what --calibration will read: the
    figures printed would not hold at score time, and the command says so."""
    source, _, labels = scored
    db = tmp_path / "limited.duckdb"
    run_score(ScoreSettings(source=str(source), db=str(db), truths_extraction_limit=1))
    done = faith_here("calibrate", str(labels), "--db", str(db), "--resamples", "100")
    assert done.returncode == 0, done.stderr
    warned = [line for line in done.stderr.splitlines() if "--truths-extraction-limit" in line]
    assert len(warned) == 1
    assert "calibrate: 40 of 40 labelled cases were scored only by an LLM judge" in warned[0]


def test_cases_scored_by_the_default_judge_warn_of_nothing(
    calibrated: tuple[Path, Path, subprocess.CompletedProcess],
) -> None:
    _, _, done = calibrated
    assert done.returncode == 0, done.stderr
    assert "scored only by an LLM judge" not in done.stderr


def _labelled(db: Path, ids: list[str]) -> pl.DataFrame:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return labelled_cases(con, ids)
    finally:
        con.close()


def test_a_calibration_named_for_a_new_database_leaves_no_file(
    scored: tuple[Path, Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source, _, _ = scored
    db = tmp_path / "new.duckdb"
    code = main(["score", str(source), "--db", str(db), "--prefect", "no", "--calibration", "x"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2
    assert err == [
        f"error: --calibration 'x': no such calibration: {db} does not exist yet; "
        "`faith calibrate LABELS --db DB --name NAME` stores one"
    ]
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("command", ["score", "nightly"])
def test_a_calibration_named_for_an_empty_file_leaves_it_empty(
    command: str,
    scored: tuple[Path, Path, Path],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    source, _, _ = scored
    db = tmp_path / "mktemp.duckdb"
    db.touch()
    db.chmod(0o644)  # as mktemp or touch left it (the process umask is faith's by now)
    code = main([command, str(source), "--db", str(db), "--prefect", "no", "--calibration", "x"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2
    assert err == [
        f"error: --calibration 'x': no such calibration: {db} is an empty file; "
        "`faith calibrate LABELS --db DB --name NAME` stores one"
    ]
    assert [p.name for p in tmp_path.iterdir()] == ["mktemp.duckdb"]
    assert db.stat().st_size == 0
    assert db.stat().st_mode & 0o777 == 0o644


class InlineSubmitter:
    """Partition jobs scored in this process, as a Dask worker would score them."""

    def submit(self, job: object) -> str:
        from flows.engines.partition_task import score_partition

        return score_partition(job)  # type: ignore[arg-type]

    def result(self, handle: str, task_timeout: float) -> str:
        return handle

    def cancel(self, handles: list[str]) -> None:
        pass


@pytest.mark.parametrize(
    ("stored", "name", "cases"),
    [("calibrated", "planted", CASES), ("refitted", "weights", REFIT_CASES)],
    ids=["cut-offs", "refitted weights"],
)
def test_dask_workers_judge_with_the_calibrations_numbers(
    stored: str, name: str, cases: pl.DataFrame, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    """Workers get the cut-offs (and refitted weights) in the judge settings, not the name: the
    rows are the local run's, under the same config."""
    from flows.engines.dask_run import run_score_on_dask

    source, db, _ = request.getfixturevalue(stored)
    local_db = Path(shutil.copy(db, tmp_path / "local.duckdb"))
    dask_db = Path(shutil.copy(db, tmp_path / "dask.duckdb"))
    judge = JudgeSettings(calibration=name)
    local = run_score(ScoreSettings(source=str(source), db=str(local_db), judge=judge))
    on_dask = run_score_on_dask(
        ScoreSettings(source=str(source), db=str(dask_db), judge=judge, engine="dask", workers=1),
        InlineSubmitter(),
    )
    assert on_dask["config_id"] == local["config_id"]
    columns = ", ".join(["config_id", *COMPARED])
    config_id = local["config_id"]
    pick = f"SELECT {columns} FROM case_scores WHERE config_id = '{config_id}' ORDER BY case_id"
    assert query(dask_db, pick).equals(query(local_db, pick))
    # each calibration separates its planted labels; the default judge passes them all
    assert query(dask_db, pick)["success"].sum() == cases["label"].sum()


@pytest.mark.parametrize(
    ("low", "high", "says"),
    [
        (0.01, 0.12, "agrees with the labels better than the default judge"),
        (-0.02, 0.05, "cannot tell the calibration from the default judge"),
        (-0.09, -0.01, "worse than the default judge (the interval lies below 0): score without"),
        (None, None, "could not compare the calibration with the default judge"),
    ],
)
def test_the_last_line_reads_the_balanced_accuracy_interval(
    low: float | None, high: float | None, says: str
) -> None:
    assert says in reading({"difference_low": low, "difference_high": high})


def test_too_few_resamples_read_no_verdict() -> None:
    """With one resample the "interval" is one number that need not hold its own estimate."""
    line = reading({"difference_low": 0.087, "difference_high": 0.087}, resamples=1)
    assert line == (
        "cross-validation: 1 bootstrap resamples are too few to read the intervals "
        "(--resamples 100 or more)"
    )


def test_a_calibration_that_keeps_the_judges_own_numbers_says_it_scores_the_default_series(
    tmp_path: Path,
) -> None:
    """Labels the default judge already reads right (answers copied from the context, or
    sharing no word with it) fit the default cut-offs and threshold: `--calibration` then
    scores the default judge's series, no series of its own, and the command says so where
    it once let the team read its runs' `0 new` and its report's missing name as a fault."""
    rows = [  # each its own question: copies of one content would share a fold
        case_row(
            f"d{i:03d}",
            "Order A17 shipped on 3 March." if i % 2 else "Purple engines sing.",
            input=f"Where is order A17? ({i})",
        )
        for i in range(40)
    ]
    source = write(cases(rows), tmp_path / "cases.parquet")
    db = tmp_path / "f.duckdb"
    run_score(ScoreSettings(source=str(source), db=str(db)))
    labels = tmp_path / "same.csv"
    pl.DataFrame(
        {"case_id": [r["case_id"] for r in rows], "label": [i % 2 for i in range(40)]}
    ).write_csv(labels)
    done = faith_here("calibrate", str(labels), "--db", str(db), "--resamples", "100")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[2] == (
        "calibration 'same' keeps the judge's own cut-offs and weights: --calibration same "
        "scores the default judge's config series (threshold 0.5), not one of its own"
    )
    again = faith_here(
        "score", str(source), "--db", str(db), "--prefect", "no", "--calibration", "same"
    )
    assert again.returncode == 0, again.stderr
    assert query(db, "SELECT count(DISTINCT config_id) AS n FROM case_scores")["n"][0] == 1


def test_turns_of_one_conversation_are_kept_in_one_fold(tmp_path: Path) -> None:
    """Cases with a `conversation_id` segment (a chat log's turns) were dealt to folds case by
    case, a conversation's turns in training and test folds alike; each conversation is one
    fold's now, and labels from fewer conversations than --folds are refused in one line."""
    rows = CASES.drop("label").with_columns(
        conversation_id=pl.lit("c") + (pl.int_range(pl.len()) % 3).cast(pl.String)
    )
    source = write(rows, tmp_path / "turns.parquet")
    db = tmp_path / "f.duckdb"
    assert run_score(ScoreSettings(source=str(source), db=str(db)))["rows_scored"] == 40
    con = duckdb.connect(str(db), read_only=True)
    try:
        groups = labelled_cases(con, rows["case_id"].to_list())["fold_group"]
    finally:
        con.close()
    assert sorted(groups.unique()) == ["conversation c0", "conversation c1", "conversation c2"]
    labels = tmp_path / "labels.csv"
    CASES.select("case_id", "label").write_csv(labels)
    refused = faith_here("calibrate", str(labels), "--db", str(db), "--resamples", "50")
    assert refused.returncode == 2
    assert refused.stderr.splitlines()[-1] == (
        "error: the 40 labelled cases make 3 groups kept whole in one fold each (a "
        "conversation's turns, copies of one content), fewer than --folds 5: label cases of "
        "more conversations, or lower --folds"
    )
    assert query(db, "SELECT count(*) AS n FROM calibrations")["n"][0] == 0
    done = faith_here(
        "calibrate", str(labels), "--db", str(db), "--resamples", "50", "--folds", "3"
    )
    assert done.returncode == 0, done.stderr


def test_labels_from_too_few_conversations_are_refused_before_the_cases_are_judged_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The refusal came from the cross-validation, after every labelled case was judged
    again (minutes for thousands of labels): the team waited all that for a refusal the
    labels and the database said at once."""
    import flows.run.calibrate as calibrating

    rows = CASES.drop("label").with_columns(
        conversation_id=pl.lit("c") + (pl.int_range(pl.len()) % 3).cast(pl.String)
    )
    db = tmp_path / "f.duckdb"
    run_score(ScoreSettings(source=str(write(rows, tmp_path / "turns.parquet")), db=str(db)))
    labels = tmp_path / "labels.csv"
    CASES.select("case_id", "label").write_csv(labels)
    judged: list[int] = []
    probes = calibrating._probes
    monkeypatch.setattr(
        calibrating,
        "_probes",
        lambda cases, *rest: judged.append(cases.height) or probes(cases, *rest),
    )
    with pytest.raises(ConfigError, match=r"make 3 groups kept whole in one fold each"):
        calibrate(labels, db, "turns", resamples=50)
    assert judged == []
