"""Seeded generator of realistic logged support-bot RAG conversations (the *cases* table).

Policy passages come from a fixed knowledge base built once with small Python loops, order
records are formatted per case; cases are drawn with numpy and assembled by Arrow gathers.
The work is in data/generator/, by what it makes; this is its command line and its API.
"""

from __future__ import annotations

import argparse
import datetime as dt
import sys
import time
from collections.abc import Iterable, Sequence
from pathlib import Path

if __package__ in (None, ""):  # run as `python data/generate.py`: the repository root first
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import polars as pl

from data.generator.cases import generate_cases, iter_cases
from data.generator.contract import (
    ANSWER_KINDS,
    APP_VERSIONS,
    CHANNELS,
    MODELS,
    OUTPUT_COLUMNS,
    POLICY,
    QUESTION_COLUMNS,
    SCHEMA,
    SEED_QUESTION,
    Form,
    retrieve,
    seed_cases,
)
from data.generator.knowledge_base import knowledge_base
from data.generator.tables import prepend, to_three_tables, write_cases, write_stream

__all__ = [
    "ANSWER_KINDS",
    "APP_VERSIONS",
    "CHANNELS",
    "MODELS",
    "OUTPUT_COLUMNS",
    "POLICY",
    "QUESTION_COLUMNS",
    "SCHEMA",
    "SEED_QUESTION",
    "Form",
    "generate_cases",
    "iter_cases",
    "knowledge_base",
    "retrieve",
    "seed_cases",
    "to_three_tables",
    "write_cases",
    "write_stream",
]


def main(argv: Sequence[str] | None = None) -> int:
    """CLI: generate cases and write them as Parquet."""
    parser = argparse.ArgumentParser(description="Generate logged RAG cases as Parquet.")
    parser.add_argument("--rows", type=int, required=True, help="generated cases")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--days", type=int, default=30)
    parser.add_argument("--start", type=dt.date.fromisoformat, default=dt.date(2026, 10, 1))
    parser.add_argument("--out", type=Path, required=True, help="file (wide) or folder")
    parser.add_argument("--form", choices=("wide", "three"), default="wide")
    parser.add_argument("--rows-per-file", type=int, default=None)
    parser.add_argument("--id-offset", type=int, default=0, help="first case_id number")
    parser.add_argument("--with-seed-cases", action="store_true", help="prepend the seed's 3")
    parser.add_argument("--labels", action="store_true", help="add the answer_kind column")
    args = parser.parse_args(argv)

    began = time.perf_counter()
    frames: Iterable[pl.DataFrame] = iter_cases(
        args.rows, seed=args.seed, start=args.start, days=args.days, id_offset=args.id_offset,
        with_labels=args.labels,
    )  # fmt: skip
    if args.with_seed_cases:
        seeds = seed_cases(args.start)
        if args.labels:
            kinds = ["grounded", "unsupported", "contradicting"]
            seeds = seeds.with_columns(answer_kind=pl.Series(kinds, dtype=pl.String))
        frames = prepend(seeds, frames)
    rows, files = write_stream(frames, args.out, form=args.form, rows_per_file=args.rows_per_file)
    seconds = time.perf_counter() - began
    size = sum(f.stat().st_size for f in files)
    print(f"wrote {rows} rows to {args.out} ({len(files)} files, {size / 1e6:.2f} MB) "
          f"in {seconds:.2f} s")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
