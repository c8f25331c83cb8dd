"""Bench (not a test): folders of many one-row files against the same rows in one file.

    python bench/small_files.py [--files 5000] [--formats parquet,csv,...]

For each format faithpipe reads (Parquet, CSV, JSON Lines, their gzip variants, a JSON
array) and for a Parquet folder of mixed file sizes (one-row files, 100-row files and one of
more than 10,000 rows, interleaved), the same generated cases are scored from one file and
from the folder by `run_score` on the plain route with the default judge, each in a fresh
process on a fresh database. Prints each pair's wall times and ratio (target, issue 22 item 11
and issue 26 item 3: at most 10x; Parquet file by file took 96 s) and checks that both runs
stored the same `case_scores` and `claim_verdicts` (run ids and timestamps aside). CPU-seconds
of both runs and their ratio are printed too: on a shared machine they are the steadier figure.
"""

from __future__ import annotations

import argparse
import gzip
import json
import shutil
import sys
from collections.abc import Callable
from pathlib import Path

import polars as pl

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import OUT, ROOT, run_child, table, whole_number

RUN = """
from flows.allocator import keep_freed_pages; keep_freed_pages()  # as the CLI does
import sys, time
import duckdb
from flows.run.pipeline import run_score
from flows.run.settings import ScoreSettings
source, db, stored = sys.argv[1], sys.argv[2], sys.argv[3]
started, cpu = time.perf_counter(), time.process_time()
run = run_score(ScoreSettings(source=source, db=db))
seconds = time.perf_counter() - started
cpu = time.process_time() - cpu
assert run["rows_in"] == run["rows_scored"] + run["rows_invalid"] + run["rows_pending"] + run[
    "rows_quarantined"
]
con = duckdb.connect(db, read_only=True)
for name, query in {
    "case_scores": "SELECT * EXCLUDE (run_id, scored_at) FROM case_scores ORDER BY case_id",
    "claim_verdicts": "SELECT * FROM claim_verdicts ORDER BY case_id, claim_index",
}.items():
    con.sql(query).pl().write_parquet(f"{stored}-{name}.parquet")
con.close()
result = {"rows": run["rows_in"], "quarantined": run["rows_quarantined"],
          "seconds": round(seconds, 2), "cpu_s": round(cpu, 2),
          "read_s": round(run["seconds_read"], 2),
          "validate_s": round(run["seconds_validate"], 2)}
"""

TABLES = ("case_scores", "claim_verdicts")


def _text_lists(frame: pl.DataFrame) -> pl.DataFrame:
    """List columns as JSON text, as a CSV holds them."""
    lists = [name for name, dtype in frame.schema.items() if isinstance(dtype, pl.List)]
    return frame.with_columns(
        pl.col(name).map_elements(lambda v: json.dumps(list(v)), return_dtype=pl.String)
        for name in lists
    )


def _gz(write: Callable[[pl.DataFrame, Path], None]) -> Callable[[pl.DataFrame, Path], None]:
    def written(frame: pl.DataFrame, path: Path) -> None:
        plain = path.with_suffix("")
        write(frame, plain)
        path.write_bytes(gzip.compress(plain.read_bytes(), mtime=0))
        plain.unlink()

    return written


# format label -> (file extension, writer)
WRITERS: dict[str, tuple[str, Callable[[pl.DataFrame, Path], None]]] = {
    "parquet": (".parquet", lambda f, p: f.write_parquet(p)),
    "csv": (".csv", lambda f, p: _text_lists(f).write_csv(p)),
    "csv.gz": (".csv.gz", _gz(lambda f, p: _text_lists(f).write_csv(p))),
    "jsonl": (".jsonl", lambda f, p: f.write_ndjson(p)),
    "jsonl.gz": (".jsonl.gz", _gz(lambda f, p: f.write_ndjson(p))),
    "json": (".json", lambda f, p: f.write_json(p)),
}
MIXED = "mixed sizes"


def _cases(rows: int) -> pl.DataFrame:
    sys.path.insert(0, str(ROOT))
    from tests.support.builders import many_cases

    return many_cases(rows)


def sources(label: str, files: int) -> tuple[Path, Path]:
    """The same generated cases as one file and as a folder: `files` one-row files, or (mixed
    sizes, scaled by `files`) at 5,000: 2,000 one-row files, fifty 100-row files and one
    12,000-row file, interleaved."""
    folder = OUT / f"small-files-{files}" / label.replace(" ", "-")
    if label == MIXED:
        sizes = [1] * (files * 2 // 5) + [100] * (files // 100) + [files * 12 // 5]
        order = sorted(range(len(sizes)), key=lambda i: (i * 7919) % len(sizes))
        sizes = [sizes[i] for i in order]  # interleaved: the large file lands in the middle
        extension, write = WRITERS["parquet"]
    else:
        sizes = [1] * files
        extension, write = WRITERS[label]
    one, many = folder / f"one{extension}", folder / "many"
    if not (folder / ".done").exists():
        shutil.rmtree(folder, ignore_errors=True)
        many.mkdir(parents=True)
        frame = _cases(sum(sizes))
        write(frame, one)
        start = 0
        for i, rows in enumerate(sizes):
            write(frame.slice(start, rows), many / f"part-{i:05d}{extension}")
            start += rows
        (folder / ".done").write_text("ok")
    return one, many


def same_outputs(one: Path, many: Path) -> bool:
    """Whether both runs stored the same rows in every compared table."""
    return all(
        pl.read_parquet(f"{one}-{name}.parquet").equals(pl.read_parquet(f"{many}-{name}.parquet"))
        for name in TABLES
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=whole_number, default=5_000)
    parser.add_argument(
        "--formats", default=",".join([*WRITERS, MIXED]), help="comma-separated labels"
    )
    args = parser.parse_args()
    labels = [f.strip() for f in args.formats.split(",") if f.strip()]
    known = [*WRITERS, MIXED]
    if unknown := [label for label in labels if label not in known]:
        parser.error(f"--formats: no {', '.join(unknown)} ({', '.join(known)})")
    rows = []
    for label in labels:
        one, many = sources(label, args.files)
        runs = []
        for source in (one, many):
            db = OUT / "small-files.duckdb"
            db.unlink(missing_ok=True)
            stored = OUT / f"small-files-{'one' if source == one else 'many'}"
            runs.append((stored, run_child(RUN, str(source), str(db), str(stored))))
            db.unlink(missing_ok=True)
        (one_out, one_run), (many_out, many_run) = runs
        rows.append(
            {
                "source": label,
                "files": sum(1 for _ in many.iterdir()),
                "rows": many_run["rows"],
                "one file s": one_run["seconds"],
                "many files s": many_run["seconds"],
                "ratio": f"{many_run['seconds'] / one_run['seconds']:.1f}x",
                "one file CPU-s": one_run["cpu_s"],
                "many files CPU-s": many_run["cpu_s"],
                "CPU ratio": f"{many_run['cpu_s'] / one_run['cpu_s']:.1f}x",
                "read_s": many_run["read_s"],
                "validate_s": many_run["validate_s"],
                "peak_rss_mb": many_run["peak_rss_mb"],
                "same outputs": "yes" if same_outputs(one_out, many_out) else "NO",
            }
        )
        print(table(rows[-1:], list(rows[-1])), flush=True)
    print()
    print(table(rows, list(rows[0])))
    worst = max(float(str(row["ratio"]).rstrip("x")) for row in rows)
    print(f"worst ratio (many files / one file): {worst:.1f}x")
    if any(row["same outputs"] != "yes" for row in rows):
        raise SystemExit("outputs differ between one file and many files")


if __name__ == "__main__":
    main()
