"""docker-compose.yml is valid (checked with `docker compose config` or `docker-compose config`,
whichever is installed; no Docker engine needed) and has what the README and docs/HOSTING.md
promise: Postgres with a password that has no default (compose refuses to start without one)
and reaches the app unchanged whatever its characters, pinned images, the app's healthcheck on
`/ready` (never the games listing), the app after a healthy database, Caddy in front of every
app instance with deploy/Caddyfile and a fixed address the app alone trusts for forwarded
headers, and the backup service running deploy/backup.sh. What these services run is tested
with the same programs started directly: test_proxy.py (Caddy) and test_backup.py (pg_dump,
restore)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

from brass.server.settings import Settings, usable_cpus

from .conftest import repo_root

PASSWORD = "p@ss:w/rd%?#&"  # every character a database URL would trip on


def compose_command() -> list[str]:
    docker = shutil.which("docker")
    if docker and subprocess.run([docker, "compose", "version"], capture_output=True,
                                 check=False).returncode == 0:
        return [docker, "compose"]
    legacy = shutil.which("docker-compose")
    if legacy:
        return [legacy]
    missing = "neither `docker compose` nor `docker-compose` is installed"
    if os.environ.get("CI"):  # .ci/run installs Debian's docker-compose: never skipped in CI
        pytest.fail(missing)
    pytest.skip(missing)


def compose_config(**env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items()
             if not k.startswith(("POSTGRES_", "BRASS_", "BACKUP_", "COMPOSE_"))}
    return subprocess.run([*compose_command(), "-f", "docker-compose.yml", "config"],
                          cwd=repo_root(), capture_output=True, text=True, timeout=120,
                          env={**clean, **env}, check=False)


@pytest.fixture(scope="module")
def config() -> dict[str, Any]:
    done = compose_config(POSTGRES_PASSWORD=PASSWORD)
    assert done.returncode == 0, done.stderr
    parsed: dict[str, Any] = yaml.safe_load(done.stdout)
    return parsed


def environment(service: dict[str, Any]) -> dict[str, str]:
    env = service.get("environment") or {}
    if isinstance(env, list):
        env = dict(item.split("=", 1) for item in env)
    return {k: str(v).replace("$$", "$") for k, v in env.items()}


def test_no_password_no_start() -> None:
    done = compose_config()
    assert done.returncode != 0
    assert "set POSTGRES_PASSWORD" in done.stderr


def test_the_password_reaches_every_service_unchanged(config: dict[str, Any]) -> None:
    services = config["services"]
    assert environment(services["db"])["POSTGRES_PASSWORD"] == PASSWORD
    app = environment(services["app"])
    assert app["BRASS_DB_PASSWORD"] == PASSWORD and app["BRASS_DB_HOST"] == "db"
    assert "DATABASE_URL" not in app  # the app URL-encodes the parts itself (settings.py)
    assert environment(services["backup"])["PGPASSWORD"] == PASSWORD
    assert app["BRASS_METRICS_TOKEN"] == ""  # unset: /metrics answers nobody (metrics.py)


def test_images_are_pinned(config: dict[str, Any]) -> None:
    images = {name: s["image"] for name, s in config["services"].items() if "image" in s}
    assert images["db"].startswith("postgres:16.") and images["backup"] == images["db"]
    assert images["proxy"].startswith("caddy:2.")
    for image in images.values():
        tag = image.partition(":")[2]
        assert tag.count(".") >= 1, f"{image}: pin a version"


def test_the_app_waits_for_the_database_and_is_checked_on_ready(
        config: dict[str, Any]) -> None:
    app = config["services"]["app"]
    assert app["depends_on"]["db"]["condition"] == "service_healthy"
    check = " ".join(app["healthcheck"]["test"])
    assert "/ready" in check and "/api/games" not in check
    assert "pg_isready" in " ".join(config["services"]["db"]["healthcheck"]["test"])
    assert "ports" not in app  # instances (--scale app=N) are reached through the proxy
    assert "pgdata" in config["volumes"]


def test_the_proxy_fronts_every_instance_and_the_app_trusts_it_alone(
        config: dict[str, Any]) -> None:
    services = config["services"]
    proxy = services["proxy"]
    assert "profiles" not in proxy  # `docker compose up --scale app=3`: one address
    assert environment(proxy)["BRASS_SITE"] == "http://:8000"
    assert any(published(p).endswith(":8000") or published(p) == "8000"
               for p in proxy["ports"])
    sources = {mount(v)[1]: mount(v)[0] for v in proxy["volumes"]}
    assert sources["/etc/caddy/Caddyfile"].endswith("deploy/Caddyfile")
    address = proxy["networks"]["front"]["ipv4_address"]
    app = environment(services["app"])
    assert app["BRASS_PROXY_HEADERS"] == "1" and app["BRASS_FORWARDED_ALLOW_IPS"] == address
    assert environment(proxy)["BRASS_UPSTREAM"] == "app"  # every app instance, by DNS
    assert "profiles" not in services["app"] and "profiles" not in services["backup"]


def test_the_backup_service_runs_the_backup_script(config: dict[str, Any]) -> None:
    backup = config["services"]["backup"]
    assert backup["entrypoint"] == ["bash", "/deploy/backup.sh"]
    assert backup["command"] == ["loop"]
    env = environment(backup)
    assert env["PGHOST"] == "db" and env["BACKUP_DIR"] == "/backups"
    mounts = {mount(v)[1]: mount(v)[0] for v in backup["volumes"]}
    assert mounts["/backups"].endswith("/backups")
    assert mounts["/deploy"].endswith("/deploy")


def test_the_admin_page_reads_the_backups(config: dict[str, Any]) -> None:
    """The app sees the backup service's folder, read-only, where BRASS_BACKUP_DIR says."""
    app = config["services"]["app"]
    assert environment(app)["BRASS_BACKUP_DIR"] == "/backups"
    (volume,) = [v for v in app["volumes"] if mount(v)[1] == "/backups"]
    assert mount(volume)[0].endswith("/backups")
    assert volume.get("read_only") is True if isinstance(volume, dict) else \
        volume.endswith(":ro"), volume


def mount(volume: str | dict[str, Any]) -> tuple[str, str]:
    """(source, target) of a volume as either tool prints it (long or short syntax)."""
    if isinstance(volume, dict):
        return str(volume.get("source")), str(volume["target"])
    source, target = volume.split(":")[:2]
    return source, target


def test_the_example_env_file_works(tmp_path: Path) -> None:
    example = (repo_root() / "deploy" / "env.example").read_text()
    assert "\nPOSTGRES_PASSWORD=\n" in example  # no password is shipped
    env_file = tmp_path / ".env"
    env_file.write_text(example.replace("\nPOSTGRES_PASSWORD=\n",
                                        f"\nPOSTGRES_PASSWORD={PASSWORD}\n"))
    clean = {k: v for k, v in os.environ.items()
             if not k.startswith(("POSTGRES_", "BRASS_", "BACKUP_", "COMPOSE_"))}
    done = subprocess.run([*compose_command(), "--env-file", str(env_file), "-f",
                           "docker-compose.yml", "config"], cwd=repo_root(),
                          capture_output=True, text=True, timeout=120, env=clean, check=False)
    assert done.returncode == 0, done.stderr
    services = yaml.safe_load(done.stdout)["services"]
    assert environment(services["proxy"])["BRASS_SITE"] == "games.example.com"
    assert any(published(p).startswith("127.0.0.1:8000") for p in services["proxy"]["ports"])


def test_the_accounts_and_mail_settings_reach_the_app(monkeypatch: pytest.MonkeyPatch) -> None:
    """What the README's accounts section and HOSTING's e-mail notices tell a host to set, in
    .env, reaches the app (compose forwards only what it lists); left out, the app gets ""
    for each, which it reads as unset (`Settings` ignores empty variables)."""
    chosen = {"BRASS_PUBLIC_URL": "https://games.example.com", "BRASS_RP_ID": "example.com",
              "BRASS_SMTP_HOST": "smtp.example.com", "BRASS_SMTP_PORT": "465",
              "BRASS_SMTP_TLS": "tls", "BRASS_SMTP_USER": "brass",
              "BRASS_SMTP_PASSWORD": PASSWORD, "BRASS_MAIL_FROM": "Brass <games@example.com>",
              "BRASS_MAIL_DIGEST_HOUR": "6", "BRASS_PUSH_CONTACT": "mailto:me@example.com",
              "BRASS_VACATION_DAYS": "10", "BRASS_WORKERS": "2",
              "BRASS_ANALYSIS_WORKERS": "0"}
    done = compose_config(POSTGRES_PASSWORD=PASSWORD, **chosen)
    assert done.returncode == 0, done.stderr
    app = environment(yaml.safe_load(done.stdout)["services"]["app"])
    assert {k: app.get(k) for k in chosen} == chosen
    for key in chosen:
        monkeypatch.setenv(key, app[key])
    settings = Settings()
    assert (settings.public_url, settings.smtp_port, settings.smtp_tls, settings.vacation_days,
            settings.workers, settings.analysis_workers) \
        == ("https://games.example.com", 465, "tls", 10, 2, 0), settings

    unset = environment(yaml.safe_load(compose_config(POSTGRES_PASSWORD=PASSWORD).stdout)
                        ["services"]["app"])
    assert {unset[k] for k in chosen} == {""}, unset
    for key in chosen:
        monkeypatch.setenv(key, unset[key])
    defaults = Settings()
    assert (defaults.public_url, defaults.smtp_host, defaults.smtp_port,
            defaults.smtp_password, defaults.vacation_days, defaults.analysis_workers) \
        == (None, None, 587, None, 14, 1)
    assert defaults.workers == max(1, usable_cpus() - 1), defaults.workers


def test_the_hosts_other_settings_reach_the_app_and_the_proxy(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The settings docs/HOSTING.md tells a host of (logs, limits, expiries, reminders, the
    commit's durability, the proxy's header timeout) reach their service from .env; left out,
    each is its default."""
    chosen = {"BRASS_LOG_FORMAT": "json", "BRASS_LOG_LEVEL": "warning", "BRASS_JOIN_LIMIT": "5",
              "BRASS_SOCKETS_PER_ADDRESS": "7", "BRASS_SIGNIN_LIMIT": "3",
              "BRASS_WAITING_EXPIRY": "600", "BRASS_FINISHED_LISTED": "3600",
              "BRASS_CLOCK_MINIMUM": "60", "BRASS_NUDGE_AFTER": "120",
              "BRASS_REMIND_MINIMUM": "300", "BRASS_MAIL_DIGEST_EVERY": "900",
              "BRASS_BOT_BUDGET": "2", "BRASS_ANALYSIS_BUDGET": "0.25",
              "BRASS_SYNCHRONOUS_COMMIT": "0"}
    done = compose_config(POSTGRES_PASSWORD=PASSWORD, BRASS_READ_HEADER_TIMEOUT="30s", **chosen)
    assert done.returncode == 0, done.stderr
    services = yaml.safe_load(done.stdout)["services"]
    app = environment(services["app"])
    assert {k: app.get(k) for k in chosen} == chosen
    assert environment(services["proxy"])["BRASS_READ_HEADER_TIMEOUT"] == "30s"
    for key in chosen:
        monkeypatch.setenv(key, app[key])
    set_ = Settings()
    assert (set_.log_format, set_.join_limit, set_.nudge_after, set_.synchronous_commit,
            set_.analysis_budget) == ("json", 5, 120, False, 0.25), set_

    services = yaml.safe_load(compose_config(POSTGRES_PASSWORD=PASSWORD).stdout)["services"]
    unset = environment(services["app"])
    assert {unset[k] for k in chosen} == {""}, unset
    assert environment(services["proxy"])["BRASS_READ_HEADER_TIMEOUT"] == "10s"
    for key in chosen:
        monkeypatch.setenv(key, unset[key])
    for key in chosen:
        assert getattr(Settings(), key.removeprefix("BRASS_").lower()) == \
            Settings.model_fields[key.removeprefix("BRASS_").lower()].default, key


def published(port: str | dict[str, Any]) -> str:
    """host_ip:published (or published) of a port as either tool prints it."""
    if isinstance(port, str):
        return port.rsplit(":", 1)[0]
    return ":".join(str(p) for p in (port.get("host_ip"), port.get("published")) if p)
