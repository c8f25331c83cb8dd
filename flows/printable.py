"""Text from logs and databases made safe for a terminal: its control characters shown, not
obeyed, so a segment value or a path cannot recolour the screen, retitle the window or hide
what follows (ESC sequences, BEL, backspace, carriage return, bidirectional overrides)."""

from __future__ import annotations

import re

# C0 controls but tab and newline, DEL, the C1 controls (8-bit CSI and OSC among them), and
# the Unicode format characters that reorder or hide text on the screen.
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")
# ... and, where the output is one line, newline and tab too.
_CONTROL_OR_BREAK = re.compile(f"[\t\n{_CONTROL.pattern[1:-1]}]")


def _shown(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


def printable(text: object) -> str:
    """`text` with each control character written as its escape (`ESC` -> `\\x1b`)."""
    return _CONTROL.sub(_shown, str(text))


def printable_line(text: object) -> str:
    """`printable`, with newlines and tabs escaped too: the text stays on one line."""
    return _CONTROL_OR_BREAK.sub(_shown, str(text))


__all__ = ["printable", "printable_line"]
