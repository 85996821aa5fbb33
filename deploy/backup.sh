#!/usr/bin/env bash
# Backups of the Brass database with pg_dump (the compose service `backup` runs this).
#
#   backup.sh once    one dump now, then prune; exit status 0 only if the dump was written
#   backup.sh loop    a dump every BACKUP_INTERVAL seconds, for ever (the default)
#
# The database comes from the libpq settings PGHOST, PGPORT, PGUSER, PGPASSWORD, PGDATABASE.
# Dumps are pg_dump's custom format (compressed; restore with deploy/restore.sh), named
# brass-YYYYmmddTHHMMSSZ.dump in BACKUP_DIR (default /backups). A dump is written to a
# temporary name and renamed when complete, so a file with the final name is a whole dump.
# Retention: after each good dump only the newest BACKUP_KEEP dumps are kept (default 28: a
# week at the default interval of 6 hours); a failed dump never prunes anything.
# Dumps hold every seat's token hash and every chat line: they are written 0600 (and a folder
# this script makes, 0700), readable by their owner only.
set -euo pipefail
umask 077

BACKUP_DIR="${BACKUP_DIR:-/backups}"
BACKUP_KEEP="${BACKUP_KEEP:-28}"
BACKUP_INTERVAL="${BACKUP_INTERVAL:-21600}"

log() { echo "$(date -u +%Y-%m-%dT%H:%M:%SZ) backup: $*"; }

for setting in BACKUP_KEEP BACKUP_INTERVAL; do
  if ! [[ "${!setting}" =~ ^[1-9][0-9]*$ ]]; then
    log "$setting must be a whole number above 0, not '${!setting}'" >&2
    exit 2
  fi
done

dump() {
  mkdir -p "$BACKUP_DIR"
  local name partial
  name="$BACKUP_DIR/brass-$(date -u +%Y%m%dT%H%M%SZ).dump"
  partial="$name.partial"
  if ! pg_dump --format=custom --no-owner --file="$partial"; then
    rm -f "$partial"
    log "pg_dump of ${PGDATABASE:-the database} failed; nothing pruned" >&2
    return 1
  fi
  mv -f "$partial" "$name"
  log "wrote $name ($(du -h "$name" | cut -f1))"
  prune
}

prune() {
  # names sort by time; everything but the newest BACKUP_KEEP goes
  local old
  while IFS= read -r old; do
    rm -f -- "$old"
    log "pruned $old"
  done < <(find "$BACKUP_DIR" -maxdepth 1 -type f -name 'brass-*Z.dump' | sort -r \
             | tail -n +"$((BACKUP_KEEP + 1))")
}

case "${1:-loop}" in
  once) dump ;;
  loop)
    trap 'log "stopped"; exit 0' TERM INT  # as PID 1 of a container too
    log "a dump every $BACKUP_INTERVAL s into $BACKUP_DIR, keeping $BACKUP_KEEP"
    while true; do
      dump || true  # said why; the next round tries again
      sleep "$BACKUP_INTERVAL" &
      wait $!       # a stop signal ends the wait at once
    done ;;
  *) echo "usage: backup.sh [once|loop]" >&2; exit 2 ;;
esac
