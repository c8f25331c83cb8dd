"""Reading a team's labels for `faith calibrate`: a Parquet or CSV file of `case_id` and
`label` (1 faithful, 0 not), optionally `claim_labels` (one 1/0 per claim of the case, in the
order of its `claim_verdicts`), refused whole when a column, a value or an id is wrong."""

from __future__ import annotations

import gzip
import io
from pathlib import Path

import polars as pl

from faith_udfs.errors import first_line_of
from flows.errors import InputUnreadable
from flows.read.regular_files import require_regular_file

__all__ = ["labels_name", "read_labels"]

_TRUE = ("1", "true", "yes")
_FALSE = ("0", "false", "no")
# "1.0" and "0.00" are how pandas writes a label column that ever held a NaN.
_WHOLE_NUMBER_ZEROS = r"^([01])\.0*$"
# "[1, 0]" is how pandas writes a list into a CSV cell.
_LIST_PUNCTUATION = r"[\[\]()'\"]"
_GZIP_CSV = ".csv.gz"
# The columns read from a Parquet file: the others are ignored, so never read (a column polars
# cannot read, such as BigQuery's BIGNUMERIC, Decimal(76, 38); a whole log given by mistake).
_READ = ("case_id", "label", "claim_labels")
# Excel's "Unicode Text" and Windows PowerShell's exports start with a UTF-16 byte-order mark.
_UTF16_MARKS = (b"\xff\xfe", b"\xfe\xff")
# Bytes read to tell a file's line ends.
_SNIFF = 1 << 16
_CONVERT = "save the file as UTF-8, e.g. iconv -f {0} -t UTF-8 FILE > NEW"


def read_labels(path: Path | str) -> pl.DataFrame:
    """`case_id` (str), `label` (bool) and `claim_labels` (list of bool, null where not
    given) of each labelled case; other columns are ignored, and so are rows with neither an
    id nor a label (a CSV's blank lines)."""
    path = Path(path)
    frame = _read(path)
    stripped = [name.strip() for name in frame.columns]
    twice = sorted({name for name in stripped if stripped.count(name) > 1})
    if twice:  # polars' DuplicateError on the rename, exit 1
        raise InputUnreadable(
            f"labels {path}: more than one column is named {', '.join(map(repr, twice))} "
            "(spaces around a name do not count): keep one"
        )
    frame = frame.rename({name: name.strip() for name in frame.columns if name != name.strip()})
    try:
        return _labels(frame, path)
    except pl.exceptions.PolarsError as exc:  # a Duration label, an id that is not UTF-8
        raise InputUnreadable(
            f"labels {path}: case_id and label cannot be read as text and 1/0 ({_first_line(exc)})"
        ) from None


def _labels(frame: pl.DataFrame, path: Path) -> pl.DataFrame:
    """read_labels' checks and casts, on the file's frame."""
    missing = [name for name in ("case_id", "label") if name not in frame.columns]
    if missing:
        found = frame.columns[:6]
        raise InputUnreadable(
            f"labels {path}: missing columns {missing}; expected case_id and label (1/0), "
            f"found {found} (a CSV must be comma-separated)"
        )
    for name in ("case_id", "label"):
        if isinstance(frame.schema[name], pl.List | pl.Array | pl.Struct):
            raise InputUnreadable(
                f"labels {path}: {name} must be one value a row, found {frame.schema[name]}"
            )
    frame = frame.filter(pl.col("case_id").is_not_null() | pl.col("label").is_not_null())
    labels = frame.select(
        case_id=pl.col("case_id").cast(pl.String),
        label=_as_bool(pl.col("label")),
    )
    labels = labels.with_columns(claim_labels=_claim_labels(frame, path))
    if labels["case_id"].has_nulls():
        raise InputUnreadable(f"labels {path}: case_id must not be empty")
    empty = labels.filter(frame["label"].is_null())["case_id"]
    if empty.len():
        raise InputUnreadable(
            f"labels {path}: label is empty for {empty.len()} case"
            f"{'' if empty.len() == 1 else 's'} (e.g. {empty.head(3).to_list()}); give each "
            "1 or 0, or leave those rows out"
        )
    wrong = frame.filter(labels["label"].is_null())["label"]
    bad = wrong.unique(maintain_order=True).head(3).to_list()  # each once, in the file's order
    if bad:
        raise InputUnreadable(f"labels {path}: label must be 1 or 0, found {bad}")
    repeated = labels.filter(pl.col("case_id").is_duplicated())["case_id"].unique().sort()
    if repeated.len():
        raise InputUnreadable(
            f"labels {path}: case_id must be unique, repeated: {repeated.head(3).to_list()}"
        )
    return labels


def labels_name(path: Path | str) -> str:
    """The file's name without its extension, `.csv.gz` as one: a calibration's default name
    (`support-team.csv.gz` names `support-team`)."""
    name = Path(path).name
    if name.lower().endswith(_GZIP_CSV):
        return name[: -len(_GZIP_CSV)]
    return Path(path).stem


def _read(path: Path) -> pl.DataFrame:
    """The file as a frame: CSV (by its extension, `.csv` or `.csv.gz`) with every column as
    text, else Parquet."""
    if path.suffix.lower() in (".json", ".jsonl", ".ndjson"):
        raise InputUnreadable(f"labels {path}: labels come as a CSV or a Parquet file, not JSON")
    require_regular_file(path, "labels", "give the labels as a Parquet or CSV file")
    # a gzip CSV, as the logs may be: polars reads it whole, as it reads a plain one
    csv = path.suffix.lower() == ".csv" or path.name.lower().endswith(_GZIP_CSV)
    kind = "CSV" if csv else "Parquet"
    try:
        if kind == "CSV":
            return _read_csv(path)
        names = list(pl.read_parquet_schema(path))
        read = [name for name in names if name.strip() in _READ]
        if {name.strip() for name in read} >= {"case_id", "label"}:
            return pl.read_parquet(path, columns=read, glob=False)
        return pl.DataFrame(schema=dict.fromkeys(names, pl.Null))  # the columns, for the refusal
    except (OSError, pl.exceptions.PolarsError) as exc:
        raise InputUnreadable(
            f"labels {path}: not readable as {kind} ({_first_line(exc)}){_named_so(path, kind)}"
        ) from None


def _named_so(path: Path, kind: str) -> str:
    """Why a file that is no Parquet was read as one: its name (a CSV named `.txt` or `.tsv`)."""
    if kind != "Parquet":
        return ""
    try:
        with path.open("rb") as head:
            if head.read(4) == b"PAR1":
                return ""
    except OSError:
        return ""
    return "; a file is read as CSV only when named .csv or .csv.gz: name a CSV so"


def _read_csv(path: Path) -> pl.DataFrame:
    """A CSV's columns as text. A byte UTF-8 cannot hold (Excel on Windows saves its CSV in
    Windows-1252) refuses the file only where it is read: in `case_id`, `label` or
    `claim_labels`, not in a labeller's notes, which are ignored as any other column."""
    source = _csv_source(path)
    try:
        return pl.read_csv(source, infer_schema=False)
    except pl.exceptions.ComputeError as exc:
        if "utf-8" not in str(exc).lower():
            raise
    if isinstance(source, io.BytesIO):
        source.seek(0)
    frame = pl.read_csv(source, infer_schema=False, encoding="utf8-lossy")
    # Excel on Windows saves a CSV in Windows-1252; for Mac, lines ending in CR, in Mac Roman
    encoding = "MACINTOSH" if isinstance(source, io.BytesIO) else "WINDOWS-1252"
    for name in frame.columns:
        if name.strip() in _READ and frame[name].str.contains("\ufffd", literal=True).any():
            raise InputUnreadable(
                f"labels {path}: {name.strip()} holds text that is not UTF-8 (as a "
                f"spreadsheet saves a CSV); {_CONVERT.format(encoding)}"
            )
    return frame


def _csv_source(path: Path) -> Path | io.BytesIO:
    """The CSV for polars: the file, or its text with line ends read as LF when every line
    ends in a lone CR (Excel for Mac's "CSV (Macintosh)", which polars reads as one line); a
    UTF-16 file (Excel's "Unicode Text") is refused."""
    opener = gzip.open if path.name.lower().endswith(_GZIP_CSV) else open
    with opener(path, "rb") as head:
        start = head.read(_SNIFF)
    if start[:2] in _UTF16_MARKS:
        raise InputUnreadable(f"labels {path}: UTF-16 text, not UTF-8; {_CONVERT.format('UTF-16')}")
    if b"\r" not in start or b"\n" in start:
        return path
    with opener(path, "rb") as whole:
        return io.BytesIO(whole.read().replace(b"\r", b"\n"))


def _first_line(exc: BaseException) -> str:
    """The error's kind and its first line, cut short (a CSV error may quote a long line)."""
    text = first_line_of(exc)
    return text if len(text) <= 200 else text[:199] + "…"


def _as_bool(value: pl.Expr) -> pl.Expr:
    """1/0, true/false, yes/no (any case, 1.0 and 0.0 too) as a bool; null otherwise."""
    text = (
        value.cast(pl.String)
        .str.strip_chars()
        .str.to_lowercase()
        .str.replace(_WHOLE_NUMBER_ZEROS, "$1")
    )
    return pl.when(text.is_in(_TRUE)).then(True).when(text.is_in(_FALSE)).then(False)


def _claim_labels(frame: pl.DataFrame, path: Path) -> pl.Series:
    """`claim_labels` as lists of bool: a Parquet list of 1/0, or text of 1/0 separated by
    spaces or commas (CSV, brackets allowed); null or empty: the case's claims are not
    labelled."""
    dtype = frame.schema.get("claim_labels", pl.Null)
    if dtype == pl.Null:  # absent, or a column pandas wrote with nothing in it
        return pl.Series("claim_labels", [None] * frame.height, dtype=pl.List(pl.Boolean))
    column = pl.col("claim_labels")
    categories = isinstance(dtype, pl.Categorical | pl.Enum)  # pandas' `category` of texts
    if categories:
        column = column.cast(pl.String)
    if categories or dtype == pl.String:
        spaced = column.str.replace_all(_LIST_PUNCTUATION, " ").str.replace_all(r"[,;\s]+", " ")
        items = spaced.str.strip_chars().str.split(" ")
        items = items.list.eval(pl.element().filter(pl.element() != ""))
    elif isinstance(dtype, pl.List | pl.Array) and not isinstance(
        dtype.inner, pl.List | pl.Array | pl.Struct
    ):
        items = column.cast(pl.List(dtype.inner)).list.eval(pl.element().cast(pl.String))
    else:
        raise InputUnreadable(
            f"labels {path}: claim_labels must be a list of 1/0, or text such as '1 0 1'"
        )
    items = items.list.eval(pl.element().fill_null("null"))
    flags = items.list.eval(_as_bool(pl.element()))
    words = frame.select(item=items).explode("item").drop_nulls()["item"]
    bad = words.filter(~_known(words))
    if bad.len():
        raise InputUnreadable(
            f"labels {path}: claim_labels must be 1s and 0s, found "
            f"{bad.unique(maintain_order=True).head(3).to_list()}"
        )
    return frame.select(pl.when(items.list.len() > 0).then(flags).alias("claim_labels")).to_series()


def _known(words: pl.Series) -> pl.Series:
    """Whether each claim label's text reads as 1 or 0."""
    return words.to_frame("w").select(_as_bool(pl.col("w")).is_not_null()).to_series()
