"""A sloppy small model behind the stub server (issue 27): answers filed under the wrong item.

`SloppyServer(sloppy={...})` answers faithpipe's prompts as a 1.5B model on a CPU did, each
kind switched on by name (SLOPPY): packed answers shifted between items or merged into item 1,
`"items"` written twice with the wrong list last, entries dropped, doubled, reversed or
without item numbers, re-asks answered
with the previous reply word for word, one-item prompts answered with the previous prompt's
answer, and a reply padded with spaces to max_tokens after an unescaped quote. Only what it
changes differs from the honest stub (openai_stub.py), whose counters and faults it keeps.
"""

from __future__ import annotations

import json
import threading
from typing import Any

from faith_udfs.prompts import schema_of
from tests.support.openai_stub import StubServer

SLOPPY = {
    "shift": "packed: item k gets item k+1's answer (the last gets the first's)",
    "merge": "packed: item 1's answer holds every item's statements or verdicts",
    "twice": 'packed: "items" written twice, the honest list first, the shifted one last',
    "drop": "packed: the last item's entry left out",
    "double": "packed: item 1's entry written twice",
    "repeat": "a re-ask (or a prompt seen before) answered with the previous reply verbatim",
    "stale": "one-item prompts answered with the previous one-item answer of the same schema",
    "pad": "claims replies: an unescaped quote, then spaces until max_tokens",
    "bare": "packed: entries without their item numbers",
    "reverse": "packed: entries listed last item first",
}
_FIELDS = ("truths", "claims", "verdicts", "reason")


class SloppyServer(StubServer):
    """The stub, misbehaving as the kinds in `sloppy` say; `switch(...)` changes them."""

    def __init__(self, *, sloppy: set[str] | frozenset[str] = frozenset(), **options: Any) -> None:
        super().__init__(**options)
        self.sloppy: set[str] = set()
        self.switch(*sloppy)
        self._seen: dict[str, str] = {}  # prompt -> the reply content sent for it
        self._last_one_item: dict[str, dict[str, Any]] = {}  # schema -> previous honest answer
        self._sloppy_lock = threading.Lock()
        self.repeated = 0  # replies sent as a copy of an earlier one

    def switch(self, *kinds: str) -> None:
        """Misbehave as `kinds` from now on (none: answer honestly)."""
        unknown = set(kinds) - set(SLOPPY)
        if unknown:
            raise ValueError(f"unknown sloppy kind {sorted(unknown)}; expected {sorted(SLOPPY)}")
        self.sloppy = set(kinds)

    def rewrite(
        self, request: dict[str, Any], prompt: str, reply: dict[str, Any]
    ) -> tuple[str, str] | None:
        with self._sloppy_lock:
            sloppy = set(self.sloppy)
            if not sloppy:
                return None
            messages = request["messages"]
            if "repeat" in sloppy and len(messages) > 1:
                self.repeated += 1
                return messages[1]["content"], "stop"
            if "repeat" in sloppy and prompt in self._seen:
                self.repeated += 1
                return self._seen[prompt], "stop"
            content = self._content(sloppy, prompt, reply)
            self._seen[prompt] = content
            return content, "stop"

    def _content(self, sloppy: set[str], prompt: str, reply: dict[str, Any]) -> str:
        if "pad" in sloppy and ("claims" in reply or _packed_field(reply) == "claims"):
            # The model opened a string, met a quote it did not escape, and pads to the limit.
            return '{"claims": ["The agent said "sorry" ' + " " * 200_000
        if "items" not in reply:
            if "stale" in sloppy:
                schema = schema_of(prompt)
                previous = self._last_one_item.get(schema)
                self._last_one_item[schema] = reply
                if previous is not None:
                    return json.dumps(previous)
            return json.dumps(reply)
        entries = reply["items"]
        honest = json.dumps(entries)
        field = _packed_field(reply)
        if "shift" in sloppy or "twice" in sloppy:
            entries = _shifted(entries, field)
        if "merge" in sloppy and field in ("truths", "claims", "verdicts"):
            entries = _merged(entries, field)
        if "drop" in sloppy and len(entries) > 1:
            entries = entries[:-1]
        if "double" in sloppy and entries:
            entries = [*entries, dict(entries[0])]
        if "reverse" in sloppy:
            entries = entries[::-1]
        if "bare" in sloppy:
            entries = [{k: v for k, v in entry.items() if k != "item"} for entry in entries]
        if "twice" in sloppy:
            return '{"items": ' + honest + ', "items": ' + json.dumps(entries) + "}"
        return json.dumps({"items": entries})


def _packed_field(reply: dict[str, Any]) -> str | None:
    entries = reply.get("items") or []
    for field in _FIELDS:
        if entries and field in entries[0]:
            return field
    return None


def _shifted(entries: list[dict[str, Any]], field: str | None) -> list[dict[str, Any]]:
    """Each entry keeps its number and takes the next entry's answer."""
    if field is None or len(entries) < 2:
        return entries
    values = [entry[field] for entry in entries]
    values = values[1:] + values[:1]
    return [{**entry, field: value} for entry, value in zip(entries, values, strict=True)]


def _merged(entries: list[dict[str, Any]], field: str) -> list[dict[str, Any]]:
    """Item 1 answers with every item's statements (verdicts renumbered); the others as sent."""
    merged = [value for entry in entries for value in entry[field]]
    if field == "verdicts":
        merged = [{**verdict, "claim": n} for n, verdict in enumerate(merged, start=1)]
    return [{**entries[0], field: merged}, *entries[1:]]
