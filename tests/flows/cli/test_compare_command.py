"""`faith compare` at its edges: user text with markup and control codes prints as text, a
side that selects nothing is refused by name (exit 2, nothing kept), a missing database is
not created, and numbers out of range are usage errors naming the option."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import polars as pl
import pytest

import flows.store.db
from flows.cli import main
from flows.store.db import connect, migrations, open_store
from tests.flows.cli.test_terminal_escapes import assert_no_controls
from tests.flows.report.test_compare import planted
from tests.flows.store.test_analysis_sql import add_case, add_verdicts
from tests.support.builders import many_cases, write

# Claims (and segment values) a judge or a log may hold: rich markup, a closing tag that
# rich refuses (MarkupError), a clear-screen sequence and a right-to-left override.
CLAIMS = (
    "Order A17 shipped [/red] on 3 March.",
    "Refunds [bold]x[/bold] take 5 days.",
    "Clear \x1b[2J the screen.",
    "Order \u202eA17 shipped.",
)
OLD, NEW = "[/red]v1", "v2\x1b[2J"


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The planted database of tests/flows/report/test_compare.py: configs old and new over
    the same 300 cases, app versions 2.4.0 and 2.4.1."""
    return planted(tmp_path_factory.mktemp("compare-cli") / "faith.duckdb")


@pytest.fixture(scope="module")
def marked(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One config, two app versions named with markup and ESC; each claim fails on side B.
    Written once: the tests on it only read it (--no-store)."""
    path = tmp_path_factory.mktemp("marked") / "marked.duckdb"
    con = open_store(path)
    for i, claim in enumerate(CLAIMS):
        for version, verdict in ((OLD, "yes"), (NEW, "no")):
            case = f"{version}-{i}"
            add_case(con, case, yes=int(verdict == "yes"), no=int(verdict == "no"),
                     segments={"app_version": version})  # fmt: skip
            add_verdicts(con, case, [(claim, verdict)])
    con.close()
    return path


def comparisons_kept(db: Path) -> int:
    con = connect(db, read_only=True)
    try:
        return int(con.execute("SELECT count(*) FROM comparisons").fetchall()[0][0])
    finally:
        con.close()


def one_error_line(capsys: pytest.CaptureFixture[str]) -> str:
    shown = capsys.readouterr()
    assert shown.out == ""
    lines = shown.err.strip().splitlines()
    assert len(lines) == 1, shown.err
    return lines[0]


def test_markup_and_control_codes_of_claims_and_values_print_as_text(
    marked: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["compare", "--db", str(marked), "--segment", "app_version", "--a", OLD, "--b", NEW]
    assert main([*args, "--no-store"]) == 0, capsys.readouterr().err
    out = capsys.readouterr().out
    assert_no_controls(out)
    for text in ("[/red] on 3 March.", "[bold]x[/bold]", "Clear \\x1b[2J the", "\\u202eA17"):
        assert text in out
    assert "A [/red]v1 (config lex)" in out
    assert "B v2\\x1b[2J (config lex)" in out
    assert out.startswith("v2\\x1b[2J passes 100.0 points less")


def test_the_json_of_such_text_is_the_same_data_shown_not_obeyed(
    marked: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["compare", "--db", str(marked), "--segment", "app_version", "--a", OLD, "--b", NEW]
    assert main([*args, "--no-store", "--json"]) == 0
    out = capsys.readouterr().out
    assert_no_controls(out)
    result = json.loads(out)
    assert {claim["claim"] for claim in result["claims"]} == set(CLAIMS)
    assert (result["a"]["label"], result["b"]["label"]) == (OLD, NEW)


def test_a_config_not_stored_is_refused_naming_it_and_the_stored_ones(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = comparisons_kept(db)
    assert main(["compare", "--db", str(db), "--a-config", "old", "--b-config", "faith-nope"]) == 2
    line = one_error_line(capsys)
    assert "--b-config 'faith-nope': no case is scored under this config" in line
    assert line.endswith("(configs with scored cases, latest first: new, old)")
    assert comparisons_kept(db) == before  # refused: not kept, not the report's latest


def test_a_side_whose_segment_value_selects_nothing_is_named(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = comparisons_kept(db)
    args = ["--a-config", "old", "--segment", "app_version", "--a", "2.3.0", "--b", "2.4.1"]
    assert main(["compare", "--db", str(db), *args]) == 2
    line = one_error_line(capsys)
    assert line.endswith(
        "side A selects no scored case: config old (--a-config), --segment app_version --a 2.3.0"
    )
    assert comparisons_kept(db) == before


@pytest.mark.parametrize(
    "args",
    [
        [],  # bare: the config scored most recently against itself
        ["--a-config", "old", "--b-config", "old"],
        ["--segment", "app_version", "--a", "2.4.0", "--b", "2.4.0", "--since", "2026-10-01"],
        ["--a-since", "2026-10-02", "--since", "2026-10-02"],  # the same day, said two ways
    ],
)
def test_two_sides_that_are_the_same_cases_are_refused(
    db: Path, capsys: pytest.CaptureFixture[str], args: list[str]
) -> None:
    """Such a comparison was read as unpaired: '6,006 unpaired cases' of one set twice."""
    before = comparisons_kept(db)
    assert main(["compare", "--db", str(db), *args]) == 2
    line = one_error_line(capsys)
    assert "side A and side B are the same (config " in line
    assert line.endswith("nothing to compare; give --b-config another config, --segment COL --a "
                         "VALUE --b VALUE, or two windows")  # fmt: skip
    assert comparisons_kept(db) == before
    con = connect(db, read_only=True)
    try:  # in SQL, the same cases twice are paired: every pair agrees
        same = "SELECT paired, pairs, a_only + b_only, diff FROM compare_pass_rates(a := NULL)"
        assert con.sql(same).fetchall() == [(True, 300, 0, 0.0)]
    finally:
        con.close()


def test_b_config_given_alone_as_the_latest_is_told_to_give_a_config(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Side A is the latest config when --a-config is not given: `--b-config new` (the
    latest) was told 'give --b-config another config', the option the user did give."""
    assert main(["compare", "--db", str(db), "--b-config", "new"]) == 2
    line = one_error_line(capsys)
    assert "side A and side B are the same (config new" in line
    assert line.endswith(
        "nothing to compare; give --a-config another config (side A is the config scored most "
        "recently when --a-config is not given), --segment COL --a VALUE --b VALUE, or two windows"
    )


@pytest.mark.parametrize(
    "args",
    [
        ["--a-config", "faith-typo"],  # B defaults to A's config
        ["--a-config", "faith-typo", "--b-config", "faith-typo"],
    ],
)
def test_a_config_not_scored_is_named_before_the_sides_are_the_same(
    db: Path, capsys: pytest.CaptureFixture[str], args: list[str]
) -> None:
    """A mistyped --a-config (B defaulting to it) was refused as 'side A and side B are the
    same', with advice to give --b-config another config: the typo went unsaid."""
    assert main(["compare", "--db", str(db), "--no-store", *args]) == 2
    line = one_error_line(capsys)
    assert "--a-config 'faith-typo': no case is scored under this config" in line
    assert "are the same" not in line


def test_two_configs_without_a_case_in_common_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "apart.duckdb"
    con = open_store(db)
    for i in range(3):
        add_case(con, f"x{i}", config="x", yes=1)
        add_case(con, f"y{i}", config="y", no=1)
    con.close()
    assert main(["compare", "--db", str(db), "--a-config", "x", "--b-config", "y"]) == 2
    line = one_error_line(capsys)
    assert "configs x and y have no scored case in common: nothing to pair" in line
    assert comparisons_kept(db) == 0


def test_two_configs_whose_common_cases_all_changed_content_say_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Config old scored a log; the same case ids were re-delivered with other answers and
    scored under new. No pair is left, and the refusal said the configs had 'no scored case
    in common', where the user had scored the same 3 ids under both."""
    db = tmp_path / "redelivered.duckdb"
    con = open_store(db)
    for i in range(3):
        add_case(con, f"c{i}", config="old", yes=1)
        add_case(con, f"c{i}", config="new", no=1, content_hash=f"hash-c{i}-redelivered")
    con.close()
    assert main(["compare", "--db", str(db), "--a-config", "old", "--b-config", "new"]) == 2
    line = one_error_line(capsys)
    assert "no scored case in common" not in line
    assert "configs old and new both scored 3 case ids, but each with another content" in line
    assert comparisons_kept(db) == 0


def test_ids_left_out_of_the_pairs_for_another_content_are_counted_beside_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """3 cases scored under both configs as they were; 2 more ids re-delivered with other
    answers before new scored them. The verdict said '3 paired cases' alone, as if every
    case both configs scored had been compared."""
    db = tmp_path / "partly.duckdb"
    con = open_store(db)
    for i in range(3):
        add_case(con, f"c{i}", config="old", yes=1)
        add_case(con, f"c{i}", config="new", yes=1)
    for i in range(3, 5):
        add_case(con, f"c{i}", config="old", yes=1)
        add_case(con, f"c{i}", config="new", no=1, content_hash=f"hash-c{i}-redelivered")
    con.close()
    args = ["compare", "--db", str(db), "--a-config", "old", "--b-config", "new", "--no-store"]
    assert main([*args, "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert (result["pass_rates"]["pairs"], result["ids_left_out"]) == (3, 2)
    assert result["verdict"].endswith(
        "3 paired cases; 2 case ids scored under both with another content left out"
    )


@pytest.mark.parametrize("store", ["--store", "--no-store"])
def test_a_database_that_does_not_exist_is_not_created(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], store: str
) -> None:
    missing = tmp_path / "typo" / "dir" / "E2.duckdb"
    assert main(["compare", "--db", str(missing), store]) == 5
    assert "E2.duckdb: no such database; run `faith score` first" in one_error_line(capsys)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("store", ["--store", "--no-store"])
def test_an_empty_file_or_database_is_refused_and_left_as_it_was(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], store: str
) -> None:
    """--store wrote faithpipe's 25 tables into a touched file or a bare DuckDB file, after
    which `faith runs` took it for a database; and `--db ''` was 'Is a directory'."""
    touched = tmp_path / "touched.duckdb"
    touched.touch()
    bare = tmp_path / "bare.duckdb"
    duckdb.connect(str(bare)).close()
    size = bare.stat().st_size
    assert main(["compare", "--db", str(touched), store]) == 5
    assert "touched.duckdb: no such database" in one_error_line(capsys)
    assert touched.stat().st_size == 0
    assert main(["compare", "--db", str(bare), store]) == 5
    assert "holds no faithpipe tables yet" in one_error_line(capsys)
    assert bare.stat().st_size == size
    assert main(["compare", "--db", "", store]) == 5
    assert "--db is empty" in one_error_line(capsys)


@pytest.mark.parametrize(
    ("option", "value", "said"),
    [
        ("--reps", "0", "--reps must be 1 to 1,000,000, got 0"),
        ("--reps", "1000001", "--reps must be 1 to 1,000,000, got 1000001"),
        ("--claims", "-1", "--claims must be 0 to 2,147,483,647, got -1"),
        ("--seed", "-1", "--seed must be 0 to 2,147,483,647, got -1"),
        ("--seed", str(2**31), "--seed must be 0 to 2,147,483,647, got 2147483648"),
    ],
)
def test_numbers_out_of_range_are_usage_errors_before_anything_is_opened(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], option: str, value: str, said: str
) -> None:
    missing = tmp_path / "never.duckdb"  # checked first: exit 2, not the missing file's 5
    assert main(["compare", "--db", str(missing), option, value]) == 2
    assert one_error_line(capsys).endswith(said)
    assert list(tmp_path.iterdir()) == []


def test_the_edges_of_the_ranges_are_accepted(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["--a-config", "old", "--b-config", "new", "--reps", "1", "--claims", "0"]
    assert main(["compare", "--db", str(db), "--no-store", "--json", *args, "--seed", "0"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["claims"] == []
    assert result["scores"]["bootstrap_reps"] == 1


def test_the_default_config_is_the_latest_with_a_scored_case(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A new config whose every case came back invalid (a broken judge's first night) was
    'the config scored most recently', so a compare of two app versions without --a-config
    was refused: "the config scored most recently 'broken': no case is scored under this
    config". The default is read from the scored cases, in faith compare and in SQL."""
    db = tmp_path / "faith.duckdb"
    con = open_store(db)
    for i in range(4):
        add_case(con, f"c{i}", config="good", yes=int(i % 2 == 0), no=int(i % 2),
                 segments={"app_version": "2.4.0" if i < 2 else "2.4.1"})  # fmt: skip
    con.execute("UPDATE case_scores SET scored_at = TIMESTAMP '2026-10-01 02:00:00'")
    add_case(con, "c9", config="broken", status="invalid", segments={"app_version": "2.4.1"})
    con.close()
    args = ["--segment", "app_version", "--a", "2.4.0", "--b", "2.4.1", "--json", "--no-store"]
    assert main(["compare", "--db", str(db), *args]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["a"]["config_id"] == result["b"]["config_id"] == "good"
    assert (result["pass_rates"]["n_a"], result["pass_rates"]["n_b"]) == (2, 2)
    con = connect(db, read_only=True)
    try:
        versions = "segment := 'app_version', a := '2.4.0', b := '2.4.1'"
        counts = f"SELECT n_a, n_b FROM compare_pass_rates({versions})"
        assert con.sql(counts).fetchall() == [(2, 2)]
    finally:
        con.close()


def test_a_case_whose_content_changed_between_the_configs_is_no_pair(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Config old scored the first answers; the log was re-delivered with other answers and
    scored under new only. Pairing by case_id alone put the new answers' failures on the new
    judge: '30 paired cases', 96.7 points less, where config_agreement saw one case in common.
    A pair is one case_id of one content, as in config_agreement."""
    db = tmp_path / "faith.duckdb"
    con = open_store(db)
    for i in range(4):
        add_case(con, f"c{i}", config="old", yes=1)
        changed = i > 0
        add_case(con, f"c{i}", config="new", yes=int(not changed), no=int(changed),
                 content_hash=f"hash-c{i}" + ("-redelivered" if changed else ""))  # fmt: skip
    add_case(con, "c9", config="old", yes=1)
    add_case(con, "c9", config="new", no=1)  # the same content: the judges disagree on it
    con.close()
    args = ["--a-config", "old", "--b-config", "new", "--json", "--no-store", "--reps", "50"]
    assert main(["compare", "--db", str(db), *args]) == 0
    rates = json.loads(capsys.readouterr().out)["pass_rates"]
    assert (rates["pairs"], rates["a_only"], rates["b_only"], rates["both_pass"]) == (2, 1, 0, 1)
    con = connect(db, read_only=True)
    try:
        agreement = "SELECT cases FROM config_agreement('old', 'new')"
        assert con.sql(agreement).fetchall() == [(rates["pairs"],)]
    finally:
        con.close()


@pytest.mark.parametrize(
    ("options", "said"),
    [
        (["--segment", "app_version"], "--segment app_version needs the two values to compare"),
        (["--a", "2.4.0", "--b", "2.4.1"], "--a and --b are values of a segment column"),
        (["--segment", "app_version", "--a", "2.4.0"], "--a and --b come together"),
        # a window ending before it starts read as "the sides are the same"
        (["--since", "2026-10-05", "--until", "2026-10-01"], "--since 2026-10-05 is after --until"),
        (["--b-since", "2026-10-05", "--until", "2026-10-01"], "no day is in side B's window"),
    ],
)
def test_segment_and_its_values_come_together(
    db: Path, capsys: pytest.CaptureFixture[str], options: list[str], said: str
) -> None:
    """`--segment` without `--a`/`--b` was ignored: two configs were compared over every case,
    not per app version as asked. Each half without the other is exit 2, nothing kept."""
    before = comparisons_kept(db)
    args = ["compare", "--db", str(db), "--a-config", "old", "--b-config", "new", *options]
    assert main(args) == 2
    assert said in one_error_line(capsys)
    assert comparisons_kept(db) == before


def test_two_app_versions_of_logs_with_a_wide_segment_column_are_compared_and_kept(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Logs carrying a long system prompt as a column: kept (--store), the comparison ran on
    the writer's memory limit and DuckDB's JSON functions ran out of it reading the segments
    (exit 7, told to lower --batch-size), where --no-store, reading, compared them."""
    prompt = "You are the shop's helpful assistant; answer from the passages only. " * 600
    logs = many_cases(2_100).with_columns(system_prompt=pl.lit(prompt))  # 2,100 cases of 43 kB
    source = write(logs, tmp_path / "logs.parquet")
    db = tmp_path / "faith.duckdb"
    assert main(["score", str(source), "--db", str(db), "--prefect", "no"]) == 0
    capsys.readouterr()
    args = ["compare", "--db", str(db), "--segment", "app_version", "--a", "2.4.0", "--b", "2.5.0"]
    assert main([*args]) == 0, capsys.readouterr().err
    assert "2,100 unpaired cases" in capsys.readouterr().out
    assert comparisons_kept(db) == 1


def test_piped_the_verdict_is_one_line_as_the_docs_print_it(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Piped (a file, `| head -1`), the verdict and every figure line stay whole: rich broke
    them at 100 columns, the unpaired verdict of docs/compare.md before "cases on each side"."""
    args = ["--a-config", "new", "--segment", "app_version", "--a", "2.4.0", "--b", "2.4.1"]
    assert main(["compare", "--db", str(db), *args, "--no-store"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == (
        "2.4.1 passes as often, 95% CI [−8.1, 8.1], p = 1.00, 300 unpaired cases "
        "(different cases on each side)"
    )
    assert lines[1] == "method: unpaired: Newcombe interval, two-proportion z test"
    assert lines[2] == "A 2.4.0 (config new): 128 of 150 pass, 85.3%"
    assert lines[3].startswith("B 2.4.1 (config new): ")
    assert lines[4].startswith("mean score B − A: ")
    assert lines[4].endswith("(2000 resamples, seed 20261201)")


def test_no_store_on_a_database_an_older_faithpipe_made_says_how_to_upgrade_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A database made before the compare macros (here: migrations to 7) and only read since:
    `--no-store` opens it read-only, and was a Catalog Error (`compare_pass_rates does not
    exist`), exit 1. It is exit 5 with what to do; without --no-store it is upgraded and
    compared."""
    db = tmp_path / "old.duckdb"
    with monkeypatch.context() as old:
        old.setattr(flows.store.db, "migrations", lambda: [m for m in migrations() if m[0] <= 7])
        con = open_store(db)
    try:
        for config, yes in (("old", 1), ("new", 0)):
            for n in range(3):
                add_case(con, f"c{n}", config=config, yes=yes, no=1 - yes)
    finally:
        con.close()
    sides = ["--db", str(db), "--a-config", "old", "--b-config", "new"]

    capsys.readouterr()
    assert main(["compare", *sides, "--no-store"]) == 5
    (line,) = capsys.readouterr().err.splitlines()
    assert "made by an older faithpipe" in line
    assert "without --no-store" in line

    assert main(["compare", *sides]) == 0
    assert "3 of 3 pass" in capsys.readouterr().out
    assert main(["compare", *sides, "--no-store"]) == 0


def test_a_huge_claim_is_cut_in_the_table_and_whole_in_the_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A claim of 300,000 characters (an answer pasting a document as one sentence) printed
    whole in the claims table: 500 KB, 4,600 lines of the terminal for one row. It is cut at
    2,000 characters, saying how much was left out, as the HTML report cuts logged text;
    `--json` and the table `comparisons` keep it whole."""
    path = tmp_path / "huge.duckdb"
    huge = "Refunds take " + "nine " * 60_000 + "days."
    con = open_store(path)
    for version, verdict in (("2.4.0", "yes"), ("2.4.1", "no")):
        case = f"{version}-0"
        add_case(con, case, yes=int(verdict == "yes"), no=int(verdict == "no"),
                 segments={"app_version": version})  # fmt: skip
        add_verdicts(con, case, [(huge, verdict)])
    con.close()
    args = ["compare", "--db", str(path), "--segment", "app_version", "--a", "2.4.0"]
    assert main([*args, "--b", "2.4.1"]) == 0, capsys.readouterr().err
    out = capsys.readouterr().out
    assert "Refunds take nine nine" in out
    cell = "".join(out.replace("│", " ").split())  # the claim's cell, its lines run together
    assert "…(298,018morecharacters)" in cell
    assert len(out) < 20_000
    assert main([*args, "--b", "2.4.1", "--json", "--no-store"]) == 0
    assert json.loads(capsys.readouterr().out)["claims"][0]["claim"] == huge
    con = connect(path, read_only=True)
    try:
        (kept,) = con.execute("SELECT result FROM comparisons").fetchall()[0]
    finally:
        con.close()
    assert json.loads(kept)["claims"][0]["claim"] == huge


def test_an_infinite_score_gives_json_a_parser_reads(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An outside insert's infinite score made --json print `Infinity` and `NaN` (the means,
    the difference, its normal interval): no JSON to a strict parser (JSON.parse, Python's
    with parse_constant refusing them). A figure that is not finite is null, as the bootstrap
    interval already was."""
    copy = tmp_path / "inf.duckdb"
    copy.write_bytes(db.read_bytes())
    con = duckdb.connect(str(copy))
    try:
        con.execute(
            "UPDATE case_scores SET score = 'inf'::DOUBLE "
            "WHERE config_id = 'old' AND case_id = (SELECT min(case_id) FROM case_scores)"
        )
    finally:
        con.close()
    argv = ["compare", "--db", str(copy), "--a-config", "old", "--b-config", "new", "--json"]
    assert main(argv) == 0
    out = capsys.readouterr().out

    def refuse(constant: str) -> None:
        raise AssertionError(f"{constant} is no JSON")

    result = json.loads(out, parse_constant=refuse)
    assert result["scores"]["mean_a"] is None
    assert result["scores"]["diff"] is None
    assert result["pass_rates"]["n_a"] == 300  # the pass rates are whole
    con = connect(copy, read_only=True)
    try:
        (kept,) = con.execute("SELECT result FROM comparisons").fetchall()[0]
    finally:
        con.close()
    assert json.loads(kept, parse_constant=refuse)["scores"]["mean_a"] is None
