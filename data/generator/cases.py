"""Drawing cases: times, versions, kinds, contexts and answers, by numpy and Arrow gathers."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np
import polars as pl
import pyarrow as pa

from data.generator.contract import (
    _US_PER_DAY,
    _US_PER_HOUR,
    ANSWER_KINDS,
    APP_VERSIONS,
    CHANNELS,
    MODELS,
    SCHEMA,
    _pick,
)
from data.generator.knowledge_base import _Kb, _knowledge_base
from data.generator.orders import _ORDER_SHARE, _ROLES, _lookup, _order_records, _Orders

# Cases are drawn in fixed-size chunks, each with its own random stream, so memory stays
# bounded and the output for a seed does not depend on how a caller writes it out.
_CHUNK_ROWS = 100_000

# The judge's own word rules, so what the data is built to test is what the judge reads.

# Relative traffic by hour of day (UTC): quiet at night, peaks late morning and evening.
_HOURLY = np.array(
    [2, 1, 1, 1, 1, 2, 4, 7, 10, 13, 15, 15, 13, 12, 12, 12, 11, 11, 12, 13, 12, 9, 6, 3],
    dtype=float,
)
_WEEKDAY = np.array([1.0, 1.0, 0.97, 0.95, 0.9, 0.65, 0.55])  # Monday first
# Answer-kind weights (grounded, unsupported, contradicting, chitchat) and their drift:
# 2.4.1 regresses (more invented and contradicted facts), llama-3.1-8b is weaker than 4o-mini.
_KIND_BASE = np.array([0.69, 0.185, 0.097, 0.03])
_KIND_BY_VERSION = np.array([[0.95, 1.1, 1.15, 1.2], [1.0, 1.0, 1.0, 1.0], [0.85, 1.35, 1.8, 1.0]])
_KIND_BY_MODEL = np.array([[1.04, 0.9, 0.85, 1.0], [0.88, 1.3, 1.4, 1.0]])
_GREETINGS = ("", "", "", "", "Hi, ", "Hello, ", "Hey! ", "Quick question: ", "Hi there. ")
# A greeting ending in a comma or colon runs on into the question, which then starts lower-case.
_RUNS_ON = np.array([g.endswith((", ", ": ")) for g in _GREETINGS])
_GREETING_LEN = np.array([len(g) for g in _GREETINGS])
_SIGN_OFFS = ("", " Thanks, Anna", " Best regards, Jonas", " Thank you! Maria", " Cheers, Tom")


def _draw_times(n: int, rng: np.random.Generator, start: dt.date, days: int) -> np.ndarray:
    """Sorted microseconds since `start` midnight: weekly and daily rhythm, slow growth."""
    weekday = np.array([(start + dt.timedelta(d)).weekday() for d in range(days)])
    per_day = _WEEKDAY[weekday] * (1.0 + 0.15 * np.arange(days) / max(days, 1))
    day = rng.choice(days, size=n, p=per_day / per_day.sum())
    hour = rng.choice(24, size=n, p=_HOURLY / _HOURLY.sum())
    offset = day * _US_PER_DAY + hour * _US_PER_HOUR + rng.integers(0, _US_PER_HOUR, n)
    offset.sort()
    return offset


def _versions(t: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """App version by time: 2.3.0 fades out over the first half, 2.4.1 rolls out in the second."""
    old = 0.35 * np.clip(1.0 - t / 0.5, 0.0, 1.0)
    new = 0.85 * np.clip((t - 0.45) / 0.45, 0.0, 1.0)
    weights = np.stack([old, 1.0 - old - new, new], axis=1)
    return _pick(rng.random(len(t)), np.cumsum(weights, axis=1))


@dataclass(frozen=True)
class _Tables:
    """The knowledge base's tables extended with one chunk's order records."""

    pieces: pa.Array
    passages: pa.Array
    questions: pa.Array
    passage_sentences: np.ndarray
    sentence_text: np.ndarray
    grounded: np.ndarray
    grounded_count: np.ndarray
    contradicting: np.ndarray
    contradicting_count: np.ndarray
    contradiction_piece: np.ndarray
    contradiction_token: np.ndarray  # value id of a record contradiction's new word, else -1


def _stack(top: np.ndarray, bottom: np.ndarray) -> np.ndarray:
    """Rows of two -1 padded tables, padded to the wider one."""
    width = max(top.shape[1], bottom.shape[1])
    pad = [np.pad(a, ((0, 0), (0, width - a.shape[1])), constant_values=-1) for a in (top, bottom)]
    return np.concatenate(pad)


def _with_orders(kb: _Kb, orders: _Orders) -> _Tables:
    r = len(orders.n_short)
    n_sentences, n_contradictions = len(kb.sentence_text), len(kb.contradiction_piece)
    local = np.arange(_ROLES)[None, :] * r + np.arange(r)[:, None]  # into orders.strings
    role = len(kb.pieces) + local  # into the extended pieces
    first = n_sentences + 2 * np.arange(r)  # record sentence ids: first, first + 1
    sentences = np.stack([first, np.where(orders.has_second, first + 1, -1)], axis=1)
    grounded = np.full((2 * r, 3), -1, dtype=np.int64)
    grounded[0::2] = np.where(np.arange(3) < 1 + orders.n_short[:, None], role[:, 1:4], -1)
    grounded[1::2, 0] = role[:, 4]
    grounded_count = np.stack([1 + orders.n_short, np.ones(r, dtype=np.int64)], axis=1).ravel()
    ids = n_contradictions + 4 * np.arange(r)[:, None] + np.arange(4)[None, :]
    contradicting = np.full((2 * r, 4), -1, dtype=np.int64)
    contradicting[0::2] = _compact(np.where(orders.has_contradiction, ids, -1))
    contradicting_count = np.stack(
        [orders.has_contradiction.sum(axis=1), np.zeros(r, dtype=np.int64)], axis=1
    ).ravel()
    return _Tables(
        pieces=pa.concat_arrays([kb.pieces, orders.strings]),
        passages=pa.concat_arrays([kb.passage_text, orders.strings.take(pa.array(local[:, 0]))]),
        questions=pa.concat_arrays(
            [kb.questions, orders.strings.take(pa.array(local[:, 9:].ravel()))]
        ),
        passage_sentences=_stack(kb.passage_sentences, sentences),
        sentence_text=np.concatenate(
            [kb.sentence_text, kb.sentence_text.max() + 1 + np.arange(2 * r)]
        ),
        grounded=_stack(kb.grounded, grounded),
        grounded_count=np.concatenate([kb.grounded_count, grounded_count]),
        contradicting=_stack(kb.contradicting, contradicting),
        contradicting_count=np.concatenate([kb.contradicting_count, contradicting_count]),
        contradiction_piece=np.concatenate([kb.contradiction_piece, role[:, 5:9].ravel()]),
        contradiction_token=np.concatenate(
            [np.full(n_contradictions, -1), orders.contradiction_token.ravel()]
        ),
    )


def _contexts(
    kb: _Kb, n: int, rng: np.random.Generator, popularity: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """A knowledge-base passage drawn by popularity and up to 3 distinct others next to it."""
    n_passages = len(kb.passages)
    primary = rng.choice(n_passages, size=n, p=popularity)
    k = rng.choice(4, size=n, p=[0.12, 0.38, 0.32, 0.18]) + 1
    extras = np.full((n, 3), -1, dtype=np.int64)
    neighbour = primary.copy()
    chosen = [primary]
    for j in range(3):
        # Retrievers return related passages (neighbours in the topic-ordered base) or
        # popular ones that happen to match.
        neighbour = (neighbour + rng.integers(1, 6, n)) % n_passages
        popular = rng.choice(n_passages, size=n, p=kb.popularity)
        cand = np.where(rng.random(n) < 0.6, neighbour, popular)
        clash = np.any(np.stack([cand == c for c in chosen]), axis=0)
        while clash.any():
            cand = np.where(clash, (cand + 1) % n_passages, cand)
            clash = np.any(np.stack([cand == c for c in chosen]), axis=0)
        chosen.append(cand)
        extras[:, j] = np.where(j + 1 < k, cand, -1)
    return primary, extras


def _variant(table: np.ndarray, count: np.ndarray, ids: np.ndarray, u: np.ndarray) -> np.ndarray:
    """A random entry of row `ids` of a padded table (first entry favoured); -1 where none."""
    safe = np.maximum(ids, 0)
    n = count[safe]
    col = np.where(u < 0.5, 0, np.minimum((u * 2 - 1) * n, n - 1).astype(np.int64))
    out = table[safe, np.maximum(col, 0)]
    return np.where((ids >= 0) & (n > 0), out, -1)


def _compact(rows: np.ndarray) -> np.ndarray:
    """Move each row's -1 entries to the end, keeping the order of the rest."""
    order = np.argsort(rows < 0, axis=1, kind="stable")
    return np.take_along_axis(rows, order, axis=1)


def _grounded_order(
    t: _Tables,
    primary: np.ndarray,
    extras: np.ndarray,
    skip_first: np.ndarray,
    rng: np.random.Generator,
) -> np.ndarray:
    """Sentences an answer may use, in answer order, -1 padded (n, 6).

    The primary passage's sentences in order (its first left out where `skip_first`, being
    contradicted), then the first sentence of each other passage in random order.
    """
    n = len(primary)
    extra_first = np.where(extras >= 0, t.passage_sentences[np.maximum(extras, 0), 0], -1)
    cand = np.concatenate([t.passage_sentences[primary, :3], extra_first], axis=1)
    key = np.concatenate([np.tile(np.arange(3.0), (n, 1)), 3.0 + rng.random((n, 3))], axis=1)
    key[skip_first, 0] = 9.0
    key[cand < 0] = 9.0
    order = np.argsort(key, axis=1)
    cand = np.where(
        np.take_along_axis(key, order, axis=1) < 9.0, np.take_along_axis(cand, order, axis=1), -1
    )
    # Two passages may share a sentence word for word; say it once.
    text = np.where(cand >= 0, t.sentence_text[np.maximum(cand, 0)], -1)
    for j in range(1, 4):
        repeated = np.any(text[:, :j] == text[:, j : j + 1], axis=1) & (cand[:, j] >= 0)
        cand[repeated, j] = -1
    return _compact(cand)


def _clashes(kb: _Kb, t: _Tables, passage: np.ndarray, contradiction: np.ndarray) -> np.ndarray:
    """True where `passage` holds the word `contradiction` changed (the judge would agree)."""
    in_kb = (passage >= 0) & (passage < len(kb.passages))
    p = np.where(in_kb, passage, 0)
    c = np.maximum(contradiction, 0)
    from_kb = c < len(kb.contradiction_piece)
    token = t.contradiction_token[c]
    held_kb = kb.contradiction_clash[p, np.where(from_kb, c, 0)] & from_kb
    held_value = kb.value_has[p, np.maximum(token, 0)] & (token >= 0)
    return in_kb & (contradiction >= 0) & (held_kb | held_value)


def _answers(
    kb: _Kb,
    t: _Tables,
    primary: np.ndarray,
    extras: np.ndarray,
    *,
    kind: np.ndarray,
    rng: np.random.Generator,
) -> tuple[np.ndarray, np.ndarray]:
    """Piece ids of each answer's sentences (n, 4, -1 padded) and the final answer kind."""
    n = len(primary)
    none = np.full(n, -1)
    unsupported = kb.unsupported[rng.integers(0, len(kb.unsupported), n)]
    opener = kb.openers[rng.integers(0, len(kb.openers), n)]
    closer = kb.closers[rng.integers(0, len(kb.closers), n)]

    # A contradiction of the primary passage's first sentence whose changed word no passage of
    # the case holds (else the judge would find it supported); none left -> invent instead.
    contra = none.copy()
    target = t.passage_sentences[primary, 0]
    n_contra = t.contradicting_count[target]
    start = rng.integers(0, 4, n)
    context = np.concatenate([primary[:, None], extras], axis=1)
    for attempt in range(4):
        cid = t.contradicting[target, (start + attempt) % np.maximum(n_contra, 1)]
        clash = np.zeros(n, dtype=bool)
        for j in range(4):
            clash |= _clashes(kb, t, context[:, j], cid)
        ok = (cid >= 0) & ~clash & (contra < 0)
        contra = np.where(ok, t.contradiction_piece[np.maximum(cid, 0)], contra)
    kind = np.where((kind == 2) & (contra < 0), 1, kind)

    sources = _grounded_order(t, primary, extras, kind == 2, rng)
    # At most one sentence from a passage other than the one asked about.
    own = (t.passage_sentences[primary] >= 0).sum(axis=1) - (kind == 2)
    available = np.minimum((sources >= 0).sum(axis=1), own + 1)
    g = [_variant(t.grounded, t.grounded_count, sources[:, j], rng.random(n)) for j in range(3)]

    def take(count: np.ndarray) -> list[np.ndarray]:
        """The first `count` grounded sentences (capped by what the passages hold)."""
        cap = np.minimum(count, available)
        return [np.where(j < cap, g[j], -1) for j in range(3)]

    # Canned replies: the primary passage's first sentence, verbatim, alone.
    canned = rng.random(n) < 0.1
    g0, g1, g2 = take(rng.choice(3, size=n, p=[0.2, 0.45, 0.35]) + 1)
    grounded = np.stack(
        [np.where(canned, t.grounded[target, 0], g0), np.where(canned, -1, g1),
         np.where(canned, -1, g2), none], axis=1,
    )  # fmt: skip
    first = rng.random(n) < 0.2
    sign_off = np.where(rng.random(n) < 0.3, closer, -1)
    t0, t1, _ = take(rng.choice(3, size=n, p=[0.1, 0.6, 0.3]))
    invented = np.stack(
        [np.where(first, unsupported, t0), np.where(first, t0, t1),
         np.where(first, t1, unsupported), sign_off], axis=1,
    )  # fmt: skip
    c1, c2, _ = take(rng.choice(3, size=n, p=[0.35, 0.45, 0.2]))
    extra = np.where(rng.random(n) < 0.15, unsupported, np.where(rng.random(n) < 0.2, closer, -1))
    contradicting = np.stack([contra, c1, c2, extra], axis=1)
    small_talk = np.stack([np.where(rng.random(n) < 0.5, -1, opener), closer, none, none], axis=1)

    options = np.stack([grounded, invented, contradicting, small_talk])  # (4, n, 4)
    return _compact(options[kind, np.arange(n)]), kind


def _lists(values: pa.Array, ids: np.ndarray) -> pa.Array:
    """Arrow list array of `values[ids]` per row, skipping -1 (ids is (n, width))."""
    lengths = (ids >= 0).sum(axis=1)
    offsets = np.zeros(len(ids) + 1, dtype=np.int64)
    np.cumsum(lengths, out=offsets[1:])
    flat = values.take(pa.array(ids[ids >= 0]))
    return pa.LargeListArray.from_arrays(pa.array(offsets), flat)


def _chunk(
    kb: _Kb,
    offsets_us: np.ndarray,
    first_id: int,
    rng: np.random.Generator,
    *,
    start: dt.date,
    days: int,
    with_labels: bool,
) -> pl.DataFrame:
    n = len(offsets_us)
    version = _versions(offsets_us / (days * _US_PER_DAY), rng)
    channel = rng.choice(3, size=n, p=[0.55, 0.35, 0.10])
    model = (rng.random(n) < np.where(channel == 2, 0.6, 0.2)).astype(np.int64)
    weights = _KIND_BASE * _KIND_BY_VERSION[version] * _KIND_BY_MODEL[model]
    kind = _pick(rng.random(n), np.cumsum(weights / weights.sum(axis=1, keepdims=True), axis=1))

    # Nearly half the questions are about the customer's own order: the bot looked up the
    # order record and read a few policy passages next to it.
    is_order = rng.random(n) < _ORDER_SHARE
    record = np.cumsum(is_order) - 1
    tables = _with_orders(kb, _order_records(kb, int(is_order.sum()), rng))
    kb_primary, kb_extras = _contexts(kb, n, rng, kb.popularity)
    anchor, more = _contexts(kb, n, rng, kb.order_popularity)
    alone = rng.random(n) < 0.15
    order_extras = np.where(alone[:, None], -1, np.stack([anchor, more[:, 0], more[:, 1]], axis=1))
    primary = np.where(is_order, len(kb.passages) + record, kb_primary)
    extras = np.where(is_order[:, None], order_extras, kb_extras)
    answer_ids, kind = _answers(kb, tables, primary, extras, kind=kind, rng=rng)

    # The passage the question is about is usually, not always, the retriever's first hit.
    context = _compact(np.concatenate([primary[:, None], extras], axis=1))
    k = (context >= 0).sum(axis=1)
    shift = np.where(rng.random(n) < 0.3, rng.integers(0, 4, n) % k, 0)
    cols = (np.arange(4)[None, :] + shift[:, None]) % k[:, None]
    context = np.where(np.arange(4)[None, :] < k[:, None], np.take_along_axis(context, cols, 1), -1)

    q = np.where(
        is_order,
        len(kb.questions) + 2 * record,
        _variant(kb.passage_questions, kb.question_count, kb_primary, rng.random(n)),
    )
    greeting = rng.integers(0, len(_GREETINGS), n)
    casual = _RUNS_ON[greeting] | ((_GREETING_LEN[greeting] == 0) & (rng.random(n) < 0.15))
    sign_off = np.where(channel == 2, rng.integers(1, len(_SIGN_OFFS), n), 0)

    frame = pl.DataFrame(
        {
            "case_id": pl.int_range(first_id, first_id + n, eager=True),
            "greeting": _lookup(_GREETINGS, greeting),
            "question": pl.Series(tables.questions.take(pa.array(q + casual))),
            "sign_off": _lookup(_SIGN_OFFS, sign_off),
            "actual_output": pl.Series(_lists(tables.pieces, answer_ids)).list.join(" "),
            "retrieval_context": pl.Series(_lists(tables.passages, context)),
            "logged_at": pl.Series(
                np.datetime64(start, "us") + offsets_us.astype("timedelta64[us]")
            ),
            "app_version": _lookup(APP_VERSIONS, version),
            "model": _lookup(MODELS, model),
            "channel": _lookup(CHANNELS, channel),
            "answer_kind": _lookup(ANSWER_KINDS, kind),
        }
    )
    frame = frame.with_columns(
        case_id=pl.lit("c") + pl.col("case_id").cast(pl.String).str.zfill(9),
        input=pl.concat_str("greeting", "question", "sign_off"),
    ).select(*SCHEMA, *(["answer_kind"] if with_labels else []))
    return frame.cast(SCHEMA)


def iter_cases(
    n: int,
    *,
    seed: int = 0,
    start: dt.date = dt.date(2026, 10, 1),
    days: int = 30,
    id_offset: int = 0,
    with_labels: bool = False,
) -> Iterator[pl.DataFrame]:
    """`generate_cases` in chunks of at most 100,000 rows, for bounded memory at any `n`."""
    if n < 0 or days < 1:
        raise ValueError(f"need n >= 0 and days >= 1, got n={n}, days={days}")
    kb = _knowledge_base()
    offsets = _draw_times(n, np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(0,))),
                          start, days)  # fmt: skip
    for i, first in enumerate(range(0, n, _CHUNK_ROWS)):
        rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(i + 1,)))
        yield _chunk(
            kb, offsets[first : first + _CHUNK_ROWS], id_offset + first, rng,
            start=start, days=days, with_labels=with_labels,
        )  # fmt: skip


def generate_cases(
    n: int,
    *,
    seed: int = 0,
    start: dt.date = dt.date(2026, 10, 1),
    days: int = 30,
    id_offset: int = 0,
    with_labels: bool = False,
) -> pl.DataFrame:
    """`n` logged cases over `days` days from `start`, the same for the same arguments.

    `id_offset` numbers case_ids from there (for appending months); `with_labels` adds the
    `answer_kind` each answer was built as (grounded, unsupported, contradicting, chitchat).
    """
    frames = list(
        iter_cases(n, seed=seed, start=start, days=days, id_offset=id_offset,
                   with_labels=with_labels)
    )  # fmt: skip
    if not frames:
        extra = {"answer_kind": pl.String()} if with_labels else {}
        return pl.DataFrame(schema={**SCHEMA, **extra})
    return pl.concat(frames, rechunk=True)
