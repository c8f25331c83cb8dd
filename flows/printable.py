"""Text from logs and databases made safe for a terminal: its control characters shown, not
obeyed, so a segment value or a path cannot recolour the screen, retitle the window or hide
what follows (ESC sequences, BEL, backspace, bidirectional overrides), and its line breaks
shown too, so a message stays the one line it was promised to be: a segment value with a
newline cannot start a forged `error:` line of its own."""

from __future__ import annotations

import re

# C0 controls but tab (newline, CR, VT and FF among them), DEL, the C1 controls (8-bit CSI and
# OSC, NEL among them), the Unicode line and paragraph separators, and the format characters
# that reorder or hide text on the screen: the bidirectional marks (U+200E/F, and U+061C, the
# Arabic letter mark), embeddings, overrides and isolates.
_CONTROL = re.compile(
    "[\x00-\x08\x0a-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]"
)
# ... and tab too, where nothing but one plain line will do.
_CONTROL_OR_TAB = re.compile(f"[\t{_CONTROL.pattern[1:-1]}]")
# The two breaks people know by their backslash names.
_NAMED = {"\n": "\\n", "\r": "\\r"}


def _shown(match: re.Match[str]) -> str:
    char = match.group()
    if char in _NAMED:
        return _NAMED[char]
    code = ord(char)
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


def printable(text: object) -> str:
    """`text` on one line, each control character and line break written as its escape
    (`ESC` -> `\\x1b`, a newline -> `\\n`); tabs are kept."""
    return _CONTROL.sub(_shown, str(text))


def printable_line(text: object) -> str:
    """`printable`, with tabs escaped too."""
    return _CONTROL_OR_TAB.sub(_shown, str(text))


__all__ = ["printable", "printable_line"]


def holds_any_character(stream: object) -> bool:
    """Whether a text stream's encoding can hold every character (a UTF encoding)."""
    encoding = (getattr(stream, "encoding", None) or "").lower().replace("-", "").replace("_", "")
    return encoding in ("utf8", "utf16", "utf32")


def lossy_where_unencodable(stream: object) -> None:
    """A text stream whose encoding cannot hold every character (PYTHONIOENCODING=ascii, a
    latin-1 terminal) shows what it cannot encode as '?' instead of failing the command with
    exit 1 half-way through its output (a report's en dash, a segment's emoji); JSON for
    machines escapes such characters instead (compare_command.json_for_terminal)."""
    reconfigure = getattr(stream, "reconfigure", None)
    if holds_any_character(stream) or reconfigure is None:
        return
    if getattr(stream, "errors", "strict") == "strict":
        reconfigure(errors="replace")
