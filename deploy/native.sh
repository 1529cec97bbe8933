#!/bin/sh
# compose.yaml's topology without Docker, from Debian's packages: Caddy (deploy/Caddyfile, the
# same file compose mounts) in front of two app servers (python -m service serve) and the
# streams' server (SERVER=tornado: every …/stream path), on the local PostgreSQL and Redis. Each app server runs under runit's runsv (Debian's runit,
# installed when missing, as Caddy is), and so does the streams' server: one that dies is started again within a second or
# two, and the restart is logged; Caddy's health checks keep clients on the other meanwhile.
#
#   deploy/native.sh start          migrate, start app-1, app-2, streams and Caddy; wait until
#                                   ready
#   deploy/native.sh stop           stop Caddy and the app servers (the database stays)
#   deploy/native.sh status         what runs, and whether the proxy says ready
#   deploy/native.sh backup FILE    python -m service backup FILE, on the topology's database
#   deploy/native.sh restore FILE [--force]
#                                   stop the app servers, python -m service restore FILE on
#                                   the topology's database, migrate, start them again
#
# Settings (environment). The first `start` saves them in $SEGNAPUNTI_STATE/native.env (mode
# 0600: it may hold the database's password and ADMIN_TOKEN); every later command reads them
# from there, and a later `start` takes what the environment sets over what was saved, so a
# start from a new shell comes up on the same database, ports and Redis prefix:
#   SEGNAPUNTI_STATE        pids, logs, Caddy's data            (./var/native)
#   SEGNAPUNTI_PORT         the proxy's port, every interface   (8080, as compose publishes)
#   SEGNAPUNTI_APP_PORTS    the two app servers' ports          ("8001 8002", on 127.0.0.1)
#   SEGNAPUNTI_STREAMS_PORT the streams' server's port          (8003, on 127.0.0.1)
#   DATABASE_URL            PostgreSQL; when unset, the database and role `segnapunti` on
#                           127.0.0.1:5432 are created if missing (trust auth, as user postgres)
#   RATE_LIMIT_STORAGE_URL  Redis                               (redis://127.0.0.1:6379/0)
#   RATE_LIMIT_KEY_PREFIX   its keys' prefix                    (segnapunti-native)
#   SHARED_CACHE_URL        where the servers share the bodies they make (that same Redis)
#   PYTHON                  the interpreter with the service    (.venv/bin/python, or python3)
# As compose: TRUSTED_PROXIES=1, SERVER=gunicorn, WEB_CONCURRENCY=2, WEB_THREADS=8. The other
# settings of the table in docs/operations.md (RATE_LIMIT_PER_MINUTE, ADMIN_TOKEN, …) are passed
# on to the app servers, and
# saved with the rest when set. A Redis that does not answer stops `start` (its limits would
# not hold in total); RATE_LIMIT_STORAGE_URL=memory:// runs without one.
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
    SEGNAPUNTI_STREAMS_PORT=${SEGNAPUNTI_STREAMS_PORT:-8003}
    DATABASE_URL=${DATABASE_URL:-}
    RATE_LIMIT_STORAGE_URL=${RATE_LIMIT_STORAGE_URL:-redis://127.0.0.1:6379/0}
    RATE_LIMIT_KEY_PREFIX=${RATE_LIMIT_KEY_PREFIX:-segnapunti-native}
    case $RATE_LIMIT_STORAGE_URL in
        redis://* | rediss://* | unix://*) SHARED_CACHE_URL=${SHARED_CACHE_URL:-$RATE_LIMIT_STORAGE_URL} ;;
        *) SHARED_CACHE_URL=${SHARED_CACHE_URL:-} ;;
    esac
    TRUSTED_PROXIES=1
    SERVER=gunicorn  # stock gthread workers: only behind Caddy, which buffers each request
    WEB_CONCURRENCY=${WEB_CONCURRENCY:-2}
    WEB_THREADS=${WEB_THREADS:-8}
    export_settings
}

# The script's own settings, and the service's (the settings table of docs/operations.md; HOST and PORT are each
# app server's own): what the first `start` saves and the later commands read.
OWN_SETTINGS="PYTHON SEGNAPUNTI_PORT SEGNAPUNTI_APP_PORTS SEGNAPUNTI_STREAMS_PORT DATABASE_URL RATE_LIMIT_STORAGE_URL
    RATE_LIMIT_KEY_PREFIX SHARED_CACHE_URL TRUSTED_PROXIES SERVER WEB_CONCURRENCY WEB_THREADS"
SERVICE_SETTINGS="REQUEST_DEADLINE RATE_LIMIT_PER_MINUTE RATE_LIMIT_BURST
    AUTH_FAILURES_PER_MINUTE AUTH_FAILURE_BURST PUBLIC_URL ADMIN_TOKEN LOG_LEVEL PDF_CACHE_BYTES
    PDF_RENDER_CONCURRENCY PDF_RENDER_WAIT_S CACHE_HANDS CREATION CREATION_QUOTA_GAMES
    CREATION_QUOTA_EVENTS CREATION_QUOTA_CLUBS RETENTION_DAYS"

quoted() {  # quoted VALUE: VALUE in single quotes, for the shell to read back
    printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"
}

# What the environment sets (non-empty), as assignments, to lay over the saved settings.
given_settings() {
    for name in $OWN_SETTINGS $SERVICE_SETTINGS; do
        eval "value=\${$name:-}"
        [ -z "$value" ] || printf '%s=%s\n' "$name" "$(quoted "$value")"
    done
}

# What `start` saved, for stop, status, backup and restore (which may run from another shell).
load_settings() {
    [ -f "$ENV_FILE" ] || fail "not started here ($ENV_FILE is missing): deploy/native.sh start"
    # shellcheck disable=SC1090
    . "$ENV_FILE"
    export_settings
}

export_settings() {
    for name in $OWN_SETTINGS $SERVICE_SETTINGS; do
        eval "value=\${$name:-}"
        # shellcheck disable=SC2163
        [ -z "$value" ] || export "$name"
    done
}

# A later start: the saved settings, under what this environment sets.
load_saved_settings() {
    [ -f "$ENV_FILE" ] || return 0
    given=$(given_settings)
    # shellcheck disable=SC1090
    . "$ENV_FILE"
    eval "$given"
    say "the settings of $ENV_FILE (DATABASE_URL among them), under what the environment sets"
}

save_settings() {
    (
        umask 077
        for name in $OWN_SETTINGS $SERVICE_SETTINGS; do
            eval "value=\${$name:-}"
            [ -z "$value" ] || printf '%s=%s\n' "$name" "$(quoted "$value")"
        done >"$ENV_FILE.new"
    )
    chmod 600 "$ENV_FILE.new"
    mv "$ENV_FILE.new" "$ENV_FILE"
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
        # A supervised app server that exits before it is ready would be started forever.
        [ ! -s "$STATE/$1.exits" ] || fail "$1 exited before it was ready: $(tail -n 20 "$STATE/$1.log")"
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

# runit's runsv supervises one directory's ./run, with or without systemd. Without its
# recommends, Debian's package installs the tools only (runit-run would make runit the init).
ensure_runit() {
    command -v runsv >/dev/null 2>&1 && command -v sv >/dev/null 2>&1 && return
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        say "runit is missing: installing Debian's runit (runsv and sv)"
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
            --no-install-recommends runit >/dev/null \
            || fail "runit could not be installed (apt-get install --no-install-recommends runit)"
    else
        fail "runit is missing: apt-get install --no-install-recommends runit (as root)"
    fi
}

# Redis, when the limits count there: a start on a Redis that does not answer would run with
# each worker counting alone, the limits not holding in total.
ensure_redis() {
    case $RATE_LIMIT_STORAGE_URL in redis://* | rediss://* | unix://*) ;; *) return 0 ;; esac
    "$PYTHON" - "$RATE_LIMIT_STORAGE_URL" <<'EOF' >/dev/null 2>&1 && return
import sys, redis
redis.Redis.from_url(sys.argv[1], socket_timeout=3, socket_connect_timeout=3).ping()
EOF
    fail "Redis does not answer at $RATE_LIMIT_STORAGE_URL (RATE_LIMIT_STORAGE_URL): start it \
(apt-get install redis-server), or set RATE_LIMIT_STORAGE_URL=memory:// to count in each worker"
}

migrate() {
    say "migrating (waiting for the database if need be)"
    "$PYTHON" -m service migrate >>"$STATE/migrate.log" 2>&1 \
        || fail "the migrations failed: $(tail -n 20 "$STATE/migrate.log")"
}

sv_dir() { printf '%s/sv/%s' "$STATE" "$1"; }

# supervise NAME PORT [SERVER]: app server NAME on 127.0.0.1:PORT (served by SERVER, by
# default $SERVER) under runsv, which starts ./run again whenever it exits (./finish logs each
# exit, with its status, and counts it).
supervise() {
    dir=$(sv_dir "$1")
    mkdir -p "$dir"
    rm -f "$STATE/$1.exits"
    cat >"$dir/run" <<EOF
#!/bin/sh
cd $(quoted "$ROOT") || exit 1
exec 2>&1
HOST=127.0.0.1 PORT=$2 SERVER=${3:-$SERVER} exec "\$PYTHON" -m service serve
EOF
    cat >"$dir/finish" <<EOF
#!/bin/sh
echo "native: $1 exited (exit code \$1, signal \$2); runsv starts it again"
echo "\$1 \$2" >>$(quoted "$STATE/$1.exits")
# A server killed outright leaves its workers running until they see their parent gone (a
# second, longer on a busy machine), holding its port: they are ended now (the service's
# processes left in runsv's group), so the next start listens at once. An answer they had
# not sent was never acknowledged.
group=\$(cat $(quoted "$STATE/$1.pid") 2>/dev/null)
command -v pgrep >/dev/null 2>&1 && [ -n "\$group" ] || exit 0
left() { for p in \$(pgrep -g "\$group" -f service); do [ "\$p" = "\$group" ] || echo "\$p"; done; }
for p in \$(left); do kill -TERM "\$p" 2>/dev/null; done
n=0
while [ -n "\$(left)" ] && [ \$n -lt 20 ]; do sleep 0.1; n=\$((n + 1)); done
for p in \$(left); do kill -KILL "\$p" 2>/dev/null; done
exit 0
EOF
    chmod 755 "$dir/run" "$dir/finish"
    launch "$1" runsv "$dir"
}

app_pid() {  # app_pid NAME: the pid of the app server runsv runs now (empty if none)
    cat "$(sv_dir "$1")/supervise/pid" 2>/dev/null || true
}

# The servers runsv supervises: two app servers and the streams' server.
SERVERS_RUN="app-1 app-2 streams"

start_apps() {  # start_apps: app-1, app-2 and streams under runsv, until all are ready
    n=1
    for port in $SEGNAPUNTI_APP_PORTS; do
        supervise "app-$n" "$port"
        n=$((n + 1))
    done
    [ "$n" = 3 ] || fail "SEGNAPUNTI_APP_PORTS names two ports, not: $SEGNAPUNTI_APP_PORTS"
    # Every …/stream path (Server-Sent Events) goes to this one: tornado holds each open
    # stream in its event loop, no thread held (docs/decisions.md, "Live screens").
    supervise streams "$SEGNAPUNTI_STREAMS_PORT" tornado
    # shellcheck disable=SC2086
    set -- $SEGNAPUNTI_APP_PORTS
    wait_ready app-1 "$1"
    wait_ready app-2 "$2"
    wait_ready streams "$SEGNAPUNTI_STREAMS_PORT"
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
    # Exported as the settings were: the migration and every server run on it (left
    # unexported, they would each open the default SQLite file instead).
    DATABASE_URL=postgresql://segnapunti@127.0.0.1:5432/segnapunti
    export DATABASE_URL
}

# -- the commands ----------------------------------------------------------------------------

start() {
    mkdir -p "$STATE"
    load_saved_settings
    settings
    for name in proxy $SERVERS_RUN; do
        ! running "$name" || fail "$name runs already (pid $(cat "$STATE/$name.pid")): deploy/native.sh stop"
    done
    ensure_caddy
    ensure_runit
    ensure_database
    ensure_redis
    save_settings
    # A start that fails half way stops what it started.
    trap 'status=$?; [ "$status" = 0 ] || stop >&2; exit "$status"' EXIT
    cd "$ROOT"
    export PYTHONPATH="$ROOT${PYTHONPATH:+:$PYTHONPATH}"
    migrate
    start_apps
    # shellcheck disable=SC2086
    set -- $SEGNAPUNTI_APP_PORTS
    mkdir -p "$STATE/caddy"
    SEGNAPUNTI_LISTEN=":$SEGNAPUNTI_PORT" SEGNAPUNTI_APP_1="127.0.0.1:$1" \
        SEGNAPUNTI_APP_2="127.0.0.1:$2" SEGNAPUNTI_STREAMS="127.0.0.1:$SEGNAPUNTI_STREAMS_PORT" \
        SEGNAPUNTI_CADDY_ADMIN=off \
        XDG_DATA_HOME="$STATE/caddy" XDG_CONFIG_HOME="$STATE/caddy" HOME="$STATE/caddy" \
        launch proxy caddy run --config "$ROOT/deploy/Caddyfile" --adapter caddyfile
    wait_ready proxy "$SEGNAPUNTI_PORT"
    trap - EXIT
    say "ready: http://127.0.0.1:$SEGNAPUNTI_PORT/ (app servers on 127.0.0.1:$1 and :$2, streams on :$SEGNAPUNTI_STREAMS_PORT; logs in $STATE)"
}

alive() {  # alive PID: a process of the session PID leads runs (or PID itself)
    kill -0 "-$1" 2>/dev/null || kill -0 "$1" 2>/dev/null
}

signal_one() {  # signal_one NAME SIGNAL: to its whole session (runsv, gunicorn and workers)
    [ -f "$STATE/$1.pid" ] || return 0
    pid=$(cat "$STATE/$1.pid")
    alive "$pid" || return 0
    kill "-$2" "-$pid" 2>/dev/null || kill "-$2" "$pid" 2>/dev/null || true  # dash: no "--"
}

stop_apps() {  # the servers down together (SIGTERM, up to 30 s, then SIGKILL), then runsv
    dirs=''
    for name in $SERVERS_RUN; do
        ! running "$name" || dirs="$dirs $(sv_dir "$name")"
    done
    [ -n "$dirs" ] || return 0
    # shellcheck disable=SC2086
    sv -w 30 force-stop $dirs >/dev/null 2>&1 || true
    # shellcheck disable=SC2086
    sv exit $dirs >/dev/null 2>&1 || true
}


stop() {  # SIGTERM to all (the proxy first), then up to 30 s each to go, then SIGKILL
    signal_one proxy TERM
    stop_apps
    # What a runsv killed outright left in its session (an app server on its own).
    for name in $SERVERS_RUN; do signal_one "$name" TERM; done
    for name in proxy $SERVERS_RUN; do
        [ -f "$STATE/$name.pid" ] || continue
        pid=$(cat "$STATE/$name.pid")
        waited=0
        while alive "$pid" && [ "$waited" -lt 300 ]; do
            sleep 0.1
            waited=$((waited + 1))
        done
        if alive "$pid"; then
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
    if running proxy; then say "proxy runs (pid $(cat "$STATE/proxy.pid"))"
    else say "proxy is not running"; code=1; fi
    for name in $SERVERS_RUN; do
        if running "$name" && [ -n "$(app_pid "$name")" ]; then
            restarts=$(wc -l <"$STATE/$name.exits" 2>/dev/null || echo 0)
            say "$name runs (pid $(app_pid "$name"), under runsv pid $(cat "$STATE/$name.pid"); restarted $((restarts)) times)"
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

# The app servers stopped (the proxy answers 503 meanwhile), the database replaced, migrated
# (a backup of an older release), and the app servers started again, whether the restore
# was done or failed. Without --force, a database holding anything is refused first, the app
# servers serving on.
restore() {
    [ $# -ge 1 ] || fail "restore needs a file: deploy/native.sh restore FILE [--force]"
    load_settings
    running app-1 || running app-2 || fail "the app servers are not running: deploy/native.sh start"
    cd "$ROOT"
    export PYTHONPATH="$ROOT${PYTHONPATH:+:$PYTHONPATH}"
    case " $* " in
        *" --force "*) ;;
        *)  # A restore that would be refused is refused while the app servers go on serving.
            "$PYTHON" - <<'EOF' || exit 1
import sys
from service.persistence import default_database_url
from service.persistence.backup import BackupError, refuse_a_database_holding_anything
try:
    refuse_a_database_holding_anything(default_database_url())
except BackupError as error:
    sys.exit(f"deploy/native.sh restore: {error}")
EOF
            ;;
    esac
    say "stopping the app servers for the restore"
    stop_apps
    for name in $SERVERS_RUN; do
        while running "$name"; do sleep 0.1; done
        rm -f "$STATE/$name.pid"
    done
    restored=0
    "$PYTHON" -m service restore "$@" || restored=$?
    migrate
    start_apps
    say "the app servers run again"
    return "$restored"
}

command=${1:-}
[ $# -gt 0 ] && shift
case $command in
    start) start ;;
    stop) stop ;;
    status) status ;;
    backup) backup "$@" ;;
    restore) restore "$@" ;;
    *) fail "usage: deploy/native.sh start|stop|status|backup FILE|restore FILE [--force]" ;;
esac
