"""bench/judge_quality.py (issue 20) runs without the dev sets, and on a set of the dev sets'
shape; its no-claims baseline is what the issue defines."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))
from devsets import baseline_score  # noqa: E402

from tests.support.bench_scripts import bench_here  # noqa: E402


def _bench(
    devsets: Path, *args: str, script: str = "judge_quality.py"
) -> subprocess.CompletedProcess[str]:
    """`python bench/SCRIPT --devsets DEVSETS ARGS` in a child, as a user starts it."""
    return subprocess.run(
        [sys.executable, str(ROOT / "bench" / script), "--devsets", str(devsets), *args],
        check=False,
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )


def _bench_here(
    devsets: Path, *args: str, script: str = "judge_quality.py"
) -> subprocess.CompletedProcess[str]:
    """The script in this process: the tests on a dev set check its figures, not the process
    (each script's run without dev sets stays a real subprocess: it starts as a script)."""
    return bench_here(script, "--devsets", str(devsets), *args)


def test_absent_dev_sets_are_named_and_the_bench_exits_0(tmp_path: Path) -> None:
    done = _bench(tmp_path)
    assert done.returncode == 0, done.stderr
    assert f"dev set {tmp_path / 'salad_dev.parquet'} is absent: skipped" in done.stdout
    assert "nothing to measure" in done.stdout


def test_a_set_of_the_dev_shape_is_reported_per_part(tmp_path: Path) -> None:
    context = ["Order A17 shipped on 3 March by courier."]
    pl.DataFrame(
        {
            "case_id": ["a", "b", "c", "d"],
            "input": ["Where is A17?"] * 4,
            "actual_output": [
                "Order A17 shipped on 3 March.",
                "Order A17 was cancelled in Berlin.",
                "Order A17 shipped by courier.",
                "Batteries are covered.",
            ],
            "retrieval_context": [context] * 4,
            "label": [1, 0, 1, 0],
            "source": ["BEGIN | wow (Wizard) | dev"] * 2 + ["BEGIN | tc (Topical) | dev"] * 2,
            "label_detail": ["{}"] * 4,
        }
    ).write_parquet(tmp_path / "begin_dev.parquet")
    done = _bench_here(tmp_path, "--judges", "grounded,lexical")
    assert done.returncode == 0, done.stderr
    lines = [line.split() for line in done.stdout.splitlines()]
    parts = {(cells[0], cells[2]) for cells in lines if len(cells) > 3 and cells[1] == "begin"}
    assert parts == {(j, p) for j in ("grounded", "lexical") for p in ("(all)", "wow", "tc")}
    whole = next(c for c in lines if c[:3] == ["grounded", "begin", "(all)"])
    assert whole[4:6] == ["1.0", "1.0"]  # balanced accuracy, ROC AUC


def test_worst_cases_order_ranks_answers_that_score_alike(tmp_path: Path) -> None:
    """Three one-claim answers all judged `no` (score 0, so the score's ROC AUC is 0.5): the
    one labelled faithful holds most of its words in the context, so the order worst_cases
    lists them in (score, then the weakest support) ranks it above the other two."""
    context = ["Order A17 shipped on 3 March by courier."]
    pl.DataFrame(
        {
            "case_id": ["near", "cancelled", "batteries"],
            "input": ["Where is A17?"] * 3,
            "actual_output": [
                "Order A17 shipped by courier from the Leipzig depot.",  # support 0.337
                "Order A17 was cancelled in Berlin.",  # 0.16
                "Batteries are covered.",  # 0.10
            ],
            "retrieval_context": [context] * 3,
            "label": [1, 0, 0],
            "source": ["BEGIN | wow (Wizard) | dev"] * 3,
            "label_detail": ["{}"] * 3,
        }
    ).write_parquet(tmp_path / "begin_dev.parquet")
    done = _bench_here(tmp_path, "--judges", "grounded,lexical")
    assert done.returncode == 0, done.stderr
    lines = [line.split() for line in done.stdout.splitlines()]
    header = next(cells for cells in lines if cells[:2] == ["judge", "set"])

    def whole(judge: str) -> dict[str, str]:
        cells = next(c for c in lines if c[:3] == [judge, "begin", "(all)"])
        return dict(zip(header, cells, strict=True))

    grounded, lexical = whole("grounded"), whole("lexical")
    assert (grounded["auc"], grounded["auc_ranked"]) == ("0.5", "1.0")
    assert lexical["auc_ranked"] == lexical["auc"]  # no supports: the score's order


def test_the_baseline_is_one_minus_the_share_of_content_words_missing() -> None:
    cases = pl.DataFrame(
        {
            "actual_output": ["Order A17 shipped.", "The order was lost in Berlin.", "It is."],
            "retrieval_context": [["Order A17 shipped on 3 March."]] * 3,
        }
    )
    # content words: order a17 shipped (all found) | order lost berlin (1 of 3) | none
    assert baseline_score(cases).to_list() == pytest.approx([1.0, 1 / 3, 1.0])


@pytest.mark.parametrize("script", ["grounded_trials.py", "v4_trials.py", "v6_trials.py"])
def test_the_trials_benches_without_dev_sets_say_so_and_exit_0(tmp_path: Path, script: str) -> None:
    done = _bench(tmp_path, script=script)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"no dev set under {tmp_path}: nothing to try"


def test_a_negation_counts_in_the_v6_trial_only_where_it_scopes_the_other_sides_words() -> None:
    from v6_trials import negation_in_scope

    long = "Experts say it was built by the Uighurs, but it is not clear what their motive was."
    # the sentence's "not" scopes "clear", which the claim never says: no contradiction
    assert not negation_in_scope("Experts say it was built by the Uighurs.", long, 2)
    # one side negates what the other states
    assert negation_in_scope("Refunds are not paid.", "Refunds are paid within 5 days.", 1)
    assert negation_in_scope("It shipped by courier.", "It never shipped by courier.", 1)
    # both negate the same: the same polarity ("n't" is "not")
    assert not negation_in_scope("It wasn't shipped.", "It was not shipped at all.", 1)
    # "not ... clear" is two content words from "motive": in scope from a window of 2
    assert not negation_in_scope("Their motive was known.", "It is not clear what motive.", 1)
    assert negation_in_scope("Their motive was known.", "It is not clear what motive.", 2)


def test_each_set_held_out_is_scored_by_a_fit_on_the_other_sets() -> None:
    from fit_grounded import NAMES, held_out

    rows = []
    for s, shift in (("salad", 0.0), ("wice", 0.3), ("begin", 0.6)):
        for i in range(40):
            faithful = i % 2 == 0
            row: dict[str, float] = dict.fromkeys(NAMES[1:], 0.0)
            row.update(cov_best=(0.9 if faithful else 0.2) - shift * (i % 3 == 0), cov_all=0.5)
            rows.append(
                {
                    "set": s,
                    "case_id": f"{s}{i}",
                    "faithful": faithful,
                    "document": i,
                    "verbatim": False,
                    "has_words": True,
                    "answer_found": 0.3,
                    "contradicted": False,
                    **row,
                }
            )
    cases = held_out(pl.DataFrame(rows), by_set=True)
    # every case once, from the fold of its own set
    assert cases.height == 120
    assert cases.group_by("set").len().sort("set").rows() == [
        ("begin", 40),
        ("salad", 40),
        ("wice", 40),
    ]
    assert cases["success"].sum() > 0


def test_the_v3_gain_bench_without_dev_sets_says_so_and_exits_0(tmp_path: Path) -> None:
    done = _bench(tmp_path, script="v3_gain.py")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"no dev set under {tmp_path}: nothing to compare"


def test_a_paired_bootstrap_tells_a_real_gain_from_none() -> None:
    from v3_gain import paired_gain

    faithful = [i % 2 == 0 for i in range(200)]
    # `better` is right on 180 of 200 cases, `worse` on 140; `same` copies `worse`
    better = [f if i % 10 else not f for i, f in enumerate(faithful)]
    worse = [f if i % 10 > 2 else not f for i, f in enumerate(faithful)]
    cases = pl.DataFrame(
        {
            "set": ["gain"] * 200 + ["none"] * 200,
            "faithful": faithful * 2,
            "before": worse * 2,
            "after": better + worse,
        }
    )
    gain, none = paired_gain(cases, resamples=500, seed=0)
    assert gain["set"] == "gain"
    assert gain["v3 - v2"] == pytest.approx(0.2)
    assert gain["resamples v3 ahead"] == 1.0
    assert gain["verdicts changed"] == 40
    assert (none["v3 - v2"], none["resamples v3 ahead"], none["verdicts changed"]) == (0.0, 0.0, 0)
    low, high = (float(x) for x in str(gain["95% interval"]).split(" to "))
    assert 0.0 < low < 0.2 < high


def test_the_calibration_bench_averages_its_samples(tmp_path: Path) -> None:
    """bench/calibration_check.py on a planted set the default judge passes whole: each of two
    samples of 40 labels fits a perfect cut-off, as the held-out cases show."""
    from tests.support.planted import planted_cases

    planted_cases(80).drop("logged_at").write_parquet(tmp_path / "wice_dev.parquet")
    done = _bench_here(tmp_path, "--labels", "40", "--samples", "2", script="calibration_check.py")
    assert done.returncode == 0, done.stderr
    assert "40 labelled cases, 2 samples (seeds 20-21)" in done.stdout
    row = next(line.split() for line in done.stdout.splitlines() if line.startswith("wice"))
    # set, samples, held-out default, cut-offs only and calibrated mean ± sd (40 labels: the
    # weights are the judge's own), worse than default, worse than cut-offs only
    assert row == [
        "wice", "2", "0.500", "1.000", "±", "0.000", "1.000", "±", "0.000",
        "0", "of", "2", "0", "of", "2",
    ]  # fmt: skip


def test_the_calibration_bench_without_dev_sets_says_so_and_exits_0(tmp_path: Path) -> None:
    done = _bench(tmp_path, script="calibration_check.py")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"no development sets in {tmp_path}: nothing to check"


def test_the_citation_bench_cites_each_sentence_and_v4_changes_nothing(tmp_path: Path) -> None:
    from citation_style import attributed, markers

    answer = "Order A17 shipped on 3 March. It went by courier!"
    assert markers(answer, 2) == "Order A17 shipped on 3 March [1]. It went by courier [2]!"
    assert attributed(answer, 2) == (
        "Based on the provided passages, Order A17 shipped on 3 March. "
        "It went by courier (Passage 1)!"
    )
    context = ["Order A17 shipped on 3 March.", "It went by courier."]
    pl.DataFrame(
        {
            "case_id": ["a", "b"],
            "input": ["Where is A17?"] * 2,
            "actual_output": [answer, "Order A17 was lost."],
            "retrieval_context": [context] * 2,
            "label": [1, 0],
            "source": ["BEGIN | wow (Wizard) | dev"] * 2,
            "label_detail": ["{}"] * 2,
        }
    ).write_parquet(tmp_path / "begin_dev.parquet")
    done = _bench_here(tmp_path, script="citation_style.py")
    assert done.returncode == 0, done.stderr
    rows = [line.split() for line in done.stdout.splitlines() if " begin " in line]
    changed = {(r[0], " ".join(r[2:-4])): float(r[-1]) for r in rows}
    assert changed[("grounded", "[k] markers")] == changed[("grounded", "attributed")] == 0.0
    assert changed[("grounded-v3", "[k] markers")] > 0.0  # "[1]" read as a missing figure
    assert _bench(tmp_path / "none", script="citation_style.py").returncode == 0


def test_the_discourse_trial_names_absent_sets_and_exits_0(tmp_path: Path) -> None:
    done = _bench(tmp_path, script="discourse_trial.py")
    assert done.returncode == 0, done.stderr
    assert "nothing to measure" in done.stdout


def test_the_claim_oracle_counts_an_answer_with_half_its_sentences_supported_as_a_pass(
    tmp_path: Path,
) -> None:
    context = ["Order A17 shipped on 3 March by courier. Refunds take 5 days."]

    def sentences(*supported: bool) -> list[dict[str, object]]:
        return [{"text": f"Sentence {i}.", "supported": s} for i, s in enumerate(supported)]

    pl.DataFrame(
        {
            "case_id": ["a", "b", "c", "d"],
            "input": ["Where is A17?"] * 4,
            "actual_output": ["Order A17 shipped on 3 March. Refunds take 5 days."] * 4,
            "retrieval_context": [context] * 4,
            "label": [1, 0, 0, 1],
            "subset": ["webgpt"] * 4,
            "generator": ["g"] * 4,
            "sentences": [
                sentences(True, True),
                sentences(True, False),  # half supported: the oracle passes it at 0.5
                sentences(False),
                sentences(True, True, True),
            ],
        }
    ).write_parquet(tmp_path / "salad_dev.parquet")
    done = _bench_here(tmp_path, script="claim_oracle.py")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()  # the absent sets are named first
    at = next(i for i, line in enumerate(lines) if line.startswith("set "))
    row = dict(zip(lines[at].split(), lines[at + 2].split(), strict=True))
    assert (row["set"], row["part"], row["cases"]) == ("salad", "(all)", "4")
    assert (row["oracle_bal_acc_0.5"], row["oracle_bal_acc_strict"]) == ("0.75", "1.0")

    absent = _bench(tmp_path / "none", script="claim_oracle.py")
    assert absent.returncode == 0, absent.stderr
    assert "no dev set with sentence labels" in absent.stdout


def test_v10_reads_a_spaced_context_number_whole_where_v9_did_not(tmp_path: Path) -> None:
    """bench/judge_quality.py, v9 against v10: v9 leaves the context's "235, 000" two words, so
    the claim's "235,000" is `no`; v10 also reads it whole, so the claim passes."""
    context = ["The video was viewed more than 235, 000 times in a week."]
    pl.DataFrame(
        {
            "case_id": ["a", "b"],
            "input": ["How often was it viewed?"] * 2,
            "actual_output": ["It was viewed more than 235,000 times.", "It was viewed twice."],
            "retrieval_context": [context] * 2,
            "label": [1, 0],
            "source": ["BEGIN | wow (Wizard) | dev"] * 2,
            "label_detail": ["{}"] * 2,
        }
    ).write_parquet(tmp_path / "begin_dev.parquet")
    done = _bench_here(tmp_path, "--judges", "grounded-v9,grounded")
    assert done.returncode == 0, done.stderr
    balanced_accuracy = {
        cells[0]: float(cells[4])
        for cells in (line.split() for line in done.stdout.splitlines())
        if len(cells) >= 5 and cells[1:3] == ["begin", "(all)"]
    }
    assert balanced_accuracy == {"grounded-v9": 0.5, "grounded": 1.0}


@pytest.mark.parametrize(
    ("versions", "said"),
    [
        ("grounded-v99,grounded-v13", "unknown grounded rules 'grounded-v99'"),
        ("grounded-v13", "--versions grounded-v13: two rules versions, older first"),
    ],
)
def test_swapped_words_refuses_versions_it_cannot_compare_in_one_line(
    tmp_path: Path, versions: str, said: str
) -> None:
    """A mistyped version was faith_udfs' ConfigError traceback; one version alone a
    ValueError's (not enough values to unpack)."""
    done = _bench_here(tmp_path, "--versions", versions, script="swapped_words.py")
    assert done.returncode == 2
    assert done.stdout == ""
    assert said in done.stderr.strip().splitlines()[-1]


def test_the_default_judge_is_asked_for_by_its_version_too(tmp_path: Path) -> None:
    """README and judge-quality.md name the default `grounded-v13` (as `faith score --model`
    takes it), and compare it with v12 (`--judges grounded,grounded-v12`): asked for as
    `grounded-v12,grounded-v13` the bench refused "unknown judge(s) ['grounded-v13']"."""
    from faith_udfs.grounded import GROUNDED_RULES_VERSION

    context = ["Order A17 shipped on 3 March by courier."]
    pl.DataFrame(
        {
            "case_id": ["a", "b"],
            "input": ["Where is A17?"] * 2,
            "actual_output": ["Order A17 shipped on 3 March.", "Order A17 was cancelled."],
            "retrieval_context": [context] * 2,
            "label": [1, 0],
            "source": ["BEGIN | wow (Wizard) | dev"] * 2,
            "label_detail": ["{}"] * 2,
        }
    ).write_parquet(tmp_path / "begin_dev.parquet")
    done = _bench_here(tmp_path, "--judges", f"grounded,{GROUNDED_RULES_VERSION}")
    assert done.returncode == 0, done.stderr
    rows = {
        cells[0]: cells[3:]
        for cells in (line.split() for line in done.stdout.splitlines())
        if cells[1:3] == ["begin", "(all)"]
    }
    assert set(rows) == {"grounded", GROUNDED_RULES_VERSION}
    assert rows[GROUNDED_RULES_VERSION] == rows["grounded"]
