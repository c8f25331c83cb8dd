"""The data that ships with faithpipe: the sample logs and the labelled golden set.

Both are symbolic links to the committed files under data/ (one copy in the repository);
a wheel carries their content as package data, so `faith demo` and `faith nightly` find
them wherever faithpipe is installed.
"""

from __future__ import annotations

import atexit
from contextlib import ExitStack
from importlib import resources
from pathlib import Path

__all__ = ["golden_set_path", "sample_path"]

_extracted: list[ExitStack] = []


def _bundled(name: str) -> Path:
    resource = resources.files(__name__).joinpath(name)
    if isinstance(resource, Path):
        # In the repository, the file the link points at (the path runs recorded before).
        return resource.resolve()
    # Installed as a zip: a real file for the readers, removed when the process ends.
    if not _extracted:
        _extracted.append(ExitStack())
        atexit.register(_extracted[0].close)
    return _extracted[0].enter_context(resources.as_file(resource))


def sample_path() -> Path:
    """The bundled sample logs (`data/sample/cases.parquet` in the repository)."""
    return _bundled("sample_cases.parquet")


def golden_set_path() -> Path:
    """The bundled golden set (`data/golden.parquet` in the repository)."""
    return _bundled("golden.parquet")
