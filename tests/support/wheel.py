"""Build faithpipe's wheel offline, from a copy of the source tree."""

from __future__ import annotations

import base64
import hashlib
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

_ANYWHERE = shutil.ignore_patterns("*.egg-info", "__pycache__", "*.duckdb*")
# What a working copy holds beside the source: the venv, caches, the docs site, the benches'
# output (a developer's bench/out reached 1 GB, and the copy took most of the test's time).
_BESIDE = {".git", ".venv", "build", "site", ".mypy_cache", ".pytest_cache", ".ruff_cache",
           ".hypothesis", "bench/out"}  # fmt: skip


def _skip(root: Path, directory: str, names: list[str]) -> set[str]:
    """What copytree leaves out of `directory` (under `root`)."""
    here = Path(directory).relative_to(root)
    beside = {name for name in names if (here / name).as_posix() in _BESIDE}
    return beside | _ANYWHERE(directory, names)


# setuptools without the `wheel` package has no bdist_wheel; then the wheel is zipped here from
# what setuptools itself selects: build_py (packages.find, package data) and egg_info (metadata).
ASSEMBLE = """
import setuptools
setuptools.setup(script_args=["-q", "build_py", "--build-lib", "lib", "egg_info", "-e", "."])
"""


def build_wheel(root: Path, work: Path) -> Path:
    """The wheel of the tree at `root`, built in `work` (the tree is copied: nothing is left
    behind in `root`)."""
    tree = work / "src"
    shutil.copytree(root, tree, ignore=lambda d, names: _skip(root, d, names))
    dist = work / "dist"
    built = _run(
        sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index",
        "--quiet", "--wheel-dir", str(dist), str(tree),
        cwd=work,
    )  # fmt: skip
    if built.returncode == 0:
        return next(dist.glob("faithpipe-*.whl"))
    assert "bdist_wheel" in built.stdout + built.stderr, built.stdout + built.stderr
    return _assemble(tree, dist)


def _run(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=180, check=False)


def _assemble(tree: Path, dist: Path) -> Path:
    done = _run(sys.executable, "-c", ASSEMBLE, cwd=tree)
    assert done.returncode == 0, done.stderr
    [egg] = tree.glob("*.egg-info")
    metadata = (egg / "PKG-INFO").read_text()
    name, version = _field(metadata, "Name"), _field(metadata, "Version")
    requires = (egg / "requires.txt").read_text().split("\n\n[")[0].split()
    head, _, body = metadata.partition("\n\n")
    head += "".join(f"\nRequires-Dist: {r}" for r in requires)
    info = f"{name}-{version}.dist-info"
    files: dict[str, bytes] = {
        path.relative_to(tree / "lib").as_posix(): path.read_bytes()
        for path in sorted((tree / "lib").rglob("*"))
        if path.is_file()
    }
    files[f"{info}/METADATA"] = f"{head}\n\n{body}".encode()
    files[f"{info}/entry_points.txt"] = (egg / "entry_points.txt").read_bytes()
    files[f"{info}/WHEEL"] = (
        b"Wheel-Version: 1.0\nGenerator: faithpipe tests\nRoot-Is-Purelib: true\n"
        b"Tag: py3-none-any\n"
    )
    record = [f"{path},sha256={_digest(data)},{len(data)}" for path, data in files.items()]
    files[f"{info}/RECORD"] = ("\n".join([*record, f"{info}/RECORD,,"]) + "\n").encode()
    dist.mkdir(parents=True, exist_ok=True)
    wheel = dist / f"{name}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w", zipfile.ZIP_DEFLATED) as out:
        for path, data in files.items():
            out.writestr(path, data)
    return wheel


def _field(metadata: str, name: str) -> str:
    return next(line.split(": ", 1)[1] for line in metadata.splitlines() if line.startswith(name))


def _digest(data: bytes) -> str:
    return base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
