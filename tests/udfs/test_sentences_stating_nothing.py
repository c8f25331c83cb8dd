"""grounded-v11: a sentence that states nothing is no claim: one without a letter or a digit
(an emoji, an emoticon, "..."), one announcing the bot's next step ("Let me check that for
you."), and a bare refusal to help ("I'm sorry, but I can't assist with that."). Under v10 the
first was a claim with no content word, `idk` (a chat bot's "😊" halved its answer's score
with `penalize_ambiguous_claims`), the others claims the context lacked, `no` (an agent's turn
before its tool call failed, and so did a refused turn)."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from faith_udfs import FaithfulnessMetric, GroundedJudge, LLMTestCase
from faith_udfs.grounded import GroundedV10Judge
from faith_udfs.grounded_words import is_worded
from faith_udfs.judges import Judge
from faith_udfs.one_case_grounded import is_worded_text
from flows.run.pipeline import run_score
from flows.run.settings import ScoreSettings
from tests.support.builders import case_row, cases, write
from tests.support.db_reading import query

CONTEXT = ["Order A17 shipped on 3 March by courier.", "Refunds are paid within 5 working days."]
SHIPPED = "Order A17 shipped on 3 March."


def claims_and_score(answer: str, judge: Judge) -> tuple[list[tuple[str, str]], float]:
    metric = FaithfulnessMetric(model=judge, penalize_ambiguous_claims=True)
    score = metric.measure(LLMTestCase(input="q", actual_output=answer, retrieval_context=CONTEXT))
    return [(v.claim, v.verdict) for v in metric.verdicts], score


@pytest.mark.parametrize(
    "after",
    [
        "😊",  # an emoji (not plain ASCII: the batch path)
        ":)",  # an emoticon (plain ASCII: the one-case path)
        "...",
        "—",
        "❤️",  # a heart and its variation selector, a mark
        "👨\u200d👩\u200d👧",  # a family: three emoji joined by zero-width joiners
        "?!",
    ],
)
def test_a_sentence_without_a_letter_or_digit_is_no_claim(after: str) -> None:
    answer = f"{SHIPPED} {after}"
    assert claims_and_score(answer, GroundedJudge()) == ([(SHIPPED, "yes")], 1.0)
    # v10 judged it a claim with nothing to look for: `idk`, half the penalized score
    v10_claims, v10_score = claims_and_score(answer, GroundedV10Judge())
    assert [verdict for _, verdict in v10_claims] == ["yes", "idk"]
    assert v10_score == 0.5


@pytest.mark.parametrize(
    ("answer", "claims"),
    [
        # a figure alone answers a question: the context must hold it
        ("Within 5. 9.", ["Within 5.", "9."]),
        ("😊 Order A17 shipped on 3 March.", ["😊 Order A17 shipped on 3 March."]),
        ("Заказ A17 отправлен.", ["Заказ A17 отправлен."]),  # letters of any script
        ("订单已发货。", ["订单已发货。"]),
    ],
)
def test_a_sentence_with_a_letter_or_digit_stays_a_claim(answer: str, claims: list[str]) -> None:
    got, _ = claims_and_score(answer, GroundedJudge())
    assert [claim for claim, _ in got] == claims


def test_an_answer_of_an_emoji_alone_has_no_claim_and_scores_1() -> None:
    # DeepEval's rule for an answer without claims: nothing to contradict, score 1
    assert claims_and_score("😊", GroundedJudge()) == ([], 1.0)
    assert claims_and_score("😊", GroundedV10Judge()) == ([("😊", "idk")], 0.0)


ANNOUNCEMENTS = [
    "Let me check that for you.",
    "Sure, let me look that up for you.",
    "I'll look into it.",
    "I will check the status of your order.",
    "I'm checking your order now.",
    "One moment, please.",
    "Just a moment while I look up your order.",
    "Please hold on while I check.",
    "Give me a second.",
]


@pytest.mark.parametrize("announcement", ANNOUNCEMENTS)
def test_a_bot_announcing_its_next_step_states_no_claim(announcement: str) -> None:
    answer = f"{announcement} {SHIPPED}"
    assert claims_and_score(answer, GroundedJudge()) == ([(SHIPPED, "yes")], 1.0)
    # v10 judged the announcement a claim: `no` where the context holds a word of it ("your
    # order"), else a silent aside, `idk`; either way half the penalized score
    v10_claims, v10_score = claims_and_score(answer, GroundedV10Judge())
    claim, verdict = v10_claims[0]
    assert announcement.endswith(claim)  # "Sure, " cut: an opening
    assert verdict == ("no" if "order" in announcement else "idk")
    assert (v10_claims[1:], v10_score) == ([(SHIPPED, "yes")], 0.5)


@pytest.mark.parametrize(
    "sentence",
    [
        "Let me check: your order has shipped.",  # the news after the colon is a claim
        "Let me look into why your order was cancelled.",  # says it was cancelled
        "Let me confirm that your order has shipped.",
        "Please wait 5 minutes before you try again.",
        "Wait for the confirmation email.",
        "Hold on, your order has shipped.",
        "Checking accounts earn no interest.",
        "A moment ago your order shipped.",
    ],
)
def test_an_announcement_that_says_something_stays_a_claim(sentence: str) -> None:
    got, _ = claims_and_score(sentence, GroundedJudge())
    assert [claim for claim, _ in got] == [sentence]


@pytest.mark.parametrize(
    "refusal",
    [
        "I'm sorry, but I can't assist with that.",  # OpenAI's models' refusal
        "I can't help with that.",
        "Sorry, I cannot help you with that request.",
        "I am unable to help with that.",
    ],
)
def test_a_bare_refusal_to_help_states_no_claim(refusal: str) -> None:
    assert claims_and_score(refusal, GroundedJudge()) == ([], 1.0)
    # v10: a claim the context lacks, so a conversation's refused turn failed
    assert claims_and_score(refusal, GroundedV10Judge())[1] == 0.0


def test_a_refusal_that_states_a_policy_stays_a_claim() -> None:
    got, _ = claims_and_score("I can't help with refunds over 500 euros.", GroundedJudge())
    assert [claim for claim, _ in got] == ["I can't help with refunds over 500 euros."]


ALPHABET = st.sampled_from(
    [
        "a",
        "Z",
        "é",
        "ж",
        "订",
        "ـ",  # Arabic tatweel, a modifier letter (Lm)
        "5",
        "²",  # a superscript two: a number (No), no decimal digit
        "Ⅻ",  # a Roman numeral: a letter number (Nl)
        " ",
        ".",
        "!",
        "_",
        "—",
        "😊",
        "\u200d",  # the zero-width joiner: Rust's `\w` holds it
        "\ufe0f",  # a variation selector, a mark: Rust's `\w` holds it too
        "\u0301",  # a combining accent
        "\u200b",
    ]
)


@settings(max_examples=200, deadline=None)
@given(texts=st.lists(st.text(ALPHABET, max_size=6), min_size=1, max_size=20))
def test_the_batch_and_the_one_case_twin_read_letters_and_digits_alike(
    texts: list[str],
) -> None:
    batch = pl.select(is_worded(pl.lit(pl.Series(texts, dtype=pl.String)))).to_series()
    assert batch.to_list() == [is_worded_text(text) for text in texts]


def test_a_run_stores_no_claim_for_a_smiley(tmp_path: Path) -> None:
    rows = [
        case_row("smiley", f"{SHIPPED} :)", retrieval_context=CONTEXT),
        case_row("emoji", f"{SHIPPED} 😊", retrieval_context=CONTEXT),
        case_row("alone", "👍", retrieval_context=CONTEXT),
    ]
    source, db = write(cases(rows), tmp_path / "cases.parquet"), tmp_path / "f.duckdb"
    penalized = ScoreSettings(source=str(source), db=str(db), penalize_ambiguous_claims=True)
    summary = run_score(penalized)
    assert (summary["status"], summary["rows_scored"]) == ("completed", 3)
    scores = query(db, "SELECT case_id, status, score, n_claims FROM case_scores ORDER BY 1")
    claims = query(db, "SELECT case_id, claim FROM claim_verdicts ORDER BY case_id")
    assert scores == [
        ("alone", "scored", 1.0, 0),
        ("emoji", "scored", 1.0, 1),
        ("smiley", "scored", 1.0, 1),
    ]
    assert claims == [("emoji", SHIPPED), ("smiley", SHIPPED)]


def test_the_bench_prints_v10_judging_a_smiley_and_v11_not(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parents[2] / "bench"))
    import swapped_words

    assert swapped_words.main(["--devsets", str(tmp_path)]) == 0  # v10 against v11
    out = capsys.readouterr().out
    smiley = "v10 yes (1.000), idk (0.000) v11 yes (1.000)    Your order shipped on 3 March. :)"
    assert smiley in out
    # the bundled sample's answers hold no such sentence
    assert "data/sample/cases.parquet: 0 claims whose verdict v11 changes" in out
