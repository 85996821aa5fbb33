"""Alembic environment: the URL comes from the caller (`config.attributes["url"]`, set by
`brass.server.migrate`) or from the settings (`DATABASE_URL`)."""

from __future__ import annotations

from logging.config import fileConfig

from alembic import context

from brass.server.settings import Settings
from brass.server.storage import make_engine, metadata

config = context.config
if config.config_file_name is not None and not config.attributes.get("quiet"):
    fileConfig(config.config_file_name, disable_existing_loggers=False)

target_metadata = metadata
MIGRATION_LOCK = 0x62726173  # "bras": the advisory lock that serialises migrations


def _url() -> str:
    url = config.attributes.get("url")
    return str(url) if url else Settings().database_url


def run_migrations_offline() -> None:
    context.configure(url=_url(), target_metadata=target_metadata, literal_binds=True,
                      render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    engine = make_engine(_url())
    with engine.connect() as connection:
        if connection.dialect.name == "sqlite":
            # A batch migration recreates a table (copy, drop, rename): with foreign keys on,
            # dropping `games` would cascade-delete every seat and action row.
            connection.exec_driver_sql("PRAGMA foreign_keys=OFF")
            connection.commit()
        context.configure(connection=connection, target_metadata=target_metadata,
                          render_as_batch=True)
        with context.begin_transaction():
            if connection.dialect.name == "postgresql":
                # several instances starting at once on one database (compose --scale):
                # one migrates, the others wait for it, then find the database at head
                connection.exec_driver_sql(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK})")
            context.run_migrations()
    engine.dispose()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
