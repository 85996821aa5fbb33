# Two commands for a newcomer: `make run` (the server, embedded SQLite) and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint typecheck pytest selfplay bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/brass serve

test: lint typecheck pytest

lint: $(STAMP)
	$(BIN)/ruff check brass tests bench

typecheck: $(STAMP)
	$(BIN)/mypy brass

pytest: $(STAMP)
	$(BIN)/pytest -q

selfplay: $(STAMP)
	$(BIN)/python -m brass.engine.selfplay --players 4 --games 20 --seed 1

bench: $(STAMP)
	$(BIN)/python bench/engine.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
