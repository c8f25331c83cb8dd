"""What the `faith` process leaves unloaded: libraries its commands never use."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # importlib.abc alone costs ~50 ms: a finder needs only find_spec
    from collections.abc import Sequence
    from importlib.machinery import ModuleSpec
    from types import FrameType, ModuleType

# pandera 0.35 imports pandas, its whole pandas API and (through its data synthesis) hypothesis
# whenever they are installed: at its own import and again at the first validation
# (pandera/backends/register_checks.py), ~0.8 CPU-s of every `faith` start here. faithpipe
# validates polars frames only; told they are absent, pandera takes its documented polars-only
# branches (pandera/__init__.py, GH #2387). Everyone else (Dask, plotly, a caller) still gets them.
UNUSED_BY_PANDERA_POLARS = frozenset({"pandas", "hypothesis"})
# How far up the stack the importing module is looked for, past importlib's own frames.
_FRAMES_SEARCHED = 40


def _importer(frame: FrameType | None) -> str:
    """The module whose import statement is running: the first frame outside importlib."""
    for _ in range(_FRAMES_SEARCHED):
        if frame is None:
            break
        name = frame.f_globals.get("__name__", "")
        if not name.startswith(("importlib", "_frozen_importlib")) and name != __name__:
            return str(name)
        frame = frame.f_back
    return ""


class HiddenFromPandera:
    """Answers "not installed" when pandera imports one of `names`; passes otherwise."""

    def __init__(self, names: frozenset[str] = UNUSED_BY_PANDERA_POLARS) -> None:
        self.names = names

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        top = fullname.partition(".")[0]
        if top not in self.names:  # every other import passes without a look at the stack
            return None
        importer = _importer(sys._getframe(1))
        if importer == "pandera" or importer.startswith("pandera."):
            raise ModuleNotFoundError(f"No module named '{top}'", name=top)
        return None


def hide_pandas_from_pandera() -> None:
    """For the `faith` process only, before pandera loads: a Python caller's pandera is left
    as the caller has it."""
    if "pandera" in sys.modules or any(isinstance(f, HiddenFromPandera) for f in sys.meta_path):
        return
    sys.meta_path.insert(0, HiddenFromPandera())
