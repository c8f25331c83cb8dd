"""docs/nightly.md and docs/scheduling.md say what faithpipe does today: the golden set's
agreement figures are the ones the offline judges reach (the page said 37/37 and 36/37 after
the judges had moved to 36/36 and 35/37), the alert links reach the alerts' section, and the
exit codes of `faith nightly` include its own two."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from faith_udfs import GroundedJudge, LexicalJudge, MetricConfig
from flows.nightly.nightly_run import check_judge, read_golden
from tests.test_docs import ROOT, headings

DOCS = ROOT / "docs"
NIGHTLY = DOCS / "nightly.md"


def prose(page: Path) -> str:
    """The page's text with every run of whitespace one space: sentences wrap anywhere."""
    return " ".join(page.read_text().split())


@pytest.fixture(scope="module")
def agreement() -> dict[str, dict]:
    """Each offline judge's check on the bundled golden set, as `faith nightly` runs it."""
    golden = read_golden(ROOT / "data" / "golden.parquet")
    judges = {"grounded": GroundedJudge(), "lexical": LexicalJudge()}
    return {
        name: check_judge(golden, judge, MetricConfig(), floor=0.9).summary()
        for name, judge in judges.items()
    }


def test_the_golden_figures_are_the_judges_own(agreement: dict[str, dict]) -> None:
    text = prose(NIGHTLY)
    grounded, lexical = agreement["grounded"], agreement["lexical"]
    assert (
        f"grounded judge (the default) agrees on {grounded['agreed']} of {grounded['items']} "
        f"items ({grounded['agreement']:.1%}".replace("%", " %")
        in text
    )
    assert (
        f"the lexical judge on {lexical['agreed']} of {lexical['items']} "
        f"({lexical['agreement']:.1%}".replace("%", " %")
        in text
    )
    for item in lexical["disagreements"]:
        assert f"`{item['case_id']}`" in text, f"{item['case_id']} is not named"
    assert len(lexical["disagreements"]) == text.count("`golden-")


def test_the_commands_shown_print_those_figures(agreement: dict[str, dict]) -> None:
    text = NIGHTLY.read_text()
    shown = re.findall(r"^faith nightly .*# agreement ([\d.]+%) \((\d+/\d+)\)$", text, re.M)
    lines = re.findall(r"^faith nightly .*# agreement", text, re.M)
    kinds = ["lexical" if "--judge lexical" in line else "grounded" for line in lines]
    assert kinds == ["grounded", "lexical"]
    for kind, (rate, count) in zip(kinds, shown, strict=True):
        check = agreement[kind]
        assert (rate, count) == (f"{check['agreement']:.1%}", f"{check['agreed']}/{check['items']}")
    # the sample check line is the default judge's
    grounded = agreement["grounded"]
    assert f"({grounded['agreed']}/{grounded['items']}), floor 90.0%: ok" in text


@pytest.mark.parametrize("page", ["nightly.md", "scheduling.md"])
def test_alert_links_reach_the_alerts_section(page: str) -> None:
    links = [
        (words, target)
        for words, target in re.findall(r"\[([^\]]+)\]\(([^)\s]+)\)", prose(DOCS / page))
        if "alert" in words.lower()
    ]
    assert links, f"{page} links to no alert"
    for words, target in links:
        assert target == "report.md#pass-rate-alerts", f"[{words}] links to {target}"
    assert "pass-rate-alerts" in headings(DOCS / "report.md")


def test_the_exit_codes_of_nightly_include_its_own() -> None:
    (sentence,) = re.findall(r"Exit codes are those of `faith score`[^.]*\.", prose(NIGHTLY))
    for code in ("9", "15"):
        assert re.search(rf"\b{code}\b", sentence), f"exit {code} is not named: {sentence}"
