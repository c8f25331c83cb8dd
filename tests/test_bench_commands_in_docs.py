"""Every `bench/SCRIPT.py --option` the docs give as the command behind a figure names a script
that exists and options it takes ("every number we claim has a command that reproduces it"):
`python bench/pipeline.py ... --rss-rows 0` had been refused since the option went in 94b154a.
Read from the scripts' sources (`"--option"`), not their `--help`: no process a script."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAGES = [*sorted((ROOT / "docs").rglob("*.md")), ROOT / "README.md"]
# `code spans` (across a line break too) and fenced blocks, where the docs write commands
CODE = re.compile(r"```.*?```|(?<!`)`([^`]+)`(?!`)", re.S)
COMMAND = re.compile(r"bench/([a-z0-9_]+\.py)([^`|#\n]*(?:\n[^`|#\n]*)?)")
OPTION = re.compile(r"(?<![\w-])(--[a-z][a-z0-9-]*)")
# scripts that are gone, named as what a figure came from (the later name follows)
RENAMED = {"v4_cost.py"}
# options that are gone, each beside the commit whose script took it and today's command
GONE = {("pipeline.py", "--rss-rows")}  # performance.md: "before 94b154a", bench/memory.py


def commands(text: str) -> list[tuple[str, list[str]]]:
    """(script, options) of each `bench/SCRIPT.py ...` in the text's code, up to the next
    command, `python` or `faith` on the same command line."""
    found = []
    for code in CODE.finditer(text):
        for command in COMMAND.finditer(code.group(0)):
            rest = re.split(r"bench/|python|faith ", command.group(2))[0]
            found.append((command.group(1), OPTION.findall(rest)))
    return found


def test_the_reader_finds_a_command_broken_over_a_line() -> None:
    text = "`python bench/pipeline.py --rounds 1\n--rss-rows 0` printed; `bench/udfs.py`"
    assert commands(text) == [("pipeline.py", ["--rounds", "--rss-rows"]), ("udfs.py", [])]


def test_every_bench_command_in_the_docs_takes_the_options_given() -> None:
    wrong, seen = [], 0
    for page in PAGES:
        for script, options in commands(page.read_text()):
            path = ROOT / "bench" / script
            if not path.exists():
                if script not in RENAMED:
                    wrong.append(f"{page.relative_to(ROOT)}: bench/{script} does not exist")
                continue
            source = path.read_text()
            seen += 1
            wrong += [
                f"{page.relative_to(ROOT)}: bench/{script} takes no {option}"
                for option in options
                if f'"{option}"' not in source and (script, option) not in GONE
            ]
    assert seen > 100
    assert not wrong, "\n".join(wrong)
