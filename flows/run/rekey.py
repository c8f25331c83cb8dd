"""`faith rekey SOURCE`: bring passage ids stored before migration 007 (polars' `hash()`,
stable within one polars version only) to the version-independent ids, reading the passages'
text from the logs the database was scored from. Nothing is judged again; no row is lost."""

from __future__ import annotations

import logging
from pathlib import Path

import polars as pl

from faith_udfs.keys import text_keys
from flows.read.source import DEFAULT_BATCH_SIZE, iter_batches, resolve_source
from flows.run.batches import validate_batch
from flows.store.db import open_store
from flows.store.passage_keys import legacy_passage_ids, rekey_passages_by

log = logging.getLogger("faithpipe")


def rekey_passages(
    source_spec: str, db: Path | str, *, lock_timeout: float = 0.0
) -> dict[str, int]:
    """Map every legacy passage id whose passage SOURCE holds; returns counts: `legacy`
    (ids before), `rekeyed`, `left` (not found in SOURCE: they keep their old ids)."""
    source = resolve_source(source_spec)
    con = open_store(db, lock_timeout=lock_timeout)
    try:
        legacy = legacy_passage_ids(con)
        if legacy.len() == 0:
            return {"legacy": 0, "rekeyed": 0, "left": 0}
        found = [
            _legacy_keys_of(validate_batch(raw).valid, legacy)
            for raw in iter_batches(source, DEFAULT_BATCH_SIZE)
        ]
        key_map = pl.concat(found).unique("old_id")
        rekey_passages_by(con, key_map)
        left = legacy_passage_ids(con).len()
    finally:
        con.close()
    counts = {"legacy": legacy.len(), "rekeyed": key_map.height, "left": left}
    log.info("rekeyed %s of %s legacy passage ids", counts["rekeyed"], counts["legacy"])
    return counts


def _legacy_keys_of(cases: pl.DataFrame, legacy: pl.Series) -> pl.DataFrame:
    """(old_id, new_id) of the batch's passages stored under an old id. The old id is what
    faithpipe computed before version 7: polars' hash() of the passage as logged."""
    return (
        cases.select(text=pl.col("retrieval_context"))
        .explode("text")
        .filter(pl.col("text").str.strip_chars().str.len_chars() > 0)
        .unique("text")
        .select(old_id=pl.col("text").hash(), new_id=text_keys(pl.col("text")))
        .filter(pl.col("old_id").is_in(legacy.implode()))
    )
