"""Render the HTML report of a database in headless Chromium: no console error, every chart drawn.

    python bench/report_check.py [--db data/faithpipe.duckdb] [--out build/report-check]

Writes OUT/report.html, OUT/report.png (the screenshot: look at it) and OUT/chromium.log.
Exit 0 when the page is clean, 1 when it is not, 2 when Chromium or the database is missing.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from flows.allocator import keep_freed_pages  # noqa: E402

keep_freed_pages()  # before polars loads, as the CLI does

from flows.report import write_html_report  # noqa: E402
from flows.store.db import DEFAULT_DB, connect  # noqa: E402

CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--hide-scrollbars",
    # let the page's scripts run to completion before the screenshot or the DOM dump
    "--virtual-time-budget=15000",
]
# A console line in Chromium's log: `[...:INFO:CONSOLE(12)] "message", source: file://... (12)`.
CONSOLE = re.compile(r":(?:INFO|WARNING|ERROR):CONSOLE[^\]]*\] \"(?P<message>.*)\", source: ")
CONSOLE_ERROR = re.compile(r"Uncaught|Error|Failed to load|net::ERR_", re.IGNORECASE)
# Chromium logs every console level as INFO, so the checked copy tags console.error calls.
TAG_CONSOLE_ERRORS = (
    "<script>(function () { var log = console.error.bind(console); "
    "console.error = function () { log.apply(console, ['console.error:'].concat("
    "Array.prototype.slice.call(arguments))); }; })();</script>"
)
EXTERNAL = re.compile(
    r"<(?:script|link|img|iframe)\b[^>]*\b(?:src|href)\s*=\s*[\"']?(?:https?:)?//", re.I
)
CHART_DIV = re.compile(r"<div id=\"(chart-[\w-]+)\"[^>]*>")
TIMEOUT_SECONDS = 120


def chromium() -> str | None:
    """The Chromium binary, if installed."""
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


def run_chromium(binary: str, page: Path, extra: list[str]) -> subprocess.CompletedProcess[str]:
    """One headless Chromium run on `page` with a throwaway profile."""
    url = page.resolve().as_uri()
    with tempfile.TemporaryDirectory(prefix="report-check-") as profile:
        return subprocess.run(
            [binary, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", *extra, url],
            capture_output=True,
            text=True,
            timeout=TIMEOUT_SECONDS,
            check=False,
        )


def console_errors(log: str) -> list[str]:
    """Console messages of the page that report an error."""
    messages = [m.group("message") for m in CONSOLE.finditer(log)]
    return [message for message in messages if CONSOLE_ERROR.search(message)]


def undrawn_charts(html: str, dom: str) -> list[str]:
    """Chart divs of the page that hold no plotly SVG in the rendered DOM."""
    missing = []
    for chart in CHART_DIV.findall(html):
        start = dom.find(f'id="{chart}"')
        following = dom[start : start + 20_000] if start >= 0 else ""
        if 'class="main-svg"' not in following:
            missing.append(chart)
    return missing


def main() -> int:
    """Render, screenshot, check; prints one line per finding."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, default=ROOT / DEFAULT_DB, help="DuckDB file")
    parser.add_argument(
        "--out", type=Path, default=ROOT / "build" / "report-check", help="output folder"
    )
    parser.add_argument(
        "--window-size", default="1400,3200", help="screenshot WIDTH,HEIGHT (default 1400,3200)"
    )
    args = parser.parse_args()
    binary = chromium()
    if binary is None:
        print("report-check: Chromium not found; install it (apt-get install -y chromium)")
        return 2
    if not args.db.exists():
        print(f"report-check: {args.db} not found; run `make demo` first")
        return 2
    args.out.mkdir(parents=True, exist_ok=True)
    con = connect(args.db, read_only=True)
    try:
        page = write_html_report(con, args.out / "report.html")
    finally:
        con.close()
    html = page.read_text(encoding="utf-8")
    checked = args.out / "report.checked.html"
    checked.write_text(html.replace("<head>", "<head>" + TAG_CONSOLE_ERRORS, 1), encoding="utf-8")
    screenshot = args.out / "report.png"
    shot = run_chromium(
        binary,
        checked,
        [
            "--enable-logging=stderr",
            "--v=0",
            f"--screenshot={screenshot}",
            f"--window-size={args.window_size}",
        ],
    )
    (args.out / "chromium.log").write_text(shot.stderr, encoding="utf-8")
    dom = run_chromium(binary, page, ["--dump-dom"]).stdout

    problems = [f"console error: {message}" for message in console_errors(shot.stderr)]
    problems += [f"external reference: {ref}" for ref in EXTERNAL.findall(html)]
    charts = CHART_DIV.findall(html)
    problems += [f"chart not drawn: {chart}" for chart in undrawn_charts(html, dom)]
    if not charts:
        problems.append("no chart in the page")
    if shot.returncode != 0 or not screenshot.exists():
        problems.append(f"chromium failed ({shot.returncode}); see {args.out / 'chromium.log'}")
    for problem in problems:
        print(f"report-check: {problem}")
    status = "FAILED" if problems else "ok"
    print(
        f"report-check: {status}: {len(charts)} charts, {page.stat().st_size / 1e6:.1f} MB page "
        f"{page}, screenshot {screenshot}"
    )
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
