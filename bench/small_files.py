"""Bench (not a test): a folder of many one-row files against the same rows in one file.

    python bench/small_files.py [--files 5000]

Both sources are scored by `run_score` on the plain route with the default judge, each in a
fresh process on a fresh database. Prints both runs and the ratio of their wall times (target,
issue 22 item 11: at most 10x; file by file it was 96 s against well under a second).
"""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import OUT, ROOT, run_child, table

RUN = """
from flows.allocator import keep_freed_pages; keep_freed_pages()  # as the CLI does
import sys, time
from flows.run.pipeline import run_score
from flows.run.settings import ScoreSettings
source, db = sys.argv[1], sys.argv[2]
started = time.perf_counter()
run = run_score(ScoreSettings(source=source, db=db))
seconds = time.perf_counter() - started
assert run["rows_in"] == run["rows_scored"] + run["rows_invalid"] + run["rows_pending"] + run[
    "rows_quarantined"
]
result = {"rows": run["rows_in"], "seconds": round(seconds, 2),
          "validate_s": round(run["seconds_validate"], 2), "read_s": round(run["seconds_read"], 2)}
"""


def sources(files: int) -> tuple[Path, Path]:
    """The same `files` generated cases as one file and as a folder of one-row files."""
    sys.path.insert(0, str(ROOT))
    from tests.support.builders import many_cases

    folder = OUT / f"small-files-{files}"
    one, many = folder / "one.parquet", folder / "many"
    if not (folder / ".done").exists():
        shutil.rmtree(folder, ignore_errors=True)
        many.mkdir(parents=True)
        frame = many_cases(files)
        frame.write_parquet(one)
        for i in range(files):
            frame.slice(i, 1).write_parquet(many / f"part-{i:05d}.parquet")
        (folder / ".done").write_text("ok")
    return one, many


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=5_000)
    args = parser.parse_args()
    one, many = sources(args.files)
    rows = []
    for name, source in (("one file", one), (f"{args.files:,} one-row files", many)):
        db = OUT / "small-files.duckdb"
        db.unlink(missing_ok=True)
        rows.append({"source": name, **run_child(RUN, str(source), str(db))})
        db.unlink(missing_ok=True)
    print(table(rows, ["source", "rows", "seconds", "read_s", "validate_s", "peak_rss_mb"]))
    print(f"ratio (many files / one file): {rows[1]['seconds'] / rows[0]['seconds']:.1f}x")


if __name__ == "__main__":
    main()
