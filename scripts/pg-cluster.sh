#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the tests of the server's PostgreSQL store.
#
#   eval "$(scripts/pg-cluster.sh start)"    # prints the two export lines below, nothing else on stdout
#   scripts/pg-cluster.sh stop [DIR]         # stops it and deletes DIR (default: $GRIDARENA_TEST_PG_DIR)
#
# `start` runs initdb into a fresh directory under $TMPDIR (or /tmp), then postgres with its unix socket in
# that directory and a TCP listener on 127.0.0.1 at a free port, trust authentication for the `postgres`
# role, and fsync=off (speed; a crash of this cluster loses nothing anyone keeps). It prints
#   export GRIDARENA_TEST_PG='postgresql://postgres@/postgres?host=DIR&port=PORT'
#   export GRIDARENA_TEST_PG_DIR='DIR'
# The tests (crates/server/src/store/testing.rs) make one database per test on it. initdb and postgres
# refuse to run as root, so as root they run as the `postgres` user (Debian's package makes it). Installs
# Debian's `postgresql` first when its binaries are missing, as scripts/setup.sh does for other packages.
set -euo pipefail

say() { printf '==> %s\n' "$*" >&2; }
apt_install() {
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$@" >&2
}
bin_dir() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1; }
as_postgres() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

start() {
  local bin dir port tries
  bin=$(bin_dir)
  if [ -z "$bin" ] || [ ! -x "$bin/initdb" ]; then
    say "installing PostgreSQL (Debian package)"
    apt_install postgresql
    bin=$(bin_dir)
  fi
  dir=$(mktemp -d "${TMPDIR:-/tmp}/gridarena-pg.XXXXXX")
  [ "$(id -u)" -ne 0 ] || chown postgres:postgres "$dir"
  if ! as_postgres "$bin/initdb" -D "$dir/data" -U postgres --auth=trust --no-sync -E UTF8 --locale=C \
      >"$dir/initdb.log" 2>&1; then
    cat "$dir/initdb.log" >&2
    rm -rf "$dir"
    exit 1
  fi
  # A port nothing answers on; if postgres still cannot bind it (taken meanwhile), try another.
  for tries in 1 2 3 4 5; do
    port=$(shuf -i 20000-60000 -n 1)
    if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then continue; fi
    if as_postgres "$bin/pg_ctl" -D "$dir/data" -l "$dir/log" -w -t 60 -o "-p $port -k $dir \
        -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off \
        -c max_connections=300" start >/dev/null; then
      echo "export GRIDARENA_TEST_PG='postgresql://postgres@/postgres?host=$dir&port=$port'"
      echo "export GRIDARENA_TEST_PG_DIR='$dir'"
      say "PostgreSQL test cluster in $dir (port $port)"
      return 0
    fi
  done
  cat "$dir/log" >&2 || true
  rm -rf "$dir"
  echo "PostgreSQL did not start" >&2
  exit 1
}

stop() {
  local dir=${1:-${GRIDARENA_TEST_PG_DIR:-}} bin
  if [ -z "$dir" ]; then
    echo "usage: $0 stop DIR (or set GRIDARENA_TEST_PG_DIR)" >&2
    exit 2
  fi
  case "$dir" in
    */gridarena-pg.*) ;;
    *) echo "$dir is not a cluster made by $0 start" >&2; exit 2 ;;
  esac
  bin=$(bin_dir)
  if [ -f "$dir/data/postmaster.pid" ] && [ -n "$bin" ]; then
    as_postgres "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
  fi
  rm -rf "$dir"
}

case "${1:-}" in
  start) start ;;
  stop) stop "${2:-}" ;;
  *) echo "usage: $0 start | stop [DIR]" >&2; exit 2 ;;
esac
