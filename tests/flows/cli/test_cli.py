"""`faith` as a person uses it: exit codes, one clear line on errors, the fast route."""

from __future__ import annotations

import gzip
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import duckdb
import polars as pl
import pytest

from flows.cli import main
from tests.support.builders import case_row, cases, many_cases, write
from tests.support.db_reading import query as query_rows

FAITH = str(Path(sys.executable).with_name("faith"))


def test_score_prints_one_line_summary_and_runs_lists_it(tmp_path: Path, capsys) -> None:
    source = write(many_cases(9), tmp_path / "a.parquet")
    db = tmp_path / "f.duckdb"
    assert main(["score", str(source), "--db", str(db), "--prefect", "no"]) == 0
    out = capsys.readouterr().out
    assert "9 rows in = 9 scored (9 new)" in out
    assert main(["runs", "--db", str(db)]) == 0
    assert "completed" in capsys.readouterr().out


def test_metric_options_reach_the_stored_config(tmp_path: Path) -> None:
    source = write(many_cases(3), tmp_path / "a.parquet")
    db = tmp_path / "f.duckdb"
    argv = [
        "score",
        str(source),
        "--db",
        str(db),
        "--prefect",
        "no",
        "--threshold",
        "0.8",
        "--penalize-ambiguous-claims",
        "--strict-mode",
        "--truths-extraction-limit",
        "2",
        "--batch-size",
        "2",
    ]
    assert main(argv) == 0
    con = duckdb.connect(str(db), read_only=True)
    try:
        ((config, batches),) = con.sql("SELECT config, batches FROM runs").fetchall()
        thresholds = con.sql("SELECT DISTINCT threshold, strict_mode FROM case_scores").fetchall()
    finally:
        con.close()
    settings = json.loads(config)
    assert settings["penalize_ambiguous_claims"] is True
    assert settings["truths_extraction_limit"] == 2
    assert (settings["threshold"], settings["strict_mode"]) == (0.8, True)
    assert batches == 2
    assert thresholds == [(1.0, True)]


def _gzipped_parquet(folder: Path) -> Path:
    path = write(many_cases(2), folder / "x.parquet")
    zipped = folder / "x.parquet.gz"
    zipped.write_bytes(gzip.compress(path.read_bytes()))
    path.unlink()
    return zipped


def _three_tables_and_a_log(folder: Path) -> Path:
    """The three-table form beside a JSON Lines log that form would never read."""
    wide = many_cases(2)
    contexts = wide.select(
        "case_id",
        text="retrieval_context",
        position=pl.int_ranges(pl.col("retrieval_context").list.len()),
    ).explode("text", "position")
    write(wide.select("case_id", "input", "logged_at"), folder / "questions.parquet")
    write(contexts, folder / "contexts.parquet")
    write(wide.select("case_id", "actual_output"), folder / "outputs.parquet")
    wide.write_ndjson(folder / "late.jsonl")
    return folder


def _json_with(stray: str, folder: Path, name: str) -> Path:
    """Two good records, then one that is valid JSON but no object (`[]`, `5`, `null`)."""
    path = folder / name
    records = [json.dumps(row, default=str) for row in many_cases(2).to_dicts()]
    if name.endswith(".json"):
        path.write_text("[" + ", ".join([*records, stray]) + "]")
    else:
        path.write_text("\n".join([*records, stray]) + "\n")
    return path


def _corrupt(folder: Path) -> Path:
    path = write(many_cases(4), folder / "x.parquet")
    path.write_bytes(path.read_bytes()[:-40])
    return path


@pytest.mark.parametrize(
    ("make_source", "options", "code", "message"),
    [
        (lambda d: d / "nope.parquet", [], 3, "no such file, folder or glob"),
        (_corrupt, [], 3, "not a readable Parquet file"),
        # an unset shell variable: never the working folder, read whole
        (lambda d: "", [], 3, "SOURCE is empty: name a file, a folder or a glob"),
        (_gzipped_parquet, [], 3, "x.parquet.gz: a gzipped Parquet file is not read"),
        (_three_tables_and_a_log, [], 3, "which that form does not read: late.jsonl"),
        (  # valid JSON, no record: every row had gone to quarantine under a `json` column
            lambda d: _json_with("[]", d, "x.jsonl"),
            [],
            3,
            "x.jsonl: record 3 is a JSON array, not an object",
        ),
        (
            lambda d: _json_with("5", d, "x.json"),
            [],
            3,
            "x.json: record 3 is a JSON number, not an object",
        ),
        (
            lambda d: write(cases([case_row("c")]).drop("actual_output"), d / "x.parquet"),
            [],
            3,
            "missing required column actual_output",
        ),
        (  # two columns would be `input`: refused before the database is made
            lambda d: write(
                cases([case_row("c")]).with_columns(question=pl.lit("q")), d / "y.parquet"
            ),
            ["--columns", "input=question"],
            3,
            "y.parquet: --columns maps onto input, which it has already",
        ),
    ],
)
def test_bad_sources_exit_nonzero_with_one_line_and_write_nothing(
    tmp_path: Path, capsys, make_source, options: list[str], code: int, message: str
) -> None:
    source = make_source(tmp_path)
    db = tmp_path / "f.duckdb"
    assert main(["score", str(source), "--db", str(db), "--prefect", "no", *options]) == code
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1
    assert err[0].startswith("error: ")
    assert message in err[0]
    assert not db.exists()


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (
            ["--max-calls", "-1"],
            "error: --max-calls: Input should be greater than or equal to 0, got -1",
        ),
        (["--calibration", ""], "error: --calibration: String should have at least 1 character"),
        (
            ["--max-invalid-share", "nan"],
            "error: --max-invalid-share: Input should be less than or equal to 1, got nan",
        ),
        (
            ["--max-quarantine-share", "2"],
            "error: --max-quarantine-share: Input should be less than or equal to 1, got 2",
        ),
    ],
)
def test_bad_option_values_are_refused_naming_the_option_before_anything_runs(
    tmp_path: Path, capsys, options: list[str], message: str
) -> None:
    source = write(many_cases(2), tmp_path / "a.parquet")
    assert main(["score", str(source), "--db", str(tmp_path / "f.duckdb"), *options]) == 2
    assert capsys.readouterr().err.strip().splitlines() == [message]
    assert not (tmp_path / "f.duckdb").exists()


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--workers", "2"], "--workers and --scheduler need --engine dask"),
        (["--engine", "dask", "--workers", "2", "--scheduler", "tcp://h:8786"], "give one"),
        (["--engine", "dask", "--judge", "openai", "--model", "m", "--rpm", "60"], "--rpm"),
        (
            ["--engine", "dask", "--judge", "openai", "--model", "m", "--judge-mode", "batch"],
            "--judge-mode batch runs in one process",
        ),
    ],
)
def test_options_that_do_not_go_together_are_refused_with_one_line(
    tmp_path: Path, capsys, options: list[str], message: str
) -> None:
    source = write(many_cases(2), tmp_path / "a.parquet")
    db = tmp_path / "f.duckdb"
    assert main(["score", str(source), "--db", str(db), "--prefect", "no", *options]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    assert message in err[0]
    assert not db.exists()


@pytest.mark.parametrize(
    ("command", "line"),
    [
        (
            ["score", "logs/", "--thresold", "0.7"],
            "error: faith score: unrecognized arguments: --thresold 0.7 (see faith score --help)",
        ),
        (
            ["cache", "check", "--bogus"],
            "error: faith cache check: unrecognized arguments: --bogus "
            "(see faith cache check --help)",
        ),
        (["--bogus", "runs"], "error: faith: unrecognized arguments: --bogus (see faith --help)"),
    ],
)
def test_a_mistyped_option_sends_to_the_help_of_the_command_it_was_given(
    capsys, command: list[str], line: str
) -> None:
    """`faith score logs/ --thresold 0.7` said `faith: …; see faith --help`, a page that lists
    no option of `faith score`: the line names the command whose help has them."""
    with pytest.raises(SystemExit) as refused:  # argparse's exit, in this process
        main(command)
    assert refused.value.code == 2
    assert capsys.readouterr().err.splitlines() == [line]


@pytest.mark.parametrize("program", ["python", "faith"])
def test_a_locked_database_gives_a_clear_message(tmp_path: Path, capsys, program: str) -> None:
    """The holder is named: a faith run as one (its program's name, Linux /proc), any other
    process as one that may be a run or a DuckDB session (a notebook), where the line said
    "(a run in progress?)" of both."""
    source = write(many_cases(2), tmp_path / "a.parquet")
    db = tmp_path / "f.duckdb"
    # the interpreter, under the name of the venv's `faith` (its first argument, what /proc
    # shows) for a process whose command line names faith, as a run's does
    first = str(Path(sys.executable).with_name("faith")) if program == "faith" else sys.executable
    holder = subprocess.Popen(
        [
            first,
            "-c",
            f"import duckdb, sys, time; c = duckdb.connect({str(db)!r}); print('ok', flush=True); "
            "sys.stdin.read()",
        ],
        executable=sys.executable,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout.readline().strip() == "ok"
        code = main(
            ["score", str(source), "--db", str(db), "--prefect", "no", "--lock-timeout", "0.5"]
        )
    finally:
        holder.communicate("")
    assert code == 4
    err = capsys.readouterr().err
    said = (
        f"a faith run (pid {holder.pid})"
        if program == "faith"
        else f"process {holder.pid} (a run, or a DuckDB session?)"
    )
    assert f"is locked by {said}; waited 0.5 s." in err  # the wait rounded, not 0.49998
    assert "--lock-timeout" in err


def test_the_ad_hoc_route_does_not_start_prefect(tmp_path: Path) -> None:
    """Without a Prefect server configured, `faith score` runs the same steps without
    orchestration, so a small file answers in about a second instead of ~15 s."""
    source = write(many_cases(3), tmp_path / "a.parquet")
    code = (
        "import sys; from flows.cli import main; "
        f"rc = main(['score', {str(source)!r}, '--db', {str(tmp_path / 'f.duckdb')!r}]); "
        "print(rc, 'prefect' in sys.modules)"
    )
    env = {k: v for k, v in __import__("os").environ.items() if not k.startswith("PREFECT_API")}
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
    )
    assert done.stdout.split()[-2:] == ["0", "False"]


def test_help_documents_every_option(capsys) -> None:
    with pytest.raises(SystemExit):
        main(["score", "--help"])
    text = capsys.readouterr().out
    for option in [
        "--db",
        "--judge",
        "--threshold",
        "--penalize-ambiguous-claims",
        "--strict-mode",
        "--truths-extraction-limit",
        "--batch-size",
        "--lock-timeout",
        "--prefect",
    ]:
        assert option in text
    # every older rules version --model takes is named (v5 and v4 were not)
    from faith_udfs.grounded import CALIBRATED_RULES, GROUNDED_RULES_VERSION

    older = [v for v in (*CALIBRATED_RULES, "grounded-v1") if v != GROUNDED_RULES_VERSION]
    flat = " ".join(text.split())
    assert len(older) >= 5
    assert [v for v in older if v not in flat] == []


def test_every_command_takes_v_for_the_traceback_its_failure_line_offers() -> None:
    """Exit 1's line says "run again with -v for the traceback": no command may refuse -v."""
    from flows.cli.commands import build_parser

    parser = build_parser()
    commands = parser._subparsers._group_actions[0].choices  # type: ignore[union-attr]
    for name, command in commands.items():
        assert "--verbose" in command._option_string_actions, name


def test_cache_check_takes_v_after_its_action_as_every_command_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`faith cache check --db X -v`, as a user adds -v to any command line: refused as an
    unrecognized argument (exit 2), where the check's own failure (no such database) is 5."""
    from tests.support.cli_run import faith_here

    done = faith_here(capsys, "cache", "check", "--db", str(tmp_path / "none.duckdb"), "-v")

    assert done.returncode == 5, done.stderr
    assert "no such database" in done.stderr


def test_every_option_of_every_command_says_what_it_does() -> None:
    """`faith --help` is the reference the manual defers to: `faith rekey --help` listed
    --lock-timeout with no word of what it does."""
    import argparse

    from flows.cli.commands import build_parser

    def silent(parser: argparse.ArgumentParser, name: str) -> list[str]:
        found = []
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for sub, command in action.choices.items():
                    found += silent(command, f"{name} {sub}")
            elif not action.help:
                found.append(f"{name} {action.dest}")
        return found

    assert silent(build_parser(), "faith") == []


def test_every_command_says_what_it_does_above_its_options(monkeypatch) -> None:
    """`faith demo --help`, the first a newcomer reads, went from its usage straight to its
    options: nothing said what it scores, where the database and the report go, or that it is
    what `make demo` runs; `faith runs --help` and `faith cache --help` said nothing either."""
    import argparse

    from flows.cli.commands import build_parser

    def silent(parser: argparse.ArgumentParser, name: str) -> list[str]:
        found = []
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for sub, command in action.choices.items():
                    if not (command.description or "").strip():
                        found.append(f"{name} {sub}")
                    found += silent(command, f"{name} {sub}")
        return found

    assert silent(build_parser(), "faith") == []
    monkeypatch.setenv("COLUMNS", "100")
    (commands,) = [
        action
        for action in build_parser()._actions
        if isinstance(action, argparse._SubParsersAction)
    ]
    demo = commands.choices["demo"].format_help()
    assert "make demo" in demo
    assert "report.html beside the database" in demo


def test_help_never_breaks_a_word_or_an_example_across_lines(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`faith score --help` at 80 columns printed the --columns example as `e.g. inp` /
    `ut=question,actual_output=answer,retrieval_context=con` / `texts,logged_at=ts`, and split
    `docs/llm-` / `judge.md` and `built-` / `in`: text to copy must reach the reader whole."""
    import argparse

    from flows.cli.commands import build_parser

    monkeypatch.setenv("COLUMNS", "80")

    def parsers(parser: argparse.ArgumentParser) -> list[argparse.ArgumentParser]:
        found = [parser]
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for command in action.choices.values():
                    found += parsers(command)
        return found

    broken = []
    for parser in parsers(build_parser()):
        shown = parser.format_help()
        for action in parser._actions:
            shown_help = "" if action.help == argparse.SUPPRESS else action.help or ""
            for word in shown_help.split():
                if "%" not in word and word not in shown:
                    broken.append(f"{parser.prog}: {word}")
    assert broken == []


def test_a_run_deadline_is_one_line_on_a_narrow_terminal(
    monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    """Rich wraps at the terminal's width (80 without one): a log must keep the line whole."""
    from flows.cli import commands
    from flows.run.stop_signals import RunDeadline

    def deadline(args: object) -> int:
        raise RunDeadline("the run deadline, --run-timeout 3600 s")

    monkeypatch.setattr(commands, "score_command", deadline)
    monkeypatch.setenv("COLUMNS", "40")
    assert commands.main(["score", "logs/"]) == 14
    assert capsys.readouterr().err.strip().splitlines() == [
        "interrupted (the run deadline, --run-timeout 3600 s): committed batches are kept; "
        "run again to finish"
    ]


@pytest.mark.parametrize("locked", ["source", "sub-folder"])
def test_a_folder_that_cannot_be_listed_is_exit_3_not_skipped(tmp_path: Path, locked: str) -> None:
    """A sub-folder os.walk cannot list was skipped without a word (its rows lost), and a
    locked SOURCE folder was exit 1. Root reads any folder, so the run drops that power."""
    folder = tmp_path / "logs"
    write(many_cases(2), folder / "a.parquet")
    shut = folder if locked == "source" else folder / "sub"
    write(many_cases(2).with_columns(pl.col("case_id") + "b"), shut / "b.parquet")
    shut.chmod(0)
    command = [FAITH, "score", str(folder), "--db", str(tmp_path / "f.duckdb"), "--prefect", "no"]
    if os.access(shut, os.R_OK):  # root: drop the capabilities that read past permissions
        if shutil.which("setpriv") is None:
            pytest.skip("running as root without setpriv: no folder is unreadable here")
        command = ["setpriv", "--bounding-set", "-dac_override,-dac_read_search", *command]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    finally:
        shut.chmod(0o755)
    assert done.returncode == 3, done.stderr
    assert done.stderr.strip().splitlines() == [
        f"error: {shut}: cannot list this folder (Permission denied)"
    ]
    assert not (tmp_path / "f.duckdb").exists()


def test_json_nested_deeper_than_python_parses_is_exit_3(tmp_path: Path, capsys) -> None:
    """A record nested 1,000 deep was a RecursionError (exit 1); DuckDB names the limit."""
    record = {**many_cases(1).to_dicts()[0], "meta": 0}
    line = json.dumps(record, default=str).replace(
        '"meta": 0', '"meta": ' + '{"a":' * 1000 + "1" + "}" * 1000
    )
    (tmp_path / "deep.jsonl").write_text(line + "\n")
    db = tmp_path / "f.duckdb"
    assert main(["score", str(tmp_path / "deep.jsonl"), "--db", str(db), "--prefect", "no"]) == 3
    last = capsys.readouterr().err.strip().splitlines()[-1]
    assert last.startswith(f"error: {tmp_path / 'deep.jsonl'}: cannot read its data")
    assert query_rows(db, "SELECT count(*) FROM case_scores") == [(0,)]


@pytest.mark.parametrize("scoring", [True, False], ids=["score", "cache check"])
def test_an_out_of_memory_names_batch_size_only_to_a_command_that_has_it(scoring: bool) -> None:
    """Every exit 7 of a DuckDB out-of-memory said 'committed batches are safe; lower
    --batch-size', also to `faith cache check` and `report`, which take no --batch-size."""
    import duckdb

    from flows.cli.commands import failure

    con = duckdb.connect()
    con.execute("SET memory_limit = '1MB'")
    with pytest.raises(duckdb.OutOfMemoryException) as short:
        con.execute("SELECT list(range(1000000))").fetchall()
    con.close()
    code, line = failure(short.value, None, scoring=scoring)
    assert code == 7
    assert line.startswith("OutOfMemoryException: Out of Memory Error: ")
    if scoring:
        assert line.endswith(": committed batches are safe; lower --batch-size or free memory")
    else:
        assert line.endswith(": free memory (stop other work), or run it on a larger machine")
