# Two commands for a newcomer: `make run` (the server, embedded SQLite) and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint typecheck pytest selfplay bench clean web webtest webtypes lock lowest

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

# `make run` needs the server only: its own venv with pyproject's dependencies, no test or
# lint tools (the dev venv above has those too)
RUN_VENV := .venv-run
RUN_STAMP := $(RUN_VENV)/.installed
$(RUN_STAMP): pyproject.toml
	$(PYTHON) -m venv $(RUN_VENV)
	$(RUN_VENV)/bin/pip install --quiet --upgrade pip
	$(RUN_VENV)/bin/pip install --quiet -e .
	touch $(RUN_STAMP)

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

run: $(RUN_STAMP) $(WEB_DIST)
	$(RUN_VENV)/bin/brass serve

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

# The lowest versions pyproject.toml allows (uv's lowest-direct resolution: each dependency at
# its floor) in a venv of their own, and the server tests that reach each of them there:
# FastAPI, Starlette and pydantic (test_api), uvicorn and websockets (test_hardening,
# test_websocket, test_ops), pydantic-settings (test_db_settings), SQLAlchemy, Alembic and
# psycopg (test_migrations, and every test on Postgres), orjson (test_import_check), aiosmtplib,
# aiosmtpd and webauthn (test_accounts), openskill (test_ratings), pywebpush and aiohttp
# (test_push).
LOWEST := .venv-lowest
LOWEST_TESTS := tests/server/test_api.py tests/server/test_hardening.py \
	tests/server/test_websocket.py tests/server/test_ops.py tests/server/test_db_settings.py \
	tests/server/test_migrations.py tests/server/test_import_check.py tests/server/test_accounts.py \
	tests/server/test_ratings.py tests/server/test_push.py
lowest: $(STAMP) $(WEB_DIST)
	$(BIN)/pip install --quiet uv
	rm -rf $(LOWEST)
	$(BIN)/uv venv --quiet --python $(PYTHON) $(LOWEST)
	VIRTUAL_ENV=$(CURDIR)/$(LOWEST) $(BIN)/uv pip install --quiet --resolution lowest-direct \
		-e '.[test]'
	$(LOWEST)/bin/python -m pytest -q -p no:cacheprovider $(LOWEST_TESTS)

clean:
	rm -rf $(VENV) $(RUN_VENV) $(LOWEST) .pytest_cache .mypy_cache .ruff_cache web/node_modules web/dist
