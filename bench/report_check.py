"""Render the HTML report of a database in headless Chromium at a desktop and a phone width: no
console error, every chart drawn, nothing wider than the screen.

    python bench/report_check.py [--db data/faithpipe.duckdb] [--out build/report-check]

Writes OUT/report.html, a screenshot a width (OUT/report-1400.png, OUT/report-390.png: look at
them) and OUT/chromium-WIDTH.log. At each width the page is shown in a frame that wide (headless
Chromium's window is at least 500 px, so a phone is a frame) and measures itself once drawn:
document.scrollWidth <= innerWidth, and each chart's plot inside its box.
Exit 0 when the page is clean, 1 when it is not, 2 when Chromium or the database is missing.
"""

from __future__ import annotations

import argparse
import json
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
WIDTHS = (1400, 390)  # a desktop, a phone (an iPhone 12-15 is 390 CSS px wide)
FRAME_HEIGHT = 3200
# Run in the checked copy once it is drawn: the page's width against the frame's, each chart's
# box and plot, and the outermost elements that stick out of the screen (not those inside a
# box that scrolls or clips them, as the tables do on a phone); posted to the frame's parent.
MEASURE = """<script>window.addEventListener('load', function () { setTimeout(function () {
  var iw = window.innerWidth, out = [];
  function clipped(e) {
    for (var a = e.parentElement; a && a !== document.body; a = a.parentElement) {
      if (getComputedStyle(a).overflowX !== 'visible') return true; }
    return false; }
  document.querySelectorAll('body *').forEach(function (e) {
    var r = e.getBoundingClientRect();
    if (r.right > iw + 1 && !clipped(e) && !(e.parentElement && out.indexOf(e.parentElement) >= 0))
      out.push(e); });
  var charts = [];
  document.querySelectorAll('div[id^="chart-"]').forEach(function (c) {
    var svg = c.querySelector('svg.main-svg'), box = c.getBoundingClientRect();
    charts.push({id: c.id, right: Math.round(box.right),
                 plot: svg ? Math.round(svg.getBoundingClientRect().width) : null,
                 box: Math.round(box.width)}); });
  var found = JSON.stringify({width: iw, scroll: document.documentElement.scrollWidth,
    charts: charts, wide: out.slice(0, 10).map(function (e) {
      return e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + ' ' +
             Math.round(e.getBoundingClientRect().right) + 'px'; })});
  if (window.parent !== window) window.parent.postMessage(found, '*');
}, 500); });</script>"""
FRAME = """<!DOCTYPE html><html><head><meta charset="utf-8"><style>body {{ margin: 0; }}
iframe {{ border: 0; width: {width}px; height: {height}px; display: block; }}</style></head>
<body><iframe src="{page}"></iframe><pre id="layout-check"></pre><script>
window.addEventListener('message', function (m) {{
  document.getElementById('layout-check').textContent = m.data; }});</script></body></html>"""
LAYOUT = re.compile(r'<pre id="layout-check">(?P<found>[^<]*)</pre>')


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


def layout_problems(found: dict) -> list[str]:
    """What the page's own measurement says is wider than the screen."""
    width = found["width"]
    problems = []
    if found["scroll"] > width:
        problems.append(f"the page is {found['scroll']} px wide in a {width} px screen")
    problems += [f"{element} sticks out" for element in found["wide"]]
    for chart in found["charts"]:
        if chart["plot"] is None:
            continue  # reported as not drawn
        if chart["right"] > width or chart["plot"] > chart["box"] + 1:
            problems.append(
                f"{chart['id']} is {chart['plot']} px wide in a {chart['box']} px box "
                f"ending at {chart['right']} px"
            )
    return problems


def check_width(binary: str, out: Path, checked: Path, width: int) -> tuple[list[str], Path]:
    """Screenshot and measure the page in a frame `width` px wide; (problems, screenshot)."""
    frame = out / f"frame-{width}.html"
    frame.write_text(
        FRAME.format(width=width, height=FRAME_HEIGHT, page=checked.name), encoding="utf-8"
    )
    window = f"--window-size={max(width, 500)},{FRAME_HEIGHT}"
    screenshot = out / f"report-{width}.png"
    shot = run_chromium(
        binary, frame, ["--enable-logging=stderr", "--v=0", f"--screenshot={screenshot}", window]
    )
    (out / f"chromium-{width}.log").write_text(shot.stderr, encoding="utf-8")
    dom = run_chromium(binary, frame, ["--dump-dom", window]).stdout
    problems = [f"console error: {message}" for message in console_errors(shot.stderr)]
    if shot.returncode != 0 or not screenshot.exists():
        problems.append(f"chromium failed ({shot.returncode}); see chromium-{width}.log")
    measured = LAYOUT.search(dom)
    if measured is None or not measured.group("found"):
        return [*problems, "the page did not measure itself (did it load?)"], screenshot
    found = json.loads(measured.group("found").replace("&quot;", '"').replace("&amp;", "&"))
    problems += layout_problems(found)
    charts = found["charts"]
    print(
        f"report-check: {width} px: page {found['scroll']} px in {found['width']} px, "
        f"{sum(c['plot'] is not None and c['plot'] <= c['box'] + 1 for c in charts)} of "
        f"{len(charts)} charts fit (widest plot {max((c['plot'] or 0 for c in charts), default=0)}"
        f" px), {len(found['wide'])} elements stick out"
    )
    return problems, screenshot


def main() -> int:
    """Render, screenshot and measure at each width, check; prints one line per finding."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, default=ROOT / DEFAULT_DB, help="DuckDB file")
    parser.add_argument(
        "--out", type=Path, default=ROOT / "build" / "report-check", help="output folder"
    )
    parser.add_argument(
        "--widths",
        default=",".join(map(str, WIDTHS)),
        help=f"screen widths in CSS px (default {','.join(map(str, WIDTHS))})",
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
    checked.write_text(
        html.replace("<head>", "<head>" + TAG_CONSOLE_ERRORS, 1).replace(
            "</body>", MEASURE + "</body>", 1
        ),
        encoding="utf-8",
    )
    dom = run_chromium(binary, page, ["--dump-dom"]).stdout

    problems = [f"external reference: {ref}" for ref in EXTERNAL.findall(html)]
    charts = CHART_DIV.findall(html)
    problems += [f"chart not drawn: {chart}" for chart in undrawn_charts(html, dom)]
    if not charts:
        problems.append("no chart in the page")
    screenshots = []
    for width in (int(w) for w in args.widths.split(",")):
        found, screenshot = check_width(binary, args.out, checked, width)
        problems += [f"{width} px: {problem}" for problem in found]
        screenshots.append(screenshot.name)
    for problem in problems:
        print(f"report-check: {problem}")
    status = "FAILED" if problems else "ok"
    print(
        f"report-check: {status}: {len(charts)} charts, {page.stat().st_size / 1e6:.2f} MB page "
        f"{page}, screenshots {', '.join(screenshots)} in {args.out}"
    )
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
