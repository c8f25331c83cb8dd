"""The report as one self-contained, offline HTML file (plotly.js inlined)."""

from __future__ import annotations

import errno
import html
import os
import stat
from functools import cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

import plotly.graph_objects as go
import plotly.io as pio
import polars as pl

from faith_udfs.errors import ConfigError
from flows.report.charts import report_figures
from flows.report.conversations import conversations_html
from flows.report.headline import comparison_html, failing_cases_html, headline_html
from flows.report.labels import config_names, name_of
from flows.report.markup import logged, table_head, table_html
from flows.report.quarantine import quarantine_html
from flows.report.queries import (
    CAUSES,
    ReportOptions,
    check_options,
    contradicted_claims,
    latest_periods,
    pass_rates,
    run_costs,
)
from flows.report.terminal import (
    COST_HEADERS,
    SHARE_HEADERS,
    cost_cells,
    day_text,
    invalid_note,
    period_cells,
    settings_text,
)
from flows.store.db import sql

if TYPE_CHECKING:
    import duckdb

# What the OS says when a path cannot take a file: a folder in its place, a file where a
# folder should be, no permission, a read-only mount, a name too long, a file system that
# takes no new files (/proc). A full disk is not a bad path: it stays an unexpected error.
_BAD_PATH = {
    errno.EISDIR,
    errno.ENOTDIR,
    errno.EEXIST,
    errno.EACCES,
    errno.EPERM,
    errno.EROFS,
    errno.ENAMETOOLONG,
    errno.ENOENT,
}


def _claims_html(claims: pl.DataFrame, names: dict[str, str]) -> str:
    if claims.is_empty():
        return "<p>No claim was judged contradicted in this window.</p>"
    rows = []
    for row in claims.iter_rows(named=True):
        passages = "".join(f"<li>{logged(p)}</li>" for p in row["passages"])
        rows.append(
            "<tr>"
            f"<td>{html.escape(name_of(names, row['config_id']))}</td>"
            f"<td>{row['rank']}</td>"
            f"<td class=claim>{logged(row['claim'])}</td>"
            f"<td>{row['times']:,}</td>"
            f"<td>{row['cases']:,}</td>"
            f"<td>{logged(row['example_case_id'])}</td>"
            f"<td><ul>{passages}</ul></td>"
            "</tr>"
        )
    headers = ("config", "rank", "claim", "times", "cases", "example case", "passages read")
    head = table_head(headers, "Claims most often contradicted")
    return f"{head}<tbody>{''.join(rows)}</tbody></table>"


def _configs_html(con: duckdb.DuckDBPyConnection, names: dict[str, str]) -> str:
    headers = ["config", "config_id", "judge", "threshold", "penalize ambiguous", "strict"]
    headers += ["cases", "logged"]
    rows = [
        [
            name_of(names, config_id),
            config_id,
            judge or "",
            "" if threshold is None else f"{threshold:g}",
            str(penalize),
            str(strict),
            f"{cases:,}",
            f"{day_text(first)} to {day_text(last)}",
        ]
        for config_id, judge, threshold, penalize, strict, cases, first, last in con.execute(
            sql("report_configs")
        ).fetchall()
    ]
    if not rows:  # as the periods say it, not a table of headers alone
        return "<p>No metric config has cases yet.</p>"
    return table_html(headers, rows, "Metric configs")


def _summary_html(rates: pl.DataFrame, names: dict[str, str]) -> str:
    if rates.is_empty():  # as the terminal says it, not a table of headers alone
        return "<p>No cases in this window.</p>"
    headers = ["config", "period", "cases", "scored", "pass rate [95% CI]", "mean score"]
    headers += [cause.replace("_", " ") for cause in CAUSES]
    headers += SHARE_HEADERS
    rows = [
        [name_of(names, row["config_id"]), *period_cells(row)]
        for row in rates.iter_rows(named=True)
    ]
    # one note a config, as under each terminal table: each config has its own limit
    flagged = rates.filter(pl.col("invalid_flagged")).group_by("config_id", maintain_order=True)
    notes = "".join(
        f"<p class=flag>{html.escape(invalid_note(group, name_of(names, config_id)))}</p>"
        for (config_id,), group in flagged
    )
    return table_html(headers, rows, "Latest periods") + notes


def _costs_html(con: duckdb.DuckDBPyConnection, options: ReportOptions) -> str:
    costs = run_costs(con, options)
    if costs.is_empty():
        return "<p>No run recorded a cost.</p>"
    rows = [cost_cells(r) for r in costs.iter_rows(named=True)]
    return table_html(list(COST_HEADERS), rows, "Judge cost of the latest runs")


_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>faithpipe report</title>
<style>
body {{ font-family: system-ui, sans-serif; margin: 1.5rem 2rem; color: #222; }}
h1 {{ margin-bottom: 0.2rem; }}
.meta {{ color: #666; margin-top: 0; }}
table {{ border-collapse: collapse; margin: 0.5rem 0 1.5rem; font-size: 0.9rem; }}
th, td {{ border: 1px solid #ddd; padding: 0.3rem 0.6rem; vertical-align: top; text-align: left; }}
th {{ background: #f4f4f4; }}
td.claim {{ max-width: 28rem; }}
td ul {{ margin: 0; padding-left: 1.1rem; }}
.chart h3 {{ font-size: 1rem; font-weight: 600; margin: 1rem 0 0; }}
.chart {{ margin-bottom: 1rem; width: 100%; max-width: 100%; overflow: hidden; }}
p, li {{ overflow-wrap: anywhere; }}
.flag {{ color: #a33; }}
.headline {{ font-size: 1.15rem; margin: 0.3rem 0; }}
.badge {{ border-radius: 0.3rem; padding: 0.1rem 0.5rem; font-size: 0.85rem; color: #fff; }}
.badge.alert {{ background: #b3261e; }}
.badge.ok {{ background: #2e7d32; }}
caption {{ text-align: left; font-weight: 600; padding: 0.2rem 0; }}
/* a caption the heading above its table says already: for screen readers, not shown twice */
caption.named-above {{ position: absolute; width: 1px; height: 1px; overflow: hidden;
  clip: rect(0 0 0 0); white-space: nowrap; }}
/* a phone: tables scroll inside themselves, nothing widens the page (bench/report_check.py) */
@media (max-width: 600px) {{
  body {{ margin: 0.8rem; }}
  table {{ display: block; max-width: 100%; overflow-x: auto; }}
  .headline {{ font-size: 1rem; }}
}}
</style>
<script type="text/javascript">{plotlyjs}</script>
</head>
<body>
<h1>faithpipe report</h1>
<p class="meta">{meta}</p>
{headline}
{quarantine}
{charts}
{comparison}
<h2>Latest periods</h2>
{summary}
<h2>Metric configs</h2>
{configs}
{failing}
<h2>Claims most often contradicted</h2>
{claims}
<h2>Judge cost of the latest runs</h2>
{costs}
</body>
</html>
"""


@cache
def plotly_basic_js() -> str:
    """plotly.js's basic bundle (scatter and bar traces: all the report draws), vendored from
    npm's plotly.js-basic-dist-min at plotly.py's own plotly.js version, so the page stays
    offline at a quarter of the full bundle's size."""
    return resources.files("flows.report").joinpath("static", "plotly-basic.min.js").read_text()


# Narrow margins: on a phone the plot keeps most of the width (the legend sits below it).
CHART_MARGIN = {"l": 56, "r": 16, "t": 40, "b": 40}


def _chart_html(name: str, figure: go.Figure) -> str:
    """A chart with its title as a heading that wraps (a plotly title is cut at a phone's
    width), drawn to the width of its box."""
    title = figure.layout.title.text or ""
    shown = go.Figure(figure).update_layout(title=None, margin=CHART_MARGIN)
    plot = pio.to_html(
        shown,
        full_html=False,
        include_plotlyjs=False,
        div_id=f"chart-{name}",
        config={"displaylogo": False, "responsive": True},
    )
    return f'<div class="chart"><h3>{html.escape(title)}</h3>{plot}</div>'


def render_html(con: duckdb.DuckDBPyConnection, options: ReportOptions) -> str:
    """The whole report as one HTML page, plotly.js inlined: it works offline."""
    check_options(con, options)
    all_rates = pass_rates(con, options)
    figures = report_figures(con, options, all_rates)
    charts = "\n".join(_chart_html(name, figure) for name, figure in figures.items())
    window = f"{options.since or 'start'} to {options.until or 'end'}"
    meta = html.escape(f"Window: {window}; {settings_text(options)}; by {options.grain}.")
    rates = latest_periods(all_rates, options.periods)
    names = config_names(con, all_rates["config_id"].unique().to_list())
    return _PAGE.format(
        plotlyjs=plotly_basic_js(),
        meta=meta,
        headline=headline_html(con, options, names),
        quarantine=quarantine_html(con, options.since, options.until),
        comparison=comparison_html(con),
        failing=failing_cases_html(con, options, names),
        configs=_configs_html(con, names),
        summary=_summary_html(rates, names),
        charts=charts,
        claims=_claims_html(contradicted_claims(con, options), names),
        costs=_costs_html(con, options) + conversations_html(con, options, names),
    )


def write_html_report(
    con: duckdb.DuckDBPyConnection, path: Path | str, *, options: ReportOptions | None = None
) -> Path:
    """Write the HTML report of `con` to `path` (parents created); returns the path. A path
    that cannot take the file raises ConfigError (exit 2), the path named."""
    path = Path(path)
    check_report_path(path, _database_of(con))
    page = render_html(con, options or ReportOptions())
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        _write_page(path, page)
    except OSError as exc:
        problem = _path_problem(path, exc)
        if problem is None:
            raise
        raise problem from exc
    return path


def _write_page(path: Path, page: str) -> None:
    """The page written to `path`. A named pipe is opened without waiting for its reader:
    one no program reads is refused (ENXIO), where opening it waited for a reader for ever, a
    night's report hung; one that is read gets the page as a file does."""
    if not _is_fifo(path):
        _replace_file(path, page)
        return
    fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
    os.set_blocking(fd, True)  # the reader there: write at its pace
    ours = _is_stdout(fd)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(page)
    except BrokenPipeError as exc:
        if ours:
            raise  # `--html /dev/stdout | head`: stdout's reader went away (exit 141)
        raise ConfigError(
            f"cannot write the HTML report to {path}: its reader went away before the page "
            "was written; keep the reader open until the report ends, or give --html a file"
        ) from exc


def _replace_file(path: Path, page: str) -> None:
    """The page written beside the file `path` names (through a link) under a temporary name,
    then renamed over it, its mode kept: a page cut short (a full disk, a stop) left last
    night's report half written, and a web server serving it read half a page. A file that is
    not writable stays refused; a device, or a folder that takes no new file, is written in
    place."""
    target = Path(os.path.realpath(path))
    try:
        found = os.stat(target)
    except FileNotFoundError:
        found = None
    if found is not None and not os.access(target, os.W_OK):
        raise PermissionError(errno.EACCES, "Permission denied", str(path))
    if str(target).startswith(("/dev/", "/proc/")) or (
        found is not None and (not stat.S_ISREG(found.st_mode) or found.st_nlink > 1)
    ):
        path.write_text(page, encoding="utf-8")
        return
    partial = target.with_name(f".{target.name}.{os.getpid()}.partial")
    try:
        partial.write_text(page, encoding="utf-8")
        if found is not None:
            os.chmod(partial, stat.S_IMODE(found.st_mode))
        os.replace(partial, target)
    except PermissionError:
        if found is None:
            raise
        # a folder you may not add a file to, or a sticky one holding another user's file
        path.write_text(page, encoding="utf-8")
    finally:
        partial.unlink(missing_ok=True)


def _is_fifo(path: Path | str) -> bool:
    """Whether `path` is a named pipe (`mkfifo`)."""
    try:
        return stat.S_ISFIFO(os.stat(path).st_mode)
    except OSError:
        return False


def _is_stdout(fd: int) -> bool:
    """Whether `fd` is the pipe stdout writes to (`--html /dev/stdout`)."""
    try:
        return os.path.samestat(os.fstat(fd), os.fstat(1))
    except OSError:
        return False


def check_report_path(path: Path | str, database: Path | str | None = None) -> None:
    """Raise ConfigError (exit 2) when `path` cannot become the report file: it is a folder
    (or, as typed, ends with a slash: `reports/`), a file stands where one of its folders
    should be, its name is too long, or it is a DuckDB database or the WAL of `database` (the
    one read), which the page would overwrite. The command checks before it reads the database,
    so a wrong --html is said at once, not after the tables."""
    if not str(path).strip():  # an unset variable: Path("") is the working folder
        raise ConfigError("--html is empty: give it a file name (an unset variable?)")
    if str(path).endswith(("/", os.sep)):
        raise _a_folder(path)
    try:
        _check_report_path(Path(path))
        _refuse_a_database(Path(path), database)
    except OSError as exc:
        problem = _path_problem(path, exc)
        if problem is None:
            raise
        raise problem from exc


def _check_report_path(path: Path) -> None:
    """The folder and file-in-the-way checks; the OS's own errors (a name too long) pass."""
    if path.is_dir():
        raise _a_folder(path)
    for parent in path.parents:
        if parent.exists():  # the nearest existing folder, or the file in its place
            if not parent.is_dir():
                raise ConfigError(
                    f"cannot write the HTML report to {path}: {parent} is a file, not a "
                    "folder; give --html a path under a folder"
                )
            return


def _database_of(con: duckdb.DuckDBPyConnection) -> str | None:
    """The file `con` reads (None: in memory)."""
    found = con.execute(sql("report_database_file")).fetchall()
    return found[0][0] if found else None


def _refuse_a_database(path: Path, database: Path | str | None) -> None:
    """`--html faith.duckdb` (the options swapped) wrote the page over the database it read:
    a DuckDB file (its magic number at byte 8), the WAL of the database read, or any other file
    that holds something but no HTML page (`--html logs.parquet`) is no file for the page; an
    earlier report, or an empty file, is written over."""
    what = None
    read = None if database is None else Path(database).resolve()
    if read is not None and path.resolve() == read:
        what = "the database this report reads"
    elif read is not None and path.resolve() == Path(f"{read}.wal"):
        what = "the write-ahead log of the database this report reads"
    elif path.is_file():
        with path.open("rb") as file:
            head = file.read(64)
        if head[8:12] == b"DUCK":
            what = "a DuckDB database"
        elif head.strip() and not head.lstrip(b"\xef\xbb\xbf \t\r\n").lower().startswith(
            _PAGE_STARTS
        ):
            what = "a file that is no HTML page (a log?)"
    if what is not None:
        raise ConfigError(
            f"cannot write the HTML report to {path}: it is {what}, which the page would "
            f"overwrite; give --html another file, e.g. {_other_name(path)}"
        )


# How an HTML page opens (after a byte-order mark and blanks): a doctype, the html element, or
# a comment (a browser's `<!-- saved from url=... -->`), which no log, database or Parquet does.
_PAGE_STARTS = (b"<!doctype html", b"<html", b"<!--")


def _other_name(path: Path) -> Path:
    """A name to offer instead of a refused one: never the refused name itself."""
    offered = path.with_suffix(".html")
    return offered if offered != path else path.with_name(f"{path.stem}-report.html")


def _a_folder(path: Path | str) -> ConfigError:
    return ConfigError(
        f"cannot write the HTML report to {path}: it is a folder; "
        f"give --html a file name, e.g. {Path(path) / 'report.html'}"
    )


def _path_problem(path: Path | str, exc: OSError) -> ConfigError | None:
    """The ConfigError of a path the OS refused; None when the path is not the fault (a full
    disk stays an unexpected error)."""
    if exc.errno == errno.ENXIO:  # a FIFO without a reader, a socket, a device not there
        fifo = _is_fifo(path)
        what = "a named pipe no program is reading" if fifo else "a socket or a device"
        start = "start its reader first, or " if fifo else ""
        return ConfigError(
            f"cannot write the HTML report to {path}: it is {what}; {start}give --html a file"
        )
    if exc.errno not in _BAD_PATH:
        return None
    return ConfigError(
        f"cannot write the HTML report to {path}: {exc.strerror}; "
        "give --html a file path in a folder you can write"
    )
