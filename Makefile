# Magic Football Online — the two commands of the README, plus a few for development.
#
#   make run     venv (if missing) → install → migrate → load catalog → daphne on http://$(HOST):$(PORT)/
#   make test    dev extras into the same venv → the whole pytest suite, in parallel processes; it ends
#                with the 25 slowest tests and the total time
#
# Configuration is by environment variables only (README, "Configuration").

SHELL := /bin/bash
.DEFAULT_GOAL := run

PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000
PYTEST_ARGS ?=
# Test processes (pytest-xdist): each has its own SQLite, PostgreSQL databases, Redis database, ports and
# browsers (tests/conftest.py). The long tests are handed out first (tests/conftest.py), one at a time.
TEST_WORKERS ?= auto
PYTEST_RUN = $(BIN)/python -m pytest -n $(TEST_WORKERS) --dist load --durations=25

# Stamp files: the install re-runs only when pyproject.toml changed (quick `make run` the second time).
STAMP_RUN := $(VENV)/.installed-run
STAMP_DEV := $(VENV)/.installed-dev

# Benchmarks run in this order: add yours to the list (e.g. `BENCH_SCRIPTS += bench/fanout.py`). Listed files
# that do not exist are skipped; any other bench/*.py runs after the listed ones, in name order.
BENCH_SCRIPTS :=
BENCH_SCRIPTS += bench/bots.py bench/realtime.py bench/scale.py
BENCH_ALL = $(BENCH_SCRIPTS) $(filter-out $(BENCH_SCRIPTS),$(sort $(wildcard bench/*.py)))

# Files scanned for translatable text (everything but the venv, vendored/static files and tests).
MESSAGES_IGNORE := -i '.venv/*' -i 'static/*' -i 'staticfiles/*' -i 'tests/*' -i 'bench/*' -i 'docs/*'

.PHONY: run test soak flaky lint bench peer bench-peer messages clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP_RUN): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	@touch $@

$(STAMP_DEV): pyproject.toml $(STAMP_RUN)
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	@touch $@

run: $(STAMP_RUN)
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py load_catalog
	@echo "Magic Football Online: http://$(if $(findstring :,$(HOST)),[$(HOST)],$(HOST)):$(PORT)/"
	exec $(BIN)/daphne -b $(HOST) -p $(PORT) magicfootball.asgi:application

test: $(STAMP_DEV)
	$(PYTEST_RUN) $(PYTEST_ARGS)

# The full sweeps (every seeded tournament, ten times the Hypothesis examples; tests/sweep.py): what CI
# samples. Its last result is recorded in docs/RELIABILITY.md with the machine's details.
soak: $(STAMP_DEV)
	MFT_SOAK=1 $(PYTEST_RUN) $(PYTEST_ARGS)

# The browser and real-time groups ROUNDS times in a row (default 5) with both cores kept busy by two
# `yes`: a test that waits for time instead of for what the user sees fails here (tests/flaky_check.sh).
flaky: $(STAMP_DEV)
	PYTHON=$(BIN)/python bash tests/flaky_check.sh

lint: $(STAMP_DEV)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

bench: $(STAMP_DEV)
	@set -e; for script in $(BENCH_ALL); do \
	  if [ -f "$$script" ]; then echo "== $$script"; $(BIN)/python "$$script"; \
	  else echo "== $$script (not there, skipped)"; fi; \
	done

# Real time against boardgame.io, back to back in one run: ../shared/bench-peer/run.sh 50 and 200 and ours
# (daphne and uvicorn; 8 seats + 50 / 200 spectators, Redis layer), interleaved over 3 rounds; prints ours /
# peer for p50 and p99 (medians) and appends docs/PERFORMANCE.md.
peer bench-peer: $(STAMP_DEV)
	$(BIN)/python bench/realtime.py --spectators 50 200 --rounds 3 --no-floor

# Every translated language (settings.LANGUAGES minus the English source): one command keeps them all current.
MESSAGES_LANGS := nl de es

messages: $(STAMP_DEV)
	$(BIN)/python manage.py makemessages $(addprefix -l ,$(MESSAGES_LANGS)) --no-location --no-wrap $(MESSAGES_IGNORE)
	$(BIN)/python manage.py compilemessages $(addprefix -l ,$(MESSAGES_LANGS)) -i '.venv'

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .ruff_cache .hypothesis
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
