"""The report's failing claims with what the context lacks marked in the claim itself (issue
20: "the report shows the claim with those parts marked"), found as the claim writes them."""

from __future__ import annotations

import pytest

from flows.report.markup import marked_claim


@pytest.mark.parametrize(
    ("claim", "lacks", "shown"),
    [
        ("Refunds are paid within 9 days.", ["9"], "Refunds are paid within <mark>9</mark> days."),
        # the first word is stored lower-cased; a name as written
        (
            "Warranty covers Berlin.",
            ["warranty", "Berlin"],
            "<mark>Warranty</mark> covers <mark>Berlin</mark>.",
        ),
        # grounded-v9 lacks "2000" for "2,000" and "dollar" for "$"
        ("The TV costs 2,000 dollars.", ["2000"], "The TV costs <mark>2,000</mark> dollars."),
        ("The fee is $4.90.", ["dollar", "4.90"], "The fee is <mark>$</mark><mark>4.90</mark>."),
        ("Sales rose 15%.", ["15", "percent"], "Sales rose <mark>15</mark><mark>%</mark>."),
        # a number is marked whole, never inside another
        ("Order 10000 ships, not 1000.", ["1000"], "Order 10000 ships, not <mark>1000</mark>."),
        ("It costs 1,000.50 euros.", ["1000"], "It costs 1,000.50 euros."),
        # a word of the claim inside another word is not it
        ("Cats and a cat.", ["cat"], "Cats and a <mark>cat</mark>."),
        # the claim's text is escaped, never markup
        (
            "Use <b>care</b> & 5 tips.",
            ["5"],
            "Use &lt;b&gt;care&lt;/b&gt; &amp; <mark>5</mark> tips.",
        ),
        # a word the claim does not write as the judge read it ("n't" as "not") is left unmarked
        ("It isn't free.", ["not"], "It isn&#x27;t free."),
        ("Shipped.", [""], "Shipped."),
        # two lacked words from one place: the longer is marked whole
        ("Sent to New York.", ["New", "New York"], "Sent to <mark>New York</mark>."),
    ],
)
def test_each_lacked_word_is_marked_where_the_claim_writes_it(
    claim: str, lacks: list[str], shown: str
) -> None:
    assert marked_claim(claim, lacks) == shown


def test_a_long_claim_is_cut_and_only_its_own_words_are_marked() -> None:
    """A claim past 2,000 characters is cut, saying how much was left out; a lacked word or
    number that the note writes too ("more", the count) was marked inside the note, the
    report's own words shown as what the context lacks."""
    claim = "We need more time for 1,019 boxes " + "x" * 2_985
    shown = marked_claim(claim, ["more", "1019"])
    assert shown.startswith("We need <mark>more</mark> time for <mark>1,019</mark> boxes xxx")
    assert shown.endswith("x… (1,019 more characters)")
    assert shown.count("<mark>") == 2


@pytest.mark.parametrize(
    ("answer", "marked"),
    [
        # lower-cased, "İ" is two characters ("i" and a combining dot): it was never found
        ("İstanbul flights leave at 9.", "<mark>İstanbul</mark> flights leave at 9."),
        ("İzmir and Ankara get it.", "<mark>İzmir</mark> and Ankara <mark>get</mark> it."),
        ("Straße opens.", "<mark>Straße</mark> <mark>opens</mark>."),
        # the judge reads NFC without format characters: a log's decomposed "ü" (macOS, some
        # web pages) or soft hyphen ("Ber\u00adlin") was listed as lacked, never marked
        (
            "Flights leave at 9 from Zu\u0308rich.",
            "Flights leave at 9 from <mark>Zu\u0308rich</mark>.",
        ),
        (
            "Flights leave at 9 from Ber\u00adlin.",
            "Flights leave at 9 from <mark>Ber\u00adlin</mark>.",
        ),
        ("Cafe\u0301s leave at 9.", "<mark>Cafe\u0301s</mark> leave at 9."),
    ],
)
def test_a_word_is_marked_as_the_log_writes_what_the_judge_read(answer: str, marked: str) -> None:
    """The judge stores a sentence's first word lower-cased, and reads the text composed
    (NFC) without format characters: the claim's word is marked as the log writes it, also
    where lower-casing makes it longer ("İstanbul" -> "i̇stanbul") or the log composes it
    otherwise."""
    import polars as pl

    from faith_udfs import GroundedJudge, MetricConfig, score_cases

    cases = pl.DataFrame(
        {
            "case_id": ["k"],
            "input": ["Where?"],
            "actual_output": [answer],
            "retrieval_context": [["Flights leave at 9 from Ankara."]],
        }
    )
    (verdict,) = score_cases(cases, GroundedJudge(), MetricConfig()).claim_verdicts.to_dicts()
    assert verdict["verdict"] == "no"
    assert marked_claim(verdict["claim"], verdict["context_lacks"]) == marked


def test_part_of_a_lengthened_character_is_not_marked() -> None:
    """Lower-cased, "İ" is "i" and a combining dot: a lacked "i" is not the "İ" of a name."""
    assert marked_claim("İstanbul is far.", ["i"]) == "İstanbul is far."
