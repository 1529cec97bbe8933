#!/bin/sh
# compose.yaml's topology without Docker, from Debian's packages: Caddy (deploy/Caddyfile, the
# same file compose mounts) in front of two app servers (python -m service serve), on the
# local PostgreSQL and Redis.
#
#   deploy/native.sh start          migrate, start app-1, app-2 and Caddy; wait until ready
#   deploy/native.sh stop           stop Caddy and the app servers (the database stays)
#   deploy/native.sh status         what runs, and whether the proxy says ready
#   deploy/native.sh backup FILE    python -m service backup FILE, on the topology's database
#
# Settings (environment; what `start` used is kept in $SEGNAPUNTI_STATE/native.env, which the
# other commands read):
#   SEGNAPUNTI_STATE        pids, logs, Caddy's data            (./var/native)
#   SEGNAPUNTI_PORT         the proxy's port, every interface   (8080, as compose publishes)
#   SEGNAPUNTI_APP_PORTS    the two app servers' ports          ("8001 8002", on 127.0.0.1)
#   DATABASE_URL            PostgreSQL; when unset, the database and role `segnapunti` on
#                           127.0.0.1:5432 are created if missing (trust auth, as user postgres)
#   RATE_LIMIT_STORAGE_URL  Redis                               (redis://127.0.0.1:6379/0)
#   RATE_LIMIT_KEY_PREFIX   its keys' prefix                    (segnapunti-native)
#   PYTHON                  the interpreter with the service    (.venv/bin/python, or python3)
# As compose: TRUSTED_PROXIES=1, WEB_CONCURRENCY=2, WEB_THREADS=8. Any other setting of the
# README's table (RATE_LIMIT_PER_MINUTE, …) is passed on to the app servers as it is.
set -eu

ROOT=$(CDPATH='' cd -- "$(dirname -- "$0")/.." && pwd)
STATE=${SEGNAPUNTI_STATE:-$ROOT/var/native}
ENV_FILE=$STATE/native.env
WAIT_S=${SEGNAPUNTI_START_WAIT:-120}

say() { printf 'native: %s\n' "$*"; }
fail() { printf 'native: %s\n' "$*" >&2; exit 1; }

# -- settings --------------------------------------------------------------------------------

settings() {
    if [ -z "${PYTHON:-}" ]; then
        if [ -x "$ROOT/.venv/bin/python" ]; then PYTHON=$ROOT/.venv/bin/python; else PYTHON=python3; fi
    fi
    SEGNAPUNTI_PORT=${SEGNAPUNTI_PORT:-8080}
    SEGNAPUNTI_APP_PORTS=${SEGNAPUNTI_APP_PORTS:-8001 8002}
    DATABASE_URL=${DATABASE_URL:-}
    RATE_LIMIT_STORAGE_URL=${RATE_LIMIT_STORAGE_URL:-redis://127.0.0.1:6379/0}
    RATE_LIMIT_KEY_PREFIX=${RATE_LIMIT_KEY_PREFIX:-segnapunti-native}
    TRUSTED_PROXIES=1
    WEB_CONCURRENCY=${WEB_CONCURRENCY:-2}
    WEB_THREADS=${WEB_THREADS:-8}
    export PYTHON DATABASE_URL RATE_LIMIT_STORAGE_URL RATE_LIMIT_KEY_PREFIX TRUSTED_PROXIES \
        WEB_CONCURRENCY WEB_THREADS
}

# What `start` used, for stop, status and backup (which may run from another shell).
load_settings() {
    [ -f "$ENV_FILE" ] || fail "not started here ($ENV_FILE is missing): deploy/native.sh start"
    # shellcheck disable=SC1090
    . "$ENV_FILE"
    export PYTHON DATABASE_URL RATE_LIMIT_STORAGE_URL RATE_LIMIT_KEY_PREFIX TRUSTED_PROXIES \
        WEB_CONCURRENCY WEB_THREADS
}

save_settings() {
    umask 077
    {
        for name in PYTHON SEGNAPUNTI_PORT SEGNAPUNTI_APP_PORTS DATABASE_URL \
                RATE_LIMIT_STORAGE_URL RATE_LIMIT_KEY_PREFIX TRUSTED_PROXIES WEB_CONCURRENCY \
                WEB_THREADS; do
            eval "value=\${$name}"
            # shellcheck disable=SC2154
            printf "%s='%s'\n" "$name" "$(printf '%s' "$value" | sed "s/'/'\\\\''/g")"
        done
    } >"$ENV_FILE"
}

# -- the parts -------------------------------------------------------------------------------

running() {  # running NAME: its pid file names a live process
    [ -f "$STATE/$1.pid" ] && kill -0 "$(cat "$STATE/$1.pid")" 2>/dev/null
}

ready() {  # ready PORT: GET /api/v1/ready answers 200 there
    "$PYTHON" - "$1" <<'EOF' 2>/dev/null
import sys, urllib.request
with urllib.request.urlopen(f"http://127.0.0.1:{sys.argv[1]}/api/v1/ready", timeout=4) as r:
    sys.exit(0 if r.status == 200 else 1)
EOF
}

wait_ready() {  # wait_ready NAME PORT: until ready, or fail with its log
    waited=0
    until ready "$2"; do
        running "$1" || fail "$1 exited: $(tail -n 20 "$STATE/$1.log")"
        [ "$waited" -lt $((WAIT_S * 10)) ] || fail "$1 is not ready after ${WAIT_S} s: $(tail -n 20 "$STATE/$1.log")"
        sleep 0.1
        waited=$((waited + 1))
    done
}

launch() {  # launch NAME COMMAND…: in a session of its own, its pid and log in the state dir
    name=$1
    shift
    setsid "$@" >>"$STATE/$name.log" 2>&1 </dev/null &
    echo $! >"$STATE/$name.pid"
}

ensure_caddy() {
    command -v caddy >/dev/null 2>&1 && return
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        say "caddy is missing: installing Debian's caddy"
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq caddy >/dev/null \
            || fail "caddy could not be installed (apt-get install caddy)"
        # Debian's package starts its own service on :80 where systemd runs: not ours.
        command -v systemctl >/dev/null 2>&1 && systemctl disable --now caddy >/dev/null 2>&1 || true
    else
        fail "caddy is missing: apt-get install caddy (as root)"
    fi
}

ensure_database() {
    [ -n "$DATABASE_URL" ] && return
    command -v psql >/dev/null 2>&1 || fail "psql is missing: apt-get install postgresql-client"
    admin="psql -h 127.0.0.1 -U postgres -d postgres -v ON_ERROR_STOP=1 -qtA"
    $admin -c "SELECT 1" >/dev/null || fail "PostgreSQL does not answer on 127.0.0.1:5432 as postgres"
    if [ "$($admin -c "SELECT 1 FROM pg_roles WHERE rolname = 'segnapunti'")" != 1 ]; then
        $admin -c "CREATE ROLE segnapunti LOGIN"
    fi
    if [ "$($admin -c "SELECT 1 FROM pg_database WHERE datname = 'segnapunti'")" != 1 ]; then
        $admin -c "CREATE DATABASE segnapunti OWNER segnapunti"
        say "created the database segnapunti (role segnapunti) on 127.0.0.1:5432"
    fi
    DATABASE_URL=postgresql://segnapunti@127.0.0.1:5432/segnapunti
}

# -- the commands ----------------------------------------------------------------------------

start() {
    settings
    mkdir -p "$STATE"
    for name in proxy app-1 app-2; do
        ! running "$name" || fail "$name runs already (pid $(cat "$STATE/$name.pid")): deploy/native.sh stop"
    done
    ensure_caddy
    ensure_database
    save_settings
    # A start that fails half way stops what it started.
    trap 'status=$?; [ "$status" = 0 ] || stop >&2; exit "$status"' EXIT
    cd "$ROOT"
    export PYTHONPATH="$ROOT${PYTHONPATH:+:$PYTHONPATH}"
    say "migrating (waiting for the database if need be)"
    "$PYTHON" -m service migrate >>"$STATE/migrate.log" 2>&1 \
        || fail "the migrations failed: $(tail -n 20 "$STATE/migrate.log")"
    n=1
    for port in $SEGNAPUNTI_APP_PORTS; do
        HOST=127.0.0.1 PORT=$port launch "app-$n" "$PYTHON" -m service serve
        n=$((n + 1))
    done
    [ "$n" = 3 ] || fail "SEGNAPUNTI_APP_PORTS names two ports, not: $SEGNAPUNTI_APP_PORTS"
    set -- $SEGNAPUNTI_APP_PORTS
    wait_ready app-1 "$1"
    wait_ready app-2 "$2"
    mkdir -p "$STATE/caddy"
    SEGNAPUNTI_LISTEN=":$SEGNAPUNTI_PORT" SEGNAPUNTI_APP_1="127.0.0.1:$1" \
        SEGNAPUNTI_APP_2="127.0.0.1:$2" SEGNAPUNTI_CADDY_ADMIN=off \
        XDG_DATA_HOME="$STATE/caddy" XDG_CONFIG_HOME="$STATE/caddy" HOME="$STATE/caddy" \
        launch proxy caddy run --config "$ROOT/deploy/Caddyfile" --adapter caddyfile
    wait_ready proxy "$SEGNAPUNTI_PORT"
    trap - EXIT
    say "ready: http://127.0.0.1:$SEGNAPUNTI_PORT/ (app servers on 127.0.0.1:$1 and :$2; logs in $STATE)"
}

signal_one() {  # signal_one NAME SIGNAL: to its whole session (a gunicorn master and workers)
    [ -f "$STATE/$1.pid" ] || return 0
    pid=$(cat "$STATE/$1.pid")
    kill -0 "$pid" 2>/dev/null || return 0
    kill "-$2" -- "-$pid" 2>/dev/null || kill "-$2" "$pid" 2>/dev/null || true
}

stop() {  # SIGTERM to all (the proxy first), then up to 30 s each to go, then SIGKILL
    for name in proxy app-1 app-2; do signal_one "$name" TERM; done
    for name in proxy app-1 app-2; do
        [ -f "$STATE/$name.pid" ] || continue
        pid=$(cat "$STATE/$name.pid")
        waited=0
        while kill -0 "$pid" 2>/dev/null && [ "$waited" -lt 300 ]; do
            sleep 0.1
            waited=$((waited + 1))
        done
        if kill -0 "$pid" 2>/dev/null; then
            signal_one "$name" KILL
            say "killed $name (pid $pid): it did not stop within 30 s"
        else
            say "stopped $name (pid $pid)"
        fi
        rm -f "$STATE/$name.pid"
    done
}

status() {
    load_settings
    code=0
    for name in proxy app-1 app-2; do
        if running "$name"; then say "$name runs (pid $(cat "$STATE/$name.pid"))"
        else say "$name is not running"; code=1; fi
    done
    if ready "$SEGNAPUNTI_PORT"; then say "ready: http://127.0.0.1:$SEGNAPUNTI_PORT/"
    else say "not ready at http://127.0.0.1:$SEGNAPUNTI_PORT/api/v1/ready"; code=1; fi
    return $code
}

backup() {
    [ $# -ge 1 ] || fail "backup needs a file: deploy/native.sh backup FILE [--force]"
    load_settings
    cd "$ROOT"
    export PYTHONPATH="$ROOT${PYTHONPATH:+:$PYTHONPATH}"
    "$PYTHON" -m service backup "$@"
}

command=${1:-}
[ $# -gt 0 ] && shift
case $command in
    start) start ;;
    stop) stop ;;
    status) status ;;
    backup) backup "$@" ;;
    *) fail "usage: deploy/native.sh start|stop|status|backup FILE" ;;
esac
