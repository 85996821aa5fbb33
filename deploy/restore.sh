#!/usr/bin/env bash
# Restore a dump made by deploy/backup.sh into the database given by the libpq settings
# (PGHOST, PGPORT, PGUSER, PGPASSWORD, PGDATABASE), replacing what that database holds.
# Stop the app first (docker compose stop app) and start it after: it replays the games.
#
#   restore.sh /backups/brass-20260101T000000Z.dump
set -euo pipefail

if [ $# -ne 1 ] || [ ! -f "$1" ]; then
  echo "usage: restore.sh DUMP  (a file written by backup.sh)" >&2
  exit 2
fi
pg_restore --clean --if-exists --no-owner --exit-on-error --single-transaction \
  --dbname="${PGDATABASE:?set PGDATABASE (and PGHOST, PGUSER, PGPASSWORD)}" "$1"
echo "restored $1 into ${PGDATABASE}"
