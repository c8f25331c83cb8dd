"""Strict packed-reply parsing and the whose-answer-is-it rules (issue 27), pure and fast."""

from __future__ import annotations

import json

import pytest

from faith_udfs.errors import JudgeReplyError
from faith_udfs.packed_replies import (
    coverage,
    misfiled_statement,
    misfiled_verdicts,
    split_packed,
    strict_loads,
    text_words,
    top_level_object,
)

A17 = "Order A17 shipped on 3 March by courier."
B22 = "Refunds for order B22 are paid within 14 days to the original card."


def test_a_key_written_twice_is_a_reply_error_naming_it() -> None:
    reply = '{"items": [{"item": 1, "claims": ["A"]}], "items": [{"item": 1, "claims": ["B"]}]}'
    with pytest.raises(JudgeReplyError, match="'items' twice"):
        top_level_object(reply)
    with pytest.raises(JudgeReplyError, match="'claims' twice"):
        strict_loads('{"claims": ["a"], "claims": ["b"]}')
    assert json.loads('{"a": 1, "a": 2}') == {"a": 2}  # what plain json would have kept


@pytest.mark.parametrize(
    ("entries", "wrong"),
    [
        ([{"item": 1, "claims": []}, {"item": 1, "claims": []}], "given twice"),
        ([{"item": 1, "claims": []}, {"item": 3, "claims": []}], "out of range"),
        ([{"item": n, "claims": []} for n in (1, 2, 3)], "3 entries for 2 items"),
        ([{"claims": []}, {"claims": []}, {"claims": []}], "3 entries for 2 items"),
        ([{"item": 1, "claims": []}, {"claims": []}], "entry 2 of the reply has no item"),
        ([{"item": True, "claims": []}], "not an integer"),
    ],
)
def test_item_numbers_out_of_range_doubled_or_extra_are_named(
    entries: list[dict[str, object]], wrong: str
) -> None:
    with pytest.raises(JudgeReplyError, match=wrong):
        split_packed({"items": entries}, "claims", 2)


def test_a_missing_entry_is_asked_again_not_an_error() -> None:
    assert split_packed({"items": [{"item": 2, "claims": ["x"]}]}, "claims", 2) == [
        None,
        {"claims": ["x"]},
    ]


def test_statements_from_their_own_text_pass() -> None:
    claims = ["Order A17 shipped on 3 March.", "It ships by courier."]
    assert misfiled_statement(claims, A17, {2: B22}) is None
    assert misfiled_statement([], A17) is None
    assert coverage(text_words("It is so."), text_words(A17)) == 1.0


def test_another_items_statements_are_refused() -> None:
    shifted = ["Refunds for the order are paid within days."]
    assert "not taken from this item" in (misfiled_statement(shifted, A17) or "")
    assert "names '14'" in (misfiled_statement(["Refunds take 14 days."], A17) or "")
    merged = ["Order A17 shipped on 3 March.", "Refunds are paid within 14 days."]
    assert "statement 2" in (misfiled_statement(merged, A17, {2: B22}) or "")


def test_a_statement_naming_an_id_its_text_lacks_is_refused() -> None:
    # Two thirds of its words are this item's, but the order and the day are another's.
    assert "names 'z100'" in (misfiled_statement(["Order Z100 left on 3 March."], A17) or "")


def test_a_statement_closer_to_another_item_is_filed_wrong() -> None:
    # Shares more than half with its own text, but another item's text holds all of it.
    own = "Order A17 shipped on 3 March."
    other = "Order A17 shipped on 3 March by courier from Leeds."
    claim = ["Order A17 shipped by courier from Leeds."]
    assert "item 2" in (misfiled_statement(claim, own, {2: other}) or "")


# A shop's bot in Chinese and in Japanese: scripts written without spaces between words.
ZH_A17 = "您好，您的订单A17已于3月3日由快递发出，预计5天内送达。"
ZH_B22 = "订单B22的退款将在14天内退回原银行卡。"
JA_A17 = "ご注文A17は3月3日に宅配便で発送されました。"


def test_statements_in_a_script_without_spaces_are_held_to_their_own_text() -> None:
    """Chinese and Japanese have no spaces, so a whole clause was one 'word': a claim that
    restated its answer's clause in part named a 'word' (with its digits) the answer lacks,
    and every such answer was refused and its case left invalid. Their characters are read
    in pairs: a restatement is its own text's, another item's statement is not."""
    restated = ["订单A17已于3月3日发出。", "预计5天内送达。"]
    assert misfiled_statement(restated, ZH_A17, {2: ZH_B22}) is None
    assert misfiled_statement(["ご注文A17は3月3日に発送された。"], JA_A17) is None
    assert "names '14'" in (misfiled_statement(["退款将在14天内退回。"], ZH_A17) or "")
    assert "names 'b22'" in (misfiled_statement(["订单B22已发出。"], ZH_A17) or "")
    assert "not taken from this item" in (misfiled_statement(["退款退回原银行卡。"], ZH_A17) or "")
    # Most of it is its own text's, but another item's text holds all of it.
    own, other = "订单A17已于3月3日发出。", "订单A17已于3月3日由快递发出。"
    assert "item 2" in (misfiled_statement([other], own, {2: other}) or "")


def test_packed_verdicts_must_name_their_claims() -> None:
    part = {"verdicts": [{"claim": 1, "verdict": "yes"}, {"verdict": "no"}]}
    assert "verdict 2 does not name" in (misfiled_verdicts(part, 2, A17) or "")
    assert "3 verdicts" in (misfiled_verdicts({"verdicts": [{"claim": 1}] * 3}, 2, A17) or "")
    assert misfiled_verdicts({"verdicts": [{"claim": 2}, {"claim": 1}]}, 2, A17) is None


def test_a_verdict_whose_reason_speaks_of_another_item_is_filed_wrong() -> None:
    # Same count, same numbers: only the reason tells that the verdicts were shifted.
    shifted = {
        "verdicts": [
            {"claim": 1, "verdict": "yes", "reason": ""},
            {"claim": 2, "verdict": "no", "reason": "The context says refunds take 14 days."},
        ]
    }
    assert "item 2" in (misfiled_verdicts(shifted, 2, A17, {2: B22}) or "")
    own = {"verdicts": [{"claim": 1, "verdict": "idk", "reason": "Courier not stated."}]}
    assert misfiled_verdicts(own, 1, A17, {2: B22}) is None


THOUGHT = '<think>\nThe claim says {"shipped": "3 March"}; the context agrees.\n</think>\n\n'
VERDICTS = '{"verdicts": [{"claim": 1, "verdict": "yes"}]}'


@pytest.mark.parametrize("block", ["think", "thinking", "reasoning", "THINK"])
def test_a_thinking_models_reasoning_block_is_read_past(block: str) -> None:
    """DeepSeek-R1 or Qwen3 behind llama.cpp write their reasoning first; its braces are not
    the reply's (they made it 'more than one JSON value' or the wrong object)."""
    reply = THOUGHT.replace("think>", f"{block}>") + VERDICTS
    assert top_level_object(reply) == json.loads(VERDICTS)
    fenced = THOUGHT + "```json\n" + VERDICTS + "\n```"
    assert top_level_object(fenced) == json.loads(VERDICTS)


def test_reasoning_whose_opening_tag_the_chat_template_wrote_is_read_past() -> None:
    """DeepSeek-R1's distills behind llama.cpp (no reasoning parser): the template ends the
    prompt with `<think>`, so the reply is the reasoning's end, `</think>`, then the answer.
    Before, its braces (or its length past 200 characters) made every reply unusable."""
    unopened = THOUGHT.removeprefix("<think>")
    assert top_level_object(unopened + VERDICTS) == json.loads(VERDICTS)
    long_thought = "Okay, let me check each claim against the context. " * 10 + "</think>\n"
    assert top_level_object(long_thought + VERDICTS) == json.loads(VERDICTS)
    # An answer that quotes the tag inside its strings is read as it is.
    quoted = '{"claims": ["The bot wrote </think> in its reply."]}'
    assert top_level_object(quoted) == json.loads(quoted)
    assert top_level_object("Here it is: " + quoted) == json.loads(quoted)


def test_the_deepeval_drop_in_reads_a_usable_reply_whatever_its_strings_quote() -> None:
    """A DeepEval-shaped model's fenced or chatty reply whose reason quotes `</think>` (a bot
    whose reasoning leaked into its answer) was cut after the tag whenever a `{` followed it:
    a verdicts reply came back as its second verdict's object, and the case was invalid."""
    from faith_udfs.deepeval_models import reply_dict

    verdicts = (
        '{"verdicts": [{"verdict": "no", "reason": "The bot leaked </think> into its answer."}, '
        '{"verdict": "yes", "reason": null}]}'
    )
    assert reply_dict("```json\n" + verdicts + "\n```") == json.loads(verdicts)
    assert reply_dict("Here it is: " + verdicts) == json.loads(verdicts)
    # A template-opened reasoning, braces and all, is still read past.
    assert reply_dict(THOUGHT.removeprefix("<think>") + verdicts) == json.loads(verdicts)


@pytest.mark.parametrize(
    "reply",
    ["", "  \n", "<think>Nothing to add.</think>\n"],
    ids=["nothing", "white space", "reasoning only"],
)
def test_an_empty_reply_says_it_is_empty(reply: str) -> None:
    """It said `reply holds no JSON object: ` and then nothing, which reads as a cut line."""
    with pytest.raises(JudgeReplyError, match=r"^the reply is empty \(no text"):
        top_level_object(reply)


def test_a_reasoning_block_left_open_or_after_the_answer_stays_an_error() -> None:
    with pytest.raises(JudgeReplyError, match="stops inside its <think> block"):
        top_level_object('<think>The claim says {"shipped": "3 March"} and')
    with pytest.raises(JudgeReplyError, match="more than one JSON value"):
        top_level_object(VERDICTS + "\n" + THOUGHT)  # only an opening block is read past


def test_the_deepeval_drop_in_reads_past_the_reasoning_block_too() -> None:
    """A DeepEval model wrapping a thinking model gives the same text to the drop-in."""
    from faith_udfs.deepeval_models import reply_dict

    assert reply_dict(THOUGHT + VERDICTS) == json.loads(VERDICTS)
