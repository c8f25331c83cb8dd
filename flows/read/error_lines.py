"""DuckDB's errors in reading a log file, said in one line without the log's text: the line
`error_line` makes is a run's error (stderr, runs.error)."""

from __future__ import annotations

import re

from flows.read.lone_surrogates import HALF_PAIR_ERRORS

# DuckDB's JSON reader refuses a string holding half a UTF-16 pair ("\ud83d" alone), which
# Python's json writes when a text was cut in the middle of an emoji; the line it names was
# one past the record's in every case tried (a JSON Lines file). A file whose records can be
# mended is read so (flows/read/lone_surrogates.py): this names the others (a key holding it).
_HALF_CHARACTER = (
    ': a string holds half a character ("\\ud83d" without the "\\udc.." after it: a text '
    "cut in the middle of an emoji), in the record on the line named or the one before; "
    "replace it by \\ufffd or drop that record"
)


# What DuckDB says is wrong with a CSV line, after the line itself. The reason is found by its
# words, never by its place: where the line holds a byte UTF-8 cannot, DuckDB prints the line's
# text on a line of its own after "Original Line:", and the place after it was the log's text.
# (DuckDB's csv_error.cpp; a cast error cannot arise, every column being read as text.)
_CSV_REASONS = (
    "Expected Number of Columns",
    "Value with unterminated quote",
    "Maximum line size",
    "The CSV Parser state machine reached an invalid state",
)
_INVALID_UNICODE = "Invalid unicode"
_NOT_UTF8 = (
    ": not UTF-8 text (a byte UTF-8 cannot hold, as a Windows-1252 or Latin-1 export writes "
    '"é" or "€"); save the file as UTF-8 (a Windows export: iconv -f WINDOWS-1252 -t UTF-8 '
    "FILE > NEW)"
)


# DuckDB's JSON reader says what it could not make of a record with the record's own text, cut
# to 50 characters: `in line 4: Object {"case_id":"a","input":"Where is ... has duplicate key
# "case_id"`, `Expected OBJECT, but got ARRAY: [...]`. Only the record's place and the words
# around that text are kept: a key name, a type.
_JSON_TRANSFORM = re.compile(r"^(.*JSON transform error in file .*?, in \S+ \d+): (.*)$")
_DUPLICATE_KEY = re.compile(r"^Object .* (has (?:duplicate|unknown) key .*)$")


def _without_record(line: str) -> str:
    """A JSON transform error's line without the record's text it quotes."""
    found = _JSON_TRANSFORM.match(line)
    if found is None:
        return line
    place, reason = found.groups()
    keyed = _DUPLICATE_KEY.match(reason)
    said = f"an object {keyed.group(1)}" if keyed else reason.partition(": ")[0]
    return f"{place}: {said}"


# DuckDB's JSON readers number a malformed record one past its own, mostly: a bad first line
# is "record/value 2", a bad second "line 3", yet after a blank line the line named is the
# record's own. The line is told as DuckDB names it, with where to look.
_MALFORMED_PLACE = re.compile(r"^Invalid Input Error: Malformed JSON .* in (line|record/value) \d+")
_MALFORMED_HINT = " (DuckDB's count: the record is the one it names or the one before)"


def _with_place_hint(line: str) -> str:
    return line + _MALFORMED_HINT if _MALFORMED_PLACE.match(line) else line


# DuckDB's JSON readers refuse a file holding a byte UTF-8 cannot hold, anywhere in it (a
# Windows-1252 export's "é"), with these words alone. A file of cases whose records can be
# mended is read so (flows/read/json_not_utf8.py); for the others (a conversation log, such a
# byte in a key) the whole file is exit 3, so the line says what to do.
_JSON_INVALID_UTF8 = "invalid UTF-8 encoding"
_JSON_NOT_UTF8 = (
    '; a byte UTF-8 cannot hold, as a Windows-1252 or Latin-1 export writes "é" or "€": save '
    "the file as UTF-8 (a Windows export: iconv -f WINDOWS-1252 -t UTF-8 FILE > NEW)"
)


def _with_encoding_hint(line: str) -> str:
    return line + _JSON_NOT_UTF8 if _JSON_INVALID_UTF8 in line else line


# DuckDB's JSON readers refuse a file holding a record past twice maximum_object_size (as
# flows/read/formats.py sets it: 64 MiB), naming the option, which no faithpipe option sets.
_OBJECT_SIZE = '"maximum_object_size"'
_TOO_LARGE = "; a JSON record past 64 MiB is not read: write the log as Parquet"


# DuckDB's strict CSV reader reads one line ending a file, the one it found first (it says
# which: `new_line = \n (Auto-Detected)`), and stops at the other outside quotes with words
# that name neither: a file whose lines end both in CRLF and in LF (a Windows export joined to
# a Linux one; a header written with "\n" and rows by Python's csv module, which ends them
# "\r\n") was exit 3 saying only "The CSV Parser state machine reached an invalid state."
_INVALID_STATE = "The CSV Parser state machine reached an invalid state"
_NEW_LINE = re.compile(r"^new_line = (\\r\\n|\\n|\\r) ")
_LINE_ENDS = {"\\n": ("LF", "a CR"), "\\r\\n": ("CRLF", "an LF alone"), "\\r": ("CR", "an LF")}


def _with_line_ends(lines: list[str]) -> str:
    """The error's first line, and for the strict CSV reader's invalid state what it most
    likely is, from the line ending it read the file in (when it says)."""
    if _INVALID_STATE not in lines[0]:
        return lines[0]
    for line in lines[1:]:
        found = _NEW_LINE.match(line)
        if found:
            read, other = _LINE_ENDS[found.group(1)]
            return (
                f"{lines[0].rstrip('.')}: lines were read as ending in {read}, and {other} "
                "outside quotes is not read: do some lines end in CRLF and others in LF? "
                "convert the file to one line ending (dos2unix FILE)"
            )
    return lines[0]


def error_line(exc: BaseException) -> str:
    """DuckDB's error in one line: its first, and for a CSV line it cannot read what is wrong
    with it ('Expected Number of Columns: 5 Found: 6', or that it is not UTF-8 text); the
    line's own text is left out (a log's, up to 16 MB), and so is a JSON record's."""
    lines = [line.strip() for line in str(exc).strip().splitlines()]
    if not lines:
        return type(exc).__name__
    if any(words in lines[0] for words in HALF_PAIR_ERRORS):
        return lines[0] + _HALF_CHARACTER
    if _OBJECT_SIZE in lines[0]:
        return lines[0].rstrip(".") + _TOO_LARGE
    if "CSV Error on Line" not in lines[0]:
        return _with_encoding_hint(_with_place_hint(_without_record(_with_line_ends(lines))))
    if any(line.startswith(_INVALID_UNICODE) for line in lines[1:]):
        return lines[0] + _NOT_UTF8
    reasons = [line for line in lines[1:] if line.startswith(_CSV_REASONS)]
    return f"{lines[0]}: {reasons[0]}" if reasons else lines[0]
