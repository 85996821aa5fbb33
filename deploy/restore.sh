#!/usr/bin/env bash
# Restore a dump made by deploy/backup.sh into the database given by the libpq settings
# (PGHOST, PGPORT, PGUSER, PGPASSWORD, PGDATABASE), replacing what that database holds.
#
#   restore.sh /backups/brass-20260101T000000Z.dump
#
# Refused (exit 3, nothing changed) while a Brass app instance is connected to that database:
# a running instance holds its games in memory and would go on serving versions the restore
# removed. Each instance holds a connection named `brass-fanout <instance>` for its whole life
# (fanout.py; `brass-moves <instance>` too once it writes moves): stop them first
# (docker compose stop app), restore, then start them (docker compose start app): at start
# they replay the games from the restored database. Instances that are stopping get
# RESTORE_WAIT seconds (default 10) to be gone before the restore is refused.
set -euo pipefail

if [ $# -ne 1 ] || [ ! -f "$1" ]; then
  echo "usage: restore.sh DUMP  (a file written by backup.sh)" >&2
  exit 2
fi
: "${PGDATABASE:?set PGDATABASE (and PGHOST, PGUSER, PGPASSWORD)}"

wait_for="${RESTORE_WAIT:-10}"
if ! [[ "$wait_for" =~ ^[0-9]+$ ]]; then
  echo "restore.sh: RESTORE_WAIT must be a whole number of seconds, not '$wait_for'" >&2
  exit 2
fi

connected() {  # the Brass instances connected to the database, one a line
  psql --no-psqlrc --quiet --tuples-only --no-align -v ON_ERROR_STOP=1 --command \
    "SELECT DISTINCT substr(application_name, strpos(application_name, ' ') + 1)
       FROM pg_stat_activity
      WHERE datname = current_database() AND pid <> pg_backend_pid()
        AND application_name ~ '^brass-(main|fanout|moves) '
      ORDER BY 1"
}

instances=$(connected)
for _ in $(seq "$wait_for"); do
  [ -z "$instances" ] && break
  sleep 1
  instances=$(connected)
done
if [ -n "$instances" ]; then
  count=$(printf '%s\n' "$instances" | wc -l)
  echo "restore.sh: refused: $count Brass app instance(s) connected to ${PGDATABASE}" \
       "($(printf '%s\n' "$instances" | paste -sd, - | sed 's/,/, /g')); they would go on" \
       "serving games the restore replaces. Stop them first (docker compose stop app)," \
       "restore, then start them (docker compose start app). Nothing was changed." >&2
  exit 3
fi
pg_restore --clean --if-exists --no-owner --exit-on-error --single-transaction \
  --dbname="$PGDATABASE" "$1"
echo "restored $1 into ${PGDATABASE}"
