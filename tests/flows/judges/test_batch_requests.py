"""The Batch API's file formats (flows/judges/batch/requests.py): request lines out, result
lines in, batches within the provider's limits."""

from __future__ import annotations

import json

from flows.judges.batch.requests import (
    BATCH_ENDPOINT,
    batch_slices,
    read_result_lines,
    reply_of_completion,
    request_line,
)


def completion(content: str, usage: dict | None = None) -> dict:
    body = {
        "choices": [{"message": {"role": "assistant", "content": content}, "finish_reason": "stop"}]
    }
    return body if usage is None else {**body, "usage": usage}


def test_a_request_line_carries_the_body_as_given() -> None:
    body = {"model": "m", "messages": [{"role": "user", "content": "é\n"}], "temperature": 0}
    line = request_line("truths-0", body)
    assert line.endswith(b"\n")
    assert line.count(b"\n") == 1
    assert json.loads(line) == {
        "custom_id": "truths-0",
        "method": "POST",
        "url": BATCH_ENDPOINT,
        "body": body,
    }


def test_batches_stay_within_the_request_and_byte_limits() -> None:
    lines = [b"x" * 10] * 5
    cut = [(s.start, s.stop) for s in batch_slices(lines, max_requests=2, max_bytes=10**6)]
    assert cut == [(0, 2), (2, 4), (4, 5)]
    assert [(s.start, s.stop) for s in batch_slices(lines, max_requests=9, max_bytes=25)] == [
        (0, 2),
        (2, 4),
        (4, 5),
    ]
    # A line larger than the byte limit still goes, alone; no lines, no batch.
    assert [(s.start, s.stop) for s in batch_slices([b"y" * 50, b"z"], max_bytes=25)] == [
        (0, 1),
        (1, 2),
    ]
    assert list(batch_slices([])) == []


def test_result_lines_give_answers_and_say_why_others_have_none() -> None:
    lines = [
        {
            "custom_id": "a",
            "response": {"status_code": 200, "body": completion("{}")},
            "error": None,
        },
        {"custom_id": "b", "response": {"status_code": 400, "body": {"error": {"message": "bad"}}}},
        {"custom_id": "c", "response": None, "error": {"code": "batch_expired", "message": "late"}},
        {"custom_id": "d", "response": None, "error": None},
    ]
    data = b"".join(json.dumps(line).encode() + b"\n" for line in lines) + b"not json\n\n{}\n"
    results = read_result_lines(data)
    assert sorted(results) == ["a", "b", "c", "d"]
    assert results["a"].completion == completion("{}")
    assert results["b"].error == "the batch answered HTTP 400 for this request: bad"
    assert results["c"].error == "the batch did not answer this request: late"
    assert results["d"].error == "the batch did not answer this request: no answer"
    # A refused request is its cases' error; what ran out of time or failed for the moment
    # is asked again.
    assert [results[key].retry for key in "abcd"] == [False, False, True, True]


def test_a_result_line_nested_past_pythons_depth_is_skipped_not_a_crash() -> None:
    """json.loads raises RecursionError on such a line (a hostile or broken server's file):
    it was no ValueError, so the whole run stopped as a judge's bug (exit 1)."""
    good = {"custom_id": "a", "response": {"status_code": 200, "body": completion("{}")}}
    data = b"[" * 100_000 + b"]" * 100_000 + b"\n" + json.dumps(good).encode() + b"\n"
    assert sorted(read_result_lines(data)) == ["a"]


def test_a_request_answered_then_failed_keeps_its_paid_answer() -> None:
    """The last line of a custom_id won: an answer followed by a 500 line for the same request
    was thrown away and asked (and paid) again."""
    answered = {"custom_id": "a", "response": {"status_code": 200, "body": completion("{}")}}
    failed = {"custom_id": "a", "response": {"status_code": 500, "body": {}}}
    again = {"custom_id": "a", "response": {"status_code": 200, "body": completion('{"x": 1}')}}
    late = {"custom_id": "b", "response": {"status_code": 500, "body": {}}}
    fixed = {"custom_id": "b", "response": {"status_code": 200, "body": completion("{}")}}
    lines = [answered, failed, again, late, fixed]
    results = read_result_lines(b"\n".join(json.dumps(line).encode() for line in lines))
    assert results["a"].completion == completion("{}")  # the first answer
    assert results["b"].completion == completion("{}")  # an error, then its answer


def test_server_failures_of_a_request_are_asked_again() -> None:
    lines = [
        {"custom_id": str(status), "response": {"status_code": status, "body": {}}}
        for status in (400, 404, 408, 429, 500, 503)
    ]
    results = read_result_lines(b"\n".join(json.dumps(line).encode() for line in lines))
    assert {key: result.retry for key, result in results.items()} == {
        "400": False,
        "404": False,
        "408": True,
        "429": True,
        "500": True,
        "503": True,
    }


def test_a_completion_without_usage_is_estimated_and_a_non_completion_is_none() -> None:
    counted = reply_of_completion(
        completion("x" * 40, {"prompt_tokens": 7, "completion_tokens": 3}), 99
    )
    assert (counted.text, counted.prompt_tokens, counted.completion_tokens) == ("x" * 40, 7, 3)
    estimated = reply_of_completion(completion("x" * 40), 99)
    assert (estimated.prompt_tokens, estimated.completion_tokens) == (99, 10)
    assert reply_of_completion({"object": "error"}, 1) is None
