# The Brass server: `docker compose up` runs it with Postgres (see docker-compose.yml).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /src
COPY pyproject.toml README.md ./
COPY brass ./brass
COPY data ./data
RUN pip install --no-cache-dir . && rm -rf /src

# the server runs `alembic upgrade head` from here at start
WORKDIR /app
COPY alembic.ini ./
COPY migrations ./migrations
RUN useradd --system --create-home brass && mkdir -p /app/var && chown brass /app/var
USER brass

ENV BRASS_HOST=0.0.0.0 BRASS_PORT=8000
EXPOSE 8000
HEALTHCHECK --interval=10s --timeout=5s --start-period=20s --retries=5 \
  CMD python -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/api/games', timeout=4)"
CMD ["brass", "serve"]
