"""Bench (not a test): whole-process `faith score` of generated Parquet, against the floor
measured in the same script: a fresh Python process in which DuckDB copies the same Parquet
into a table (`create table t as select * from read_parquet(...)`).

    python bench/pipeline.py [--shape support,rag,repetitive,chat] [--rows 1000000] [--rounds 3]
        [--routes no[,default]] [--judge grounded] [--batch-size N]
        [--save-tables DIR | --check-against DIR] [--work DIR]
    python bench/pipeline.py --source PATH [--rounds 3] ...   # your own Parquet logs

Each shape (bench/shapes.py) is reported apart. Each round runs the floor, then `faith score
SOURCE --db DB --prefect no` (and, with `--routes no,default`, `faith score` as it runs by
default), each in a fresh process on a fresh database once the disk is quiet, so machine noise
hits both alike; the times are whole processes (interpreter start and imports included). Prints
every run, and per shape and route the median ratio to the floor over the rounds (target: 3.0x)
with its range, and the same for CPU-seconds (steadier on a shared machine).
`--source PATH` measures a Parquet file or folder of your own logs (reported as shape
`source`) instead of the generated shapes: the issue's "any shape of log", on yours (a folder
whose files faith reads are not all the floor's Parquet is refused).
`--save-tables DIR` keeps every output table of each shape's first run (sorted,
run ids and times dropped: bench/tables_check.py) in DIR/<shape>; `--check-against DIR`
compares each shape's first run with them and exits 1 if any table differs.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import OUT, ROOT, generated_cases, table, whole_number
from shapes import SHAPES, shape_names
from tables_check import differences, save

FAITH = str(Path(sys.executable).with_name("faith"))

FLOOR = """
import sys, duckdb
from pathlib import Path
con = duckdb.connect(sys.argv[2])
files = sys.argv[1] if Path(sys.argv[1]).is_file() else sys.argv[1] + "/**/*.parquet"
con.execute("CREATE TABLE t AS SELECT * FROM read_parquet($p)", {"p": files})
con.close()
"""


CHILD_DEADLINE = 3 * 3600  # seconds one child may take: a hung run ends the bench


def timed(command: list[str]) -> dict:
    """Wall seconds and CPU-seconds (user + system, every thread) of one child process; CPU
    time moves less than wall time on a machine shared with other work. (Peak RSS is
    bench/memory.py's: a child's rusage carries the forking parent's over on Linux.)"""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    child = subprocess.Popen(
        command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
    )
    # communicate, not wait: a child that fills the stderr pipe would otherwise block forever
    try:
        _, errors = child.communicate(timeout=CHILD_DEADLINE)
    except subprocess.TimeoutExpired:
        child.kill()
        child.communicate()
        raise SystemExit(f"bench child ran past {CHILD_DEADLINE} s: {' '.join(command)}") from None
    seconds = time.perf_counter() - started
    status = child.returncode
    if status:
        raise SystemExit(f"bench child failed: {' '.join(command)}\n{errors[-3000:]}")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return {"seconds": round(seconds, 2), "cpu_s": round(cpu, 2)}


def quiet(command: list[str]) -> dict:
    """`timed` once the disk has written back what earlier runs left dirty: otherwise the
    kernel's writeback of one run's database slows the next (~0.5 s measured here)."""
    os.sync()
    time.sleep(2)
    return timed(command)


def faith_command(source: Path, db: Path, route: str, args: argparse.Namespace) -> list[str]:
    command = [FAITH, "score", str(source), "--db", str(db), "--judge", args.judge]
    if route == "no":
        command += ["--prefect", "no"]
    if args.batch_size != "default":
        command += ["--batch-size", args.batch_size]
    return command


def one_round(shape: str, rows: int, args: argparse.Namespace, first: bool) -> list[dict]:
    """The floor, then each route, each on a fresh database file."""
    source = args.source or generated_cases(rows, rows_per_file=100_000, shape=shape).parent
    work = args.work / "pipeline-db"  # emptied each round
    printed = []
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    floor = quiet([sys.executable, "-c", FLOOR, str(source), str(work / "floor.duckdb")])
    floor["path"] = "floor: DuckDB copies the Parquet"
    printed.append(floor)
    for route in args.routes.split(","):
        db = work / f"faith-{route}.duckdb"
        ours = quiet(faith_command(source, db, route, args))
        ours["path"] = f"faith score --prefect {route} ({args.judge})"
        ours["route"] = route
        ours["ratio"] = round(ours["seconds"] / floor["seconds"], 2)
        ours["cpu_ratio"] = round(ours["cpu_s"] / floor["cpu_s"], 2)
        printed.append(ours)
        if first and route == "no":
            check_tables(db, shape, args)
    for row in printed:
        row["shape"] = shape
        row["rows"] = f"{rows:,}"
        row["cases/s"] = f"{rows / row['seconds']:,.0f}"
    return printed


def parquet_rows(source: Path) -> int:
    """Rows of a Parquet file or of every Parquet file under a folder (the floor reads those
    alone); any other source, or a folder holding logs faith reads and the floor would not
    copy: a one-line error, exit 2."""
    import duckdb

    files = str(source) if source.is_file() else str(source / "**" / "*.parquet")
    try:
        counted = duckdb.sql("SELECT count(*) FROM read_parquet($p)", params={"p": files})
        rows = int(counted.fetchall()[0][0])
        copied = {Path(f) for (f,) in duckdb.sql("FROM glob($p)", params={"p": files}).fetchall()}
    except duckdb.Error as error:
        first = str(error).splitlines()[0]
        print(f"--source {source}: not Parquet DuckDB can copy ({first})", file=sys.stderr)
        raise SystemExit(2) from None
    if source.is_dir():  # the floor must copy the files faith reads, no more and no fewer
        from flows.errors import InputUnreadable
        from flows.read.finding import resolve_source

        try:
            read = {Path(os.path.abspath(path)) for path in resolve_source(source).all_files}
        except InputUnreadable as error:
            print(f"--source {source}: {error}", file=sys.stderr)
            raise SystemExit(2) from None
        floor = {Path(os.path.abspath(path)) for path in copied}
        copier = "the floor (DuckDB copying the folder's Parquet)"
        if uncopied := sorted(read - floor):
            said = f"faith reads {uncopied[0]}, which {copier} does not"
        elif unread := sorted(floor - read):
            said = f"{copier} copies {unread[0]}, which faith does not read"
        else:
            return rows
        print(f"--source {source}: {said}: point --source at Parquet alone", file=sys.stderr)
        raise SystemExit(2)
    return rows


def check_tables(db: Path, shape: str, args: argparse.Namespace) -> None:
    if args.save_tables:
        save(db, args.save_tables / shape)
        print(f"{shape}: tables saved to {args.save_tables / shape}", flush=True)
    if args.check_against:
        found = differences(db, args.check_against / shape)
        args.differed += [f"{shape}: {line}" for line in found]
        print(f"{shape}: " + ("; ".join(found) or "every table identical"), flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--shape", type=shape_names, default=",".join(SHAPES), help="comma-separated"
    )
    parser.add_argument("--rows", type=whole_number, default=1_000_000)
    parser.add_argument("--rounds", type=whole_number, default=3)
    parser.add_argument("--routes", default="no", help="no, default or no,default")
    parser.add_argument("--judge", default="grounded", choices=("grounded", "lexical"))
    parser.add_argument("--batch-size", default="default", help="default: faith's own")
    checks = parser.add_mutually_exclusive_group()
    checks.add_argument("--save-tables", type=Path, metavar="DIR")
    checks.add_argument("--check-against", type=Path, metavar="DIR")
    parser.add_argument(
        "--source", type=Path, metavar="PATH", help="a Parquet file or folder of your own logs"
    )
    parser.add_argument(
        "--work",
        type=Path,
        default=OUT,
        help="the runs' databases go in DIR/pipeline-db, emptied each round (default bench/out)",
    )
    args = parser.parse_args()
    if args.check_against and not args.check_against.is_dir():
        parser.error(
            f"--check-against {args.check_against}: no such folder (one --save-tables wrote)"
        )
    args.differed = []
    shapes = args.shape
    if args.source:
        args.rows = parquet_rows(args.source)  # exits 2 with a line when it is not Parquet
        shapes = ["source"]
    printed: list[dict] = []
    for round_ in range(1, args.rounds + 1):
        for shape in shapes:  # alternating shapes too, so a busy minute hits all
            for row in one_round(shape, args.rows, args, first=round_ == 1):
                row["round"] = round_
                printed.append(row)
                print(f"  {row['shape']} round {round_}: {row['path']} {row['seconds']} s",
                      flush=True)  # fmt: skip
    columns = ["round", "shape", "rows", "path", "seconds", "cases/s", "ratio"]
    columns += ["cpu_s", "cpu_ratio"]
    print(table(printed, columns))
    print()
    for shape in shapes:
        for route in args.routes.split(","):
            runs = [r for r in printed if (r["shape"], r.get("route")) == (shape, route)]
            ratios, cpu = [r["ratio"] for r in runs], [r["cpu_ratio"] for r in runs]
            print(
                f"{shape}: faith score --prefect {route} / floor at {args.rows:,} rows: median "
                f"{statistics.median(ratios):.2f}x over {len(ratios)} rounds "
                f"(range {min(ratios):.2f}-{max(ratios):.2f}x)  (target: within 3.0x); "
                f"CPU-seconds {statistics.median(cpu):.2f}x ({min(cpu):.2f}-{max(cpu):.2f}x)"
            )
    if args.differed:
        print("tables differ:\n" + "\n".join(args.differed))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
