#!/usr/bin/env bash
# Runs a command against a throwaway PostgreSQL 15 cluster in a temp dir, on a free loopback
# port, and always removes the cluster afterwards. The command sees TEST_DATABASE_URL.
# Usage: scripts/with-postgres.sh <command> [args...]
set -euo pipefail

PG_BIN=${PG_BIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)}
if [ -z "$PG_BIN" ] || [ ! -x "$PG_BIN/initdb" ]; then
  echo "with-postgres: PostgreSQL server binaries not found (apt-get install postgresql)" >&2
  exit 1
fi

dir=$(mktemp -d /tmp/sealvault-pg-XXXXXX)
chmod 755 "$dir"
port=$(node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')

as_pg() {
  if [ "$(id -u)" = "0" ]; then
    chown -R postgres:postgres "$dir"
    su postgres -s /bin/sh -c "$1"
  else
    sh -c "$1"
  fi
}

cleanup() {
  as_pg "$PG_BIN/pg_ctl -D $dir/data -m immediate -w stop" >/dev/null 2>&1 || true
  rm -rf "$dir"
}
trap cleanup EXIT INT TERM

as_pg "$PG_BIN/initdb -D $dir/data -U postgres -A trust -E UTF8 --no-sync" >"$dir/initdb.log" 2>&1 ||
  { cat "$dir/initdb.log" >&2; exit 1; }
as_pg "$PG_BIN/pg_ctl -D $dir/data -l $dir/log -w -o '-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200' start" >/dev/null ||
  { cat "$dir/log" >&2; exit 1; }

export TEST_DATABASE_URL="postgres://postgres@127.0.0.1:$port/postgres"
echo "with-postgres: PostgreSQL on 127.0.0.1:$port"
"$@"
