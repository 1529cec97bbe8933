#!/bin/sh
# The Dockerfile built on this machine, from Debian alone: no registry needs to answer.
#
#   deploy/image.sh prepare       Debian's docker.io, mmdebstrap and docker-compose installed
#                                 when missing (as root, with apt-get), and dockerd started in
#                                 the background when no daemon answers
#   deploy/image.sh base          the Debian bookworm base made by mmdebstrap and loaded by
#                                 `docker import`, unless it is there already
#   deploy/image.sh build [TAG]   the base if missing, then the image (segnapunti:latest) on it
#
# The Dockerfile's BASE defaults to the public debian:bookworm-slim, which a machine without a
# registry cannot pull; the base made here is the same thing made locally (bookworm's minbase,
# merged /usr, without manuals, documentation or translations, and apt keeping no packages
# or caches once it has installed them, as the slim image) and tagged
# segnapunti-base:bookworm, so it is never taken for the public image.
#
# Settings (environment):
#   SEGNAPUNTI_BASE         the base's tag                      (segnapunti-base:bookworm)
#   SEGNAPUNTI_MIRROR       Debian's mirror                     (http://deb.debian.org)
#   SEGNAPUNTI_DOCKERD_LOG  dockerd's log, when started here    (/var/log/dockerd.log)
#   PIP_CERT                a CA bundle pip needs to trust to reach PyPI: passed to the build
#                           as the secret `pip_cert`, never kept in the image
#   PIP_INDEX_URL, HTTP_PROXY, HTTPS_PROXY, NO_PROXY   passed to the build when set
# The build runs with BuildKit (the Dockerfile's build secret): `docker buildx` where it is
# installed, else Debian's docker client with DOCKER_BUILDKIT=1 (docker.io's has BuildKit in
# it); on the host's network, as the machine reaches Debian and PyPI.
set -eu

ROOT=$(CDPATH='' cd -- "$(dirname -- "$0")/.." && pwd)
BASE=${SEGNAPUNTI_BASE:-segnapunti-base:bookworm}
MIRROR=${SEGNAPUNTI_MIRROR:-http://deb.debian.org}
DOCKERD_LOG=${SEGNAPUNTI_DOCKERD_LOG:-/var/log/dockerd.log}

say() { printf 'image: %s\n' "$*"; }
fail() { printf 'image: %s\n' "$*" >&2; exit 1; }

daemon_answers() { docker info >/dev/null 2>&1; }

# -- prepare ---------------------------------------------------------------------------------

install_missing() {
    missing=""
    command -v dockerd >/dev/null 2>&1 || missing="$missing docker.io"
    command -v mmdebstrap >/dev/null 2>&1 || missing="$missing mmdebstrap"
    command -v docker-compose >/dev/null 2>&1 || missing="$missing docker-compose"
    [ -n "$missing" ] || return 0
    if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
        fail "missing:$missing (apt-get install$missing, as root)"
    fi
    say "installing$missing"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing \
        >/dev/null
}

# dockerd in the background (no init system is assumed), its log in $DOCKERD_LOG; where it
# cannot set up its firewall rules, again without them (the builds and the tests use the
# host's network).
start_daemon() {
    daemon_answers && return 0
    [ "$(id -u)" = 0 ] || fail "no Docker daemon answers, and only root may start one here"
    for options in "" "--iptables=false"; do
        say "starting dockerd${options:+ $options} (log: $DOCKERD_LOG)"
        # shellcheck disable=SC2086
        nohup dockerd $options >>"$DOCKERD_LOG" 2>&1 &
        pid=$!
        waited=0
        while [ "$waited" -lt 30 ]; do
            if daemon_answers; then say "dockerd answers (pid $pid)"; return 0; fi
            kill -0 "$pid" 2>/dev/null || break
            sleep 1; waited=$((waited + 1))
        done
        kill "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
    done
    fail "dockerd did not start; its log: $DOCKERD_LOG"
}

# -- base ------------------------------------------------------------------------------------

make_base() {
    if docker image inspect "$BASE" >/dev/null 2>&1; then
        say "base $BASE is there"
        return 0
    fi
    command -v mmdebstrap >/dev/null 2>&1 || fail "mmdebstrap is missing: deploy/image.sh prepare"
    say "making base $BASE with mmdebstrap"
    work=$(mktemp -d)
    # shellcheck disable=SC2064
    trap "rm -rf '$work'" EXIT
    if ! mmdebstrap --quiet --variant=minbase \
        --hook-dir=/usr/share/mmdebstrap/hooks/merged-usr \
        --dpkgopt='path-exclude=/usr/share/man/*' \
        --dpkgopt='path-exclude=/usr/share/doc/*' \
        --dpkgopt='path-include=/usr/share/doc/*/copyright' \
        --dpkgopt='path-exclude=/usr/share/locale/*' \
        --dpkgopt='path-exclude=/usr/share/info/*' \
        --aptopt='Dir::Cache::pkgcache ""' --aptopt='Dir::Cache::srcpkgcache ""' \
        --aptopt='DPkg::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/*.bin || true"; }' \
        bookworm "$work/base.tar" \
        "deb $MIRROR/debian bookworm main" \
        "deb $MIRROR/debian bookworm-updates main" \
        "deb $MIRROR/debian-security bookworm-security main" >"$work/mmdebstrap.log" 2>&1; then
        cat "$work/mmdebstrap.log" >&2
        fail "mmdebstrap failed"
    fi
    docker import --message "Debian bookworm minbase (mmdebstrap)" "$work/base.tar" "$BASE" \
        >/dev/null
    say "base $BASE made"
}

# -- build -----------------------------------------------------------------------------------

build() {
    tag=${1:-segnapunti:latest}
    make_base
    set -- --network host --build-arg "BASE=$BASE" --tag "$tag"
    if [ -n "${PIP_CERT:-}" ]; then
        [ -r "$PIP_CERT" ] || fail "PIP_CERT=$PIP_CERT cannot be read"
        set -- "$@" --secret "id=pip_cert,src=$PIP_CERT"
    fi
    for name in PIP_INDEX_URL HTTP_PROXY HTTPS_PROXY NO_PROXY; do
        eval "value=\${$name:-}"
        # shellcheck disable=SC2154
        [ -z "$value" ] || set -- "$@" --build-arg "$name=$value"
    done
    say "building $tag on $BASE"
    if docker buildx version >/dev/null 2>&1; then
        docker buildx build --load "$@" "$ROOT"
    elif [ -x /usr/bin/docker ]; then
        DOCKER_BUILDKIT=1 /usr/bin/docker build "$@" "$ROOT"
    else
        fail "no BuildKit client: install docker buildx, or Debian's docker.io"
    fi
}

case ${1:-} in
    prepare) install_missing; start_daemon ;;
    base) make_base ;;
    build) shift; build "$@" ;;
    *) fail "usage: deploy/image.sh prepare | base | build [TAG]" ;;
esac
