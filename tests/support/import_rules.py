"""The import rules of the house (README.md, Architecture), checked on source text (AST).

Every `import` counts, at module level or inside a function. Those under `if TYPE_CHECKING:`
(no import at run time) are read too: they must point down the house like any other, and
only the libraries rule (which room may load duckdb, prefect, ...) leaves them out.
"""

from __future__ import annotations

import ast
import sys
from dataclasses import dataclass
from pathlib import Path

PACKAGES = ("faith_udfs", "schemas", "flows")
# A room may import its own modules, the rooms listed here, and the shared leaves.
ROOMS_BELOW: dict[str, set[str]] = {
    "store": set(),
    "read": {"store"},
    "judges": {"store"},
    "run": {"read", "judges", "store"},
    "engines": {"run", "read", "judges", "store"},
    "nightly": {"engines", "run", "read", "judges", "store"},
    "orchestration": {"engines", "nightly", "run", "read", "judges", "store"},
    "report": {"store"},
    "cli": {"orchestration", "engines", "nightly", "run", "read", "judges", "store", "report"},
}
# Anything may import these; they import no room.
SHARED = {
    "faith_udfs",
    "schemas",
    "flows.errors",
    "flows.allocator",
    "flows.waits",
    "flows.printable",
    "flows.scrub",
    "flows.clock",
    "flows.scratch",
    "flows",
}
# Entry points: `python -m flows` runs the CLI.
ENTRY_POINTS = {"flows.__main__"}
IO_LIBRARIES = {
    "duckdb",
    "prefect",
    "openai",
    "httpx",
    "pandera",
    "requests",
    "urllib3",
    "rich",
    "plotly",
    "sqlite3",
    "socket",
    "urllib.request",
    "http",
    "pyarrow.parquet",
}
# Only these modules may import these libraries.
LIBRARY_ROOMS = {
    "prefect": lambda module: room_of(module) == "orchestration",
    # The read room reads CSV, JSON and conversations with DuckDB's own readers, in memory.
    "duckdb": lambda module: room_of(module) in ("store", "read"),
}

# Only read/ reads the source logs (issue 21: the Dask partitioner read them itself).
MODULE_ROOMS = {"pyarrow.parquet": lambda module: room_of(module) == "read"}


@dataclass(frozen=True)
class Import:
    importer: str
    imported: str
    line: int
    type_only: bool = False  # under `if TYPE_CHECKING:`: the type checker's, not the runtime's


def module_name(root: Path, path: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def room_of(module: str) -> str | None:
    parts = module.split(".")
    if parts[0] != "flows" or len(parts) < 2 or parts[1] not in ROOMS_BELOW:
        return None
    return parts[1]


def _type_checking_only(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def imports_of(root: Path, path: Path) -> list[Import]:
    """Every module `path` imports, absolute names; `type_only` for the type checker's."""
    importer = module_name(root, path)
    package = importer if path.name == "__init__.py" else importer.rpartition(".")[0]
    found: list[Import] = []

    def visit(node: ast.AST, type_only: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _type_checking_only(child):
                for inner in child.body:
                    visit_node(inner, type_only=True)
                for inner in child.orelse:
                    visit_node(inner, type_only=type_only)
            else:
                visit_node(child, type_only=type_only)

    def visit_node(child: ast.AST, *, type_only: bool) -> None:
        if isinstance(child, ast.Import):
            found.extend(Import(importer, a.name, child.lineno, type_only) for a in child.names)
        elif isinstance(child, ast.ImportFrom):
            base = child.module or ""
            if child.level:
                anchor = package.split(".")[: len(package.split(".")) - child.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            found.append(Import(importer, base, child.lineno, type_only))
            # `from flows.run import batches` imports the module flows.run.batches
            found.extend(
                Import(importer, f"{base}.{a.name}", child.lineno, type_only)
                for a in child.names
                if (root / Path(*f"{base}.{a.name}".split("."))).with_suffix(".py").exists()
            )
        visit(child, type_only)

    visit(ast.parse(path.read_text(), filename=str(path)), type_only=False)
    return found


def all_imports(root: Path) -> list[Import]:
    found: list[Import] = []
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            found.extend(imports_of(root, path))
    return found


def _ours(module: str) -> bool:
    return module.split(".", maxsplit=1)[0] in PACKAGES


def _is_shared(module: str) -> bool:
    return (
        module in SHARED
        or module.split(".", maxsplit=1)[0] in {"faith_udfs", "schemas"}
        or any(module == s or module.startswith(s + ".") for s in SHARED - {"flows"})
    )


def _third_party(module: str) -> bool:
    top = module.split(".", maxsplit=1)[0]
    return not _ours(module) and top not in sys.stdlib_module_names


def broken_rules(root: Path) -> list[str]:
    """Each forbidden import as one line: `importer:line imports imported (rule)`."""
    problems: list[str] = []
    imports = all_imports(root)
    for imp in imports:
        kind = "imports (for types)" if imp.type_only else "imports"
        where = f"{imp.importer}:{imp.line} {kind} {imp.imported}"
        top = imp.importer.split(".")[0]
        lib = imp.imported.split(".")[0]
        if lib in LIBRARY_ROOMS and not imp.type_only and not LIBRARY_ROOMS[lib](imp.importer):
            problems.append(f"{where} (only its own room may import {lib})")
        if (
            top == "flows"
            and imp.imported in MODULE_ROOMS
            and not imp.type_only
            and not MODULE_ROOMS[imp.imported](imp.importer)
        ):
            problems.append(f"{where} (only read/ reads Parquet sources)")
        if top == "faith_udfs":
            io = {imp.imported, lib} & IO_LIBRARIES
            if io or (_ours(imp.imported) and lib != "faith_udfs"):
                problems.append(f"{where} (faith_udfs is pure: polars, pyarrow, numpy, stdlib)")
            # numpy: pure arrays too, a dependency every process loads (pyarrow, DuckDB's UDFs)
            if _third_party(imp.imported) and lib not in {"polars", "pyarrow", "numpy"}:
                problems.append(f"{where} (faith_udfs is pure: polars, pyarrow, numpy, stdlib)")
        if top == "schemas" and _ours(imp.imported) and lib not in {"schemas", "faith_udfs"}:
            problems.append(f"{where} (schemas imports no flows)")
        if top != "flows" or not _ours(imp.imported) or imp.importer in ENTRY_POINTS:
            continue
        if _is_shared(imp.imported):
            continue
        source, target = room_of(imp.importer), room_of(imp.imported)
        if source is None:
            problems.append(f"{where} (a shared module imports no room)")
        elif target is None:
            problems.append(f"{where} (not a module of a room)")
        elif target != source and target not in ROOMS_BELOW.get(source, set()):
            problems.append(f"{where} ({source} may not import {target})")
    problems.extend(f"import cycle: {' -> '.join(c)}" for c in cycles(imports))
    return problems


def cycles(imports: list[Import]) -> list[list[str]]:
    """Strongly connected groups of more than one module among our own modules."""
    graph: dict[str, set[str]] = {}
    modules = {i.importer for i in imports}
    for imp in imports:
        if imp.imported in modules and imp.imported != imp.importer:
            # importing a package's submodule runs the package's __init__ first
            graph.setdefault(imp.importer, set()).add(imp.imported)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def strongconnect(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in graph.get(node, ()):
            if nxt not in index:
                strongconnect(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            strongconnect(node)
    return found
