# The Brass server with its web client: `docker compose up` runs it with Postgres
# (see docker-compose.yml).

# 1. the web client (TypeScript) built into static files
FROM node:20-slim AS web
WORKDIR /src
COPY web/package.json web/package-lock.json ./web/
RUN cd web && npm ci --no-audit --no-fund
COPY data ./data
COPY web ./web
RUN cd web && npm run build

# 2. the server
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /src
COPY pyproject.toml README.md ./
COPY brass ./brass
COPY data ./data
RUN pip install --no-cache-dir . && rm -rf /src

# the server runs `alembic upgrade head` from here at start, and serves web/dist at /
WORKDIR /app
COPY alembic.ini ./
COPY migrations ./migrations
COPY --from=web /src/web/dist ./web/dist
RUN useradd --system --create-home brass && mkdir -p /app/var && chown brass /app/var
USER brass

ENV BRASS_HOST=0.0.0.0 BRASS_PORT=8000 BRASS_WEB_DIST=/app/web/dist
EXPOSE 8000
HEALTHCHECK --interval=10s --timeout=5s --start-period=20s --retries=5 \
  CMD python -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/api/games', timeout=4)"
CMD ["brass", "serve"]
