"""Server configuration from the environment (pydantic-settings).

Each field is one setting, read from `BRASS_<NAME>` (the database also from `DATABASE_URL`);
`brass serve --help` lists them from these fields, with their variables and defaults, and
takes each as an option too (`--bot-delay 0`). A new setting needs only a field here, with a
`description` (and `json_schema_extra={"default_help": ...}` when its default is computed).

Behind a reverse proxy (docs/HOSTING.md): `BRASS_PROXY_HEADERS=1` makes `brass serve` take the
client address and scheme from `X-Forwarded-For`/`-Proto`, trusted only from
`BRASS_FORWARDED_ALLOW_IPS` (the proxy's addresses or networks, comma-separated). Instead of
`DATABASE_URL`, `BRASS_DB_HOST` (with `BRASS_DB_PORT`, `BRASS_DB_USER`, `BRASS_DB_PASSWORD`,
`BRASS_DB_NAME`) gives the Postgres database in parts: any password works, it is URL-encoded.

Secrets (`db_password`, `metrics_token`: `SECRET` in their field) are never command-line
options, which every user of the machine can read in the process list: they come from their
variable, or from a file named by `<variable>_FILE` (`BRASS_DB_PASSWORD_FILE=/run/secrets/db`,
as compose and Kubernetes mount secrets; its last newline is dropped); the variable wins.
A variable set to "" is unset everywhere (compose passes one its .env leaves out so).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, get_args

from pydantic import AliasChoices, Field, SecretStr, field_validator, model_validator
from pydantic.fields import FieldInfo
from pydantic_settings import BaseSettings, PydanticBaseSettingsSource, SettingsConfigDict
from sqlalchemy import URL

DEFAULT_SQLITE = "sqlite:///" + str(Path("var") / "brass.db")
PACKAGE = Path(__file__).resolve().parents[1]
LogLevel = Literal["critical", "error", "warning", "info", "debug"]
LogFormat = Literal["text", "json"]
SECRET: dict[str, Any] = {"secret": True}  # json_schema_extra: env or file only, no option


class Settings(BaseSettings):
    # a variable set to "" is unset: compose passes each variable it forwards, "" when the
    # host's .env leaves it out (docker-compose.yml)
    model_config = SettingsConfigDict(env_prefix="BRASS_", extra="ignore",
                                      populate_by_name=True, env_ignore_empty=True)

    database_url: str = Field(
        default=DEFAULT_SQLITE,
        validation_alias=AliasChoices("DATABASE_URL", "BRASS_DATABASE_URL"),
        description="the database: postgresql://user:password@host:5432/db or "
                    "sqlite:///path/to/file.db (a password on the command line shows to every "
                    "user of the machine: give the URL in the environment, or the BRASS_DB_* "
                    "parts with BRASS_DB_PASSWORD_FILE)")
    host: str = Field(default="127.0.0.1", description="the address the server listens on")
    port: int = Field(default=8000, ge=1, le=65535, description="the port it listens on")
    bot_delay: float = Field(default=0.5, ge=0.0, le=60.0,
                             description="seconds a bot waits before it moves")
    bot_budget: float = Field(default=1.0, ge=0.05, le=60.0,
                              description="seconds of wall clock a medium or hard bot thinks "
                                          "per move (medium takes a quarter)")
    analysis_budget: float = Field(default=0.5, ge=0.01, le=60.0,
                                   description="CPU seconds the analysis of a finished game "
                                               "spends on each move")
    analysis_workers: int = Field(
        default=1, ge=0, le=16,
        description="processes that compute analyses, at the lowest CPU priority so bot "
                    "moves keep their pace (0: in the server process)")
    analysis_jobs: int = Field(
        default=2, ge=1, le=1000,
        description="analyses under way at once on the whole server (every instance): "
                    "more are refused with 429 and Retry-After")
    analysis_per_address: int = Field(
        default=1, ge=1, le=1000,
        description="analyses under way at once started from one client address")
    workers: int = Field(
        default_factory=lambda: max(1, usable_cpus() - 1), ge=0, le=64,
        description="processes that compute bot moves, previews and replay frames (0: in "
                    "the server process)", json_schema_extra={"default_help": "usable CPUs - 1"})
    synchronous_commit: bool = Field(
        default=True,
        description="on Postgres, acknowledge a move only once it is flushed to disk (off: "
                    "Postgres flushes it within a second; where flushes are slow, moves are "
                    "answered sooner, but a crash of Postgres or its machine may lose the "
                    "last moves; a crash of this server loses none)")
    notify_after_commit: bool = Field(
        default=False,
        description="on Postgres, tell the other instances of a move after it has committed "
                    "(many at once) rather than in its own transaction: commits that notify "
                    "wait for each other's disk flush; a notification still waiting when this "
                    "server dies is not sent (the move is kept; the others see it with the "
                    "game's next; docs/OWNERSHIP.md)")
    gc_full_every: float = Field(
        default=900.0, ge=1.0,
        description="seconds between full garbage collections, the one long pause (about "
                    "0.5 s with 1,000 live games); young objects are collected every 0.1 s")
    instance_report_every: float = Field(
        default=15.0, gt=0.0,
        description="seconds between this instance's writes of its figures for the admin "
                    "page's list of instances; one silent for three is listed as such")
    web_dist: Path | None = Field(
        default_factory=lambda: default_web_dist(),
        description="the built web client (a folder with index.html), served at /",
        json_schema_extra={"default_help": "the one in the package, else web/dist"})
    join_limit: int = Field(
        default=30, ge=0,
        description="games created plus seats joined per minute per client address "
                    "(0: no limit)")
    waiting_expiry: float = Field(
        default=86_400.0, ge=0.0,
        description="seconds a waiting game nobody joins stays open (0: never expires)")
    finished_listed: float = Field(
        default=604_800.0, ge=0.0,
        description="seconds a finished game stays in the listing (0: for ever); it stays "
                    "reachable by id")
    clock_minimum: float = Field(
        default=30.0, ge=1.0, le=86_400.0,
        description="the shortest turn clock, live reserve or hand-over time (seconds) a game "
                    "may be created with")
    public_url: str | None = Field(
        default=None, pattern=r"^https?://[^/?#\s]+$",
        description="the site's own origin as browsers see it (https://brass.example): "
                    "writes made with the player cookie must come from it, and an https one "
                    "marks the cookie Secure; unset, the origin of each request (its Host "
                    "header and scheme) is the site's")
    signin_limit: int = Field(
        default=20, ge=0,
        description="sign-in requests (e-mail links asked, passkey sign-ins begun) per minute "
                    "per client address (0: no limit); e-mail links are also limited per "
                    "address and per account")
    rp_id: str | None = Field(
        default=None, pattern=r"^[a-z0-9.-]+$",
        description="the site's name for passkeys (WebAuthn relying-party id): its host name "
                    "or a parent domain of it (default: public_url's host); passkeys are "
                    "offered only when public_url is set, and need HTTPS but on localhost")
    smtp_host: str | None = Field(
        default=None, description="the mail server for sign-in links; unset, e-mail sign-in "
                                  "is not offered")
    smtp_port: int = Field(default=587, ge=1, le=65535, description="the mail server's port")
    smtp_tls: Literal["starttls", "tls", "none"] = Field(
        default="starttls", description="starttls (port 587), tls (port 465) or none (a "
                                        "local relay only)")
    smtp_user: str | None = Field(default=None, description="the mail server's user name")
    smtp_password: SecretStr | None = Field(
        default=None, json_schema_extra=SECRET, description="the mail server's password")
    mail_from: str | None = Field(
        default=None, description="the sender of sign-in links (Brass <brass@example.org>)")
    push_contact: str | None = Field(
        default=None, pattern=r"^(mailto:[^\s@]+@[^\s@]+|https://[^/?#\s]+)$",
        description="who push services may contact about this server's notices (the VAPID "
                    "subject: mailto:you@example.org or https://brass.example)",
        json_schema_extra={"default_help": "public_url if https, else mailto:brass@localhost"})
    push_private_endpoints: bool = Field(
        default=False,
        description="allow push subscriptions at http, private, loopback or link-local "
                    "addresses (a push service stand-in in tests; never on a public server)")
    remind_minimum: float = Field(
        default=600.0, ge=1.0, le=86_400.0,
        description="turns shorter than this (seconds) get no clock reminders (a short live "
                    "game's player is at the table)")
    nudge_after: float = Field(
        default=3600.0, ge=0.0, le=7 * 86_400.0,
        description="seconds a player's turn must have lasted before another player may nudge "
                    "them (a player who just got the turn is thinking, not away)")
    vacation_days: int = Field(
        default=14, ge=0, le=366,
        description="vacation days each player may take per calendar year, which stop "
                    "their correspondence clocks (0: no vacations)")
    webhook_private_addresses: bool = Field(
        default=False,
        description="allow game webhooks at http, private, loopback or link-local addresses "
                    "(a receiver on loopback in tests; never on a public server)")
    mail_digest_hour: int = Field(
        default=7, ge=0, le=23,
        description="the hour (UTC) from which the day's e-mail digest is sent to the players "
                    "who asked for it")
    mail_digest_every: float = Field(
        default=600.0, ge=0.1, le=86_400.0,
        description="seconds between two looks for digests due (each instance looks; the "
                    "database gives each player's digest of the day to one)")
    log_level: LogLevel = Field(default="info", description="the least severe level logged")
    log_format: LogFormat = Field(
        default="text", description="text: one readable line per event; json: one JSON "
                                    "object per line")
    sockets_per_address: int = Field(
        default=20, ge=0, le=100_000,
        description="open websockets per client address (0: no limit)")
    hello_timeout: float = Field(
        default=10.0, gt=0.0, le=300.0,
        description="seconds a new websocket has to say hello")
    request_timeout: float = Field(
        default=10.0, gt=0.0, le=300.0,
        description="seconds a client has to send a whole HTTP request, headers and body")
    proxy_headers: bool = Field(
        default=False, description="take the client address and scheme from X-Forwarded-For "
                                   "and -Proto, sent by a proxy in forwarded_allow_ips")
    forwarded_allow_ips: str = Field(
        default="127.0.0.1", description="the reverse proxy's addresses or networks, "
                                         "comma-separated: only they may set forwarded headers")
    backup_dir: Path = Field(
        default=Path("/backups"),
        description="the folder deploy/backup.sh writes its dumps to, as this server sees it "
                    "(compose mounts ./backups there, read-only): the admin page shows the "
                    "newest dump's time and size; absent: \"no backup folder\"")
    metrics_token: SecretStr | None = Field(
        default=None, min_length=16, json_schema_extra=SECRET,
        description="the bearer token /metrics asks for (Authorization: Bearer ..., 16 "
                    "characters or more); unset, /metrics answers nobody")
    db_host: str | None = Field(
        default=None, description="the Postgres host, instead of database_url: the database "
                                  "from db_host, db_port, db_user, db_password, db_name")
    db_port: int = Field(default=5432, ge=1, le=65535, description="the Postgres port")
    db_user: str = Field(default="brass", description="the Postgres user")
    db_password: SecretStr | None = Field(
        default=None, json_schema_extra=SECRET,
        description="the Postgres password (any characters: it is URL-encoded)")
    db_name: str = Field(default="brass", description="the Postgres database")

    @classmethod
    def settings_customise_sources(
            cls, settings_cls: type[BaseSettings], init_settings: PydanticBaseSettingsSource,
            env_settings: PydanticBaseSettingsSource, dotenv_settings: PydanticBaseSettingsSource,
            file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        return (init_settings, env_settings, SecretFiles(settings_cls), dotenv_settings,
                file_secret_settings)

    @field_validator("database_url")
    @classmethod
    def _normalise_url(cls, url: str) -> str:
        return normalise_database_url(url)

    @model_validator(mode="after")
    def _database_from_parts(self) -> Settings:
        if self.db_host:
            if "database_url" in self.model_fields_set:
                raise ValueError("set DATABASE_URL or BRASS_DB_HOST, not both")
            self.database_url = URL.create(
                "postgresql+psycopg", username=self.db_user,
                password=self.db_password.get_secret_value() if self.db_password else None,
                host=self.db_host, port=self.db_port, database=self.db_name,
            ).render_as_string(hide_password=False)
        return self

    @field_validator("web_dist")
    @classmethod
    def _built_client(cls, folder: Path | None) -> Path | None:
        if folder is not None and not (folder / "index.html").is_file():
            raise ValueError(f"{folder} has no index.html: build the client with `make web` "
                             "(or cd web && npm ci && npm run build)")
        return folder

    @field_validator("log_level", "log_format", mode="before")
    @classmethod
    def _lower(cls, value: Any) -> Any:
        return value.lower() if isinstance(value, str) else value


CGROUP = Path("/sys/fs/cgroup")


def usable_cpus(cgroup: Path = CGROUP, membership: Path = Path("/proc/self/cgroup")) -> int:
    """The CPUs this process may use: those it may run on (affinity), fewer where its cgroup's
    CPU quota allows less (a container's `--cpus`, Kubernetes' CPU limit), rounded up.
    `os.cpu_count()` counts the host's CPUs: a container with 2 of 64 would start 63 workers."""
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (
        os.cpu_count() or 1)
    quota = cgroup_quota(cgroup, membership)
    return max(1, min(cpus, quota)) if quota is not None else cpus


def cgroup_quota(cgroup: Path, membership: Path) -> int | None:
    """CPUs the cgroup's quota allows, rounded up (None: no quota, or no cgroup found):
    cgroup v2's `cpu.max` ("200000 100000": 2 CPUs; "max ...": none) in this process's own
    group, else at the mount's root (a container's namespace); cgroup v1's
    `cpu/cpu.cfs_quota_us` over `cpu.cfs_period_us` (-1: none)."""
    own = None
    try:
        for line in membership.read_text().splitlines():
            if line.startswith("0::"):
                own = cgroup / line[3:].lstrip("/")
    except OSError:
        pass
    places: list[tuple[Path, Path | None]] = [
        (folder / "cpu.max", None) for folder in (own, cgroup) if folder is not None]
    places.append((cgroup / "cpu" / "cpu.cfs_quota_us", cgroup / "cpu" / "cpu.cfs_period_us"))
    for quota_file, period_file in places:
        try:
            if period_file is None:
                quota, _, period = quota_file.read_text().strip().partition(" ")
            else:
                quota, period = quota_file.read_text().strip(), period_file.read_text().strip()
        except OSError:
            continue
        if quota in ("max", "-1") or not quota.isdigit() or not period.isdigit():
            return None
        return max(1, -(-int(quota) // max(1, int(period))))
    return None


class SecretFileError(ValueError):
    """A secret's `_FILE` cannot be read (launch.py says so in one line)."""


class SecretFiles(PydanticBaseSettingsSource):
    """Each secret setting from the file its `<variable>_FILE` names, if it names one."""

    def get_field_value(self, field: FieldInfo, field_name: str) -> tuple[Any, str, bool]:
        return None, field_name, False  # __call__ reads every secret at once

    def __call__(self) -> dict[str, Any]:
        found: dict[str, Any] = {}
        for name, field in self.settings_cls.model_fields.items():
            variable = f"{env_of(name, field)}_FILE"
            path = os.environ.get(variable)
            if not is_secret(field) or not path:
                continue
            try:
                found[name] = Path(path).read_text(encoding="utf-8").removesuffix("\n")
            except (OSError, UnicodeDecodeError) as exc:
                raise SecretFileError(f"bad setting {variable}={path!r}: cannot read it "
                                      f"({type(exc).__name__}: {exc})") from None
        return found


def is_secret(field: FieldInfo) -> bool:
    extra = field.json_schema_extra
    return isinstance(extra, dict) and bool(extra.get("secret"))


def env_of(name: str, field: FieldInfo) -> str:
    """A setting's environment variable (its first alias, else `BRASS_<NAME>`)."""
    alias = field.validation_alias
    if isinstance(alias, AliasChoices):
        return str(alias.choices[0])
    return f"{Settings.model_config.get('env_prefix', '')}{name}".upper()


def default_web_dist() -> Path | None:
    """The built client: in the installed package (`brass/_web`), else the checkout's
    `web/dist`; None when neither is built."""
    for folder in (PACKAGE / "_web", PACKAGE.parent / "web" / "dist"):
        if (folder / "index.html").is_file():
            return folder
    return None


def normalise_database_url(url: str) -> str:
    """Accept the usual spellings (`postgres://`, `postgresql://`) and pick the psycopg 3
    driver; refuse anything that is neither Postgres nor SQLite."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    if url.startswith(("postgresql+psycopg://", "sqlite://")):
        return url
    raise ValueError("DATABASE_URL must be a postgresql:// or sqlite:// URL")


@dataclass(frozen=True)
class SettingInfo:
    """One setting as the command line shows it."""

    name: str
    env: str
    default: str
    description: str
    choices: tuple[str, ...] | None
    secret: bool  # from the environment or a file only (no command-line option)


def setting_infos() -> list[SettingInfo]:
    out = []
    for name, field in Settings.model_fields.items():
        env = env_of(name, field)
        extra = field.json_schema_extra if isinstance(field.json_schema_extra, dict) else {}
        default = str(extra.get("default_help", field.default))
        choices = get_args(field.annotation) if _is_literal(field.annotation) else None
        out.append(SettingInfo(name=name, env=env, default=default,
                               description=field.description or "", choices=choices,
                               secret=is_secret(field)))
    return out


def _is_literal(annotation: Any) -> bool:
    return getattr(annotation, "__origin__", None) is Literal


def env_name(field: str) -> str:
    """The environment variable of a setting (`port` -> `BRASS_PORT`)."""
    return next(info.env for info in setting_infos() if info.name == field)
