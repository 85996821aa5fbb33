# The Brass server with its web client: `docker compose up` runs it with Postgres
# (see docker-compose.yml). Base images are pinned to versions, Python packages to the
# versions and hashes of requirements.lock (`make lock` updates both lock files).

# 1. the web client (TypeScript) built into static files
FROM node:20.20.2-bookworm-slim AS web
WORKDIR /src
COPY web/package.json web/package-lock.json ./web/
RUN cd web && npm ci --no-audit --no-fund
COPY data ./data
COPY web ./web
RUN cd web && npm run build

# 2. the wheel: the server, its migrations and the built client in one file
FROM python:3.11.15-slim-bookworm AS wheel
ENV PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_CACHE_DIR=1
WORKDIR /src
COPY requirements-build.lock ./
RUN pip install --require-hashes -r requirements-build.lock
COPY pyproject.toml README.md LICENSE hatch_build.py ./
COPY brass ./brass
COPY data ./data
COPY migrations ./migrations
COPY --from=web /src/web/dist ./web/dist
RUN BRASS_BUILD_WEB=0 pip wheel --no-deps --no-build-isolation -w /wheels .

# 3. the server: the locked dependencies, then the wheel
FROM python:3.11.15-slim-bookworm
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_NO_CACHE_DIR=1
COPY requirements.lock /tmp/requirements.lock
RUN pip install --require-hashes -r /tmp/requirements.lock && rm /tmp/requirements.lock
COPY --from=wheel /wheels /tmp/wheels
RUN pip install --no-deps /tmp/wheels/*.whl && rm -rf /tmp/wheels && pip check
RUN useradd --system --create-home brass && mkdir -p /app/var && chown brass /app/var
WORKDIR /app
USER brass

ENV BRASS_HOST=0.0.0.0 BRASS_PORT=8000
EXPOSE 8000
# ready: the database answers and is migrated (GET /health only says the process is up)
HEALTHCHECK --interval=10s --timeout=5s --start-period=20s --retries=5 \
  CMD python -c "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:' + os.environ.get('BRASS_PORT', '8000') + '/ready', timeout=4)"
CMD ["brass", "serve"]
