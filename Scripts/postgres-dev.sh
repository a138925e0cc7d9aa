#!/usr/bin/env bash
# A throwaway PostgreSQL server for working on Strata: a cluster in a temporary directory, trust authentication on
# a free loopback port, nothing listening elsewhere. Works as root (the server runs as the `postgres` user) and as
# a normal user.
#
#   Scripts/postgres-dev.sh start   # creates and starts the cluster (again after a stop), prints its URL
#   Scripts/postgres-dev.sh url     # prints the URL of the running cluster
#   Scripts/postgres-dev.sh stop    # stops the cluster and removes its directory
#
#   STRATA_POSTGRES_URL="$(Scripts/postgres-dev.sh start)" swift test
set -euo pipefail

STATE="${STRATA_POSTGRES_DEV_DIR:-${TMPDIR:-/tmp}/strata-postgres-dev-$(id -u)}"

pg_bin() {
    local bin
    bin="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)"
    if [ -z "$bin" ] && command -v pg_config >/dev/null; then bin="$(pg_config --bindir)"; fi
    if [ -z "$bin" ] || [ ! -x "$bin/initdb" ]; then
        echo "postgres-dev: no PostgreSQL server binaries (install postgresql-15)" >&2
        exit 1
    fi
    echo "$bin"
}

as_server_user() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }

# Swift Testing runs a test per core at once, each PostgreSQL container with a pool of its own: the server's limit
# grows with the cores (the rule .ci/run and the suite's own server use).
max_connections() { local n=$(( $(nproc) * 150 + 300 )); [ "$n" -gt 2000 ] && n=2000; echo "$n"; }

url() { echo "postgresql://postgres@127.0.0.1:$(cat "$STATE/port")/postgres"; }

running() { [ -f "$STATE/port" ] && as_server_user "$(pg_bin)/pg_ctl" -D "$STATE/data" status >/dev/null 2>&1; }

start() {
    local bin
    bin="$(pg_bin)"
    if running; then url; return; fi
    mkdir -p "$STATE"
    if [ "$(id -u)" = 0 ]; then chown postgres "$STATE"; fi
    if [ ! -d "$STATE/data" ]; then
        as_server_user "$bin/initdb" -D "$STATE/data" -A trust -U postgres -E UTF8 --locale=C --no-sync >"$STATE/initdb.log" 2>&1 || {
            cat "$STATE/initdb.log" >&2
            exit 1
        }
    fi
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])' >"$STATE/port"
    as_server_user "$bin/pg_ctl" -D "$STATE/data" -l "$STATE/server.log" -w \
        -o "-p $(cat "$STATE/port") -k $STATE -c listen_addresses=127.0.0.1 -c max_connections=$(max_connections) -c max_locks_per_transaction=256" start </dev/null >/dev/null 2>&1 || {
        echo "postgres-dev: the server did not start:" >&2
        cat "$STATE/server.log" >&2 || true
        exit 1
    }
    url
}

stop() {
    if [ -d "$STATE/data" ]; then
        as_server_user "$(pg_bin)/pg_ctl" -D "$STATE/data" -m fast -w stop >/dev/null 2>&1 || true
    fi
    rm -rf "$STATE"
}

case "${1:-}" in
    start) start ;;
    stop) stop ;;
    url)
        if ! running; then
            echo "postgres-dev: not running (Scripts/postgres-dev.sh start)" >&2
            exit 1
        fi
        url
        ;;
    *)
        echo "usage: $0 start|stop|url" >&2
        exit 2
        ;;
esac
