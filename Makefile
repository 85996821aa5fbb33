# Two commands for a newcomer: `make run` (the server, embedded SQLite) and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint typecheck pytest selfplay bench clean web webtest webtypes

# The web client (web/): installed with npm ci, built into web/dist (served by the server at /).
WEB_STAMP := web/node_modules/.package-lock.json
WEB_DIST := web/dist/index.html
WEB_SRC := $(shell find web/src -type f) web/index.html web/vite.config.ts web/tsconfig.json \
	web/package.json data/board.json data/links.json data/tiles.json

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

$(WEB_STAMP): web/package.json web/package-lock.json
	cd web && npm ci --no-audit --no-fund
	touch $(WEB_STAMP)

$(WEB_DIST): $(WEB_STAMP) $(WEB_SRC)
	cd web && npm run build

web: $(WEB_DIST)

webtest: $(WEB_STAMP)
	cd web && npm test

webtypes: $(STAMP) $(WEB_STAMP)
	cd web && PYTHON=$(CURDIR)/$(BIN)/python npm run check:api

run: $(STAMP) $(WEB_DIST)
	$(BIN)/brass serve

test: lint typecheck webtest webtypes pytest

lint: $(STAMP)
	$(BIN)/ruff check brass tests bench

typecheck: $(STAMP)
	$(BIN)/mypy brass

pytest: $(STAMP) $(WEB_DIST)
	$(BIN)/pytest -q

selfplay: $(STAMP)
	$(BIN)/python -m brass.engine.selfplay --players 4 --games 20 --seed 1

bench: $(STAMP)
	$(BIN)/python bench/engine.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache web/node_modules web/dist
