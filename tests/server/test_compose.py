"""docker-compose.yml is valid (checked with `docker compose config` or `docker-compose config`,
whichever is installed; no Docker engine needed) and has what the README promises: the app and
Postgres, a healthcheck, the app starting after a healthy database, a named volume, port 8000."""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest

from .conftest import repo_root


def compose_command() -> list[str] | None:
    docker = shutil.which("docker")
    if docker and subprocess.run([docker, "compose", "version"], capture_output=True,
                                 check=False).returncode == 0:
        return [docker, "compose"]
    legacy = shutil.which("docker-compose")
    return [legacy] if legacy else None


def test_docker_compose_config_is_valid() -> None:
    command = compose_command()
    if command is None:  # .ci/run installs Debian's docker-compose: never skipped in CI
        missing = "neither `docker compose` nor `docker-compose` is installed"
        if os.environ.get("CI"):
            pytest.fail(missing)
        pytest.skip(missing)
    done = subprocess.run([*command, "-f", "docker-compose.yml", "config"], cwd=repo_root(),
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    config = done.stdout
    for expected in ["app:", "db:", "image: postgres", "healthcheck:", "pg_isready",
                     "condition: service_healthy", "pgdata:", "8000",
                     "DATABASE_URL: postgresql+psycopg://"]:
        assert expected in config, expected
