# Two commands for a newcomer: `make run` (the server, embedded SQLite) and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint typecheck pytest selfplay bench clean web webtest webtypes lock

# The web client (web/): installed with npm ci, built into web/dist (served by the server at /).
WEB_STAMP := web/node_modules/.package-lock.json
WEB_DIST := web/dist/index.html
WEB_SRC := $(shell find web/src web/public -type f) web/index.html web/offline.html \
	web/pwa-assets.config.ts web/vite.config.ts web/tsconfig.json \
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
	$(BIN)/ruff check brass tests bench hatch_build.py

typecheck: $(STAMP)
	$(BIN)/mypy brass

pytest: $(STAMP) $(WEB_DIST)
	$(BIN)/pytest -q

selfplay: $(STAMP)
	$(BIN)/python -m brass.engine.selfplay --players 4 --games 20 --seed 1

bench: $(STAMP)
	$(BIN)/python bench/engine.py

# The lock files the Docker image installs from (versions and hashes): requirements.lock from
# pyproject's dependencies, requirements-build.lock from its build-system requirements.
UV_COMPILE = $(BIN)/uv pip compile --universal --python-version 3.11 --generate-hashes \
	--custom-compile-command "make lock" --quiet
lock: $(STAMP)
	$(BIN)/pip install --quiet uv
	$(UV_COMPILE) pyproject.toml -o requirements.lock
	$(BIN)/python -c "import tomllib; print(*tomllib.load(open('pyproject.toml', 'rb'))\
	['build-system']['requires'], sep='\n')" | $(UV_COMPILE) - -o requirements-build.lock

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache web/node_modules web/dist
