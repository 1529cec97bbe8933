# Segnapunti: `make test` and `make run` install what is missing, then do their job.
#
#   make test     create .venv if absent, install the package with its test extras, run pytest
#   make run      same install, then `python -m service` (migrate, then serve on $$PORT)
#   make openapi  regenerate openapi/openapi.yaml from the code
#   make test-image  the Dockerfile built here and run (tests/live/test_live_image.py), and
#                 compose.yaml read by Debian's docker-compose
#
# Re-installation happens only when pyproject.toml changes (the stamp file below).

PYTHON ?= python3
# Python keeps its compiled modules (__pycache__, ignored by git) even where the machine says
# not to: the suite starts many interpreters (test workers, live servers and their workers,
# the service's commands), and without the cache each compiles every module it imports again,
# some 2 s of CPU apiece.
unexport PYTHONDONTWRITEBYTECODE
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp
PYTEST_ARGS ?=
comma := ,

.PHONY: all install test test-image run openapi lint clean debian-packages chromium caddy bench-clubnight bench-knee bench-live

all: test

$(BIN)/python:
	@$(PYTHON) -m venv $(VENV) 2>/dev/null || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    echo "python3 -m venv failed: installing python3-venv"; \
	    rm -rf $(VENV); \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv \
	      && $(PYTHON) -m venv $(VENV); \
	  else \
	    echo "python3 -m venv failed: install python3-venv (apt-get install python3-venv)" >&2; \
	    rm -rf $(VENV); exit 1; \
	  fi; }

# The package and its extras installed by uv (a few seconds from its cache, where pip takes
# half a minute), itself installed by pip into the venv; where uv cannot be had or fails, pip
# does it all. Both compile the installed modules once, there (uv only when asked): else the
# suite's first run has each of its many interpreters compile them again as it imports them.
define install_extras
	@{ $(BIN)/python -m pip install --quiet --disable-pip-version-check uv 2>/dev/null \
	   && $(BIN)/uv pip install --quiet --compile-bytecode --python $(BIN)/python -e '.[$(1)]'; } \
	|| $(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[$(1)]'
endef

$(STAMP): pyproject.toml | $(BIN)/python
	$(call install_extras,test)
	@touch $@

install: $(STAMP)

# Debian's packages the tests use, installed when missing (as root on Debian, as for
# python3-venv), all in one apt-get; where one cannot be, its tests are skipped and say why.
#   chromium-headless-shell  the browser tests (tests/web) and the crowd of phones through
#             the proxy: Chromium's engine without its window, half the CPU of the whole
#             browser for the same tests (tests/web/crowd.py, BROWSERS)
#   caddy     the proxy of deploy/native.sh (tests/live/test_live_proxy_topology.py)
#   curl, jq  the examples of README.md and docs/ run as written (tests/live/test_live_docs_examples.py)
define debian_packages
	@missing=""; for package in $(1); do command -v $$package >/dev/null 2>&1 \
	  || missing="$$missing $$package"; done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    echo "missing:$$missing; installing it for the tests that use it"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing \
	      || echo "could not install$$missing: the tests that need it will be skipped" >&2; \
	  else \
	    echo "missing:$$missing; the tests that need it will be skipped (apt-get install$$missing)" >&2; \
	  fi; \
	fi
endef

debian-packages:
	$(call debian_packages,chromium-headless-shell caddy curl jq)

chromium:
	$(call debian_packages,chromium-headless-shell)

caddy:
	$(call debian_packages,caddy)

test: $(STAMP) debian-packages
	$(BIN)/python -m pytest $(PYTEST_ARGS)

# The image, built from the Dockerfile and run against this machine's PostgreSQL and Redis
# (tests/live/test_live_image.py), and compose.yaml read by Debian's docker-compose: Debian's
# docker.io, mmdebstrap and docker-compose installed when missing, dockerd started when no
# daemon answers, the Debian base made when absent (deploy/image.sh). Where no daemon can be
# started, the image's tests say why and are skipped. The suite's PostgreSQL is CI's unless
# TEST_DATABASE_URL says otherwise.
test-image: export TEST_DATABASE_URL ?= postgresql+psycopg://postgres@127.0.0.1:5432/test
test-image: $(STAMP)
	deploy/image.sh prepare || echo "the image's tests will say why they are skipped" >&2
	SEGNAPUNTI_IMAGE_TEST=1 $(BIN)/python -m pytest -n 0 $(PYTEST_ARGS) \
	  tests/live/test_live_image.py tests/test_deployment.py

run: $(STAMP)
	$(BIN)/python -m service

openapi: $(STAMP)
	$(BIN)/python -m service.http.openapi

# A championship night under load (bench/locust_clubnight.py): deploy/native.sh's topology
# started, every phone of $(TABLES) tables from this one address through its proxy for 3
# minutes (30 at the tables), then stopped. bench-knee climbs 40, 80, 120… tables until the
# p99 of a hand or a poll passes 250 ms (bench/bench_clubnight.py).
TABLES ?= 40
BENCH_STAMP := $(VENV)/.bench-stamp

$(BENCH_STAMP): pyproject.toml | $(STAMP)
	$(call install_extras,test$(comma)bench)
	@touch $@

bench-clubnight: $(BENCH_STAMP) caddy
	deploy/native.sh start
	CLUBNIGHT_TABLES=$(TABLES) $(BIN)/python -m locust -f bench/locust_clubnight.py --headless \
	  --host http://127.0.0.1:8080 --users $$((4 * $(TABLES) + 3 * (($(TABLES) + 39) / 40))) --spawn-rate 40 \
	  --run-time 3m --only-summary; status=$$?; deploy/native.sh stop; exit $$status

bench-knee: $(BENCH_STAMP) caddy
	deploy/native.sh start
	$(BIN)/python bench/bench_clubnight.py --host http://127.0.0.1:8080; status=$$?; \
	  deploy/native.sh stop; exit $$status

# The room's screens on streams (bench/bench_live.py): 40 tables' phones, boards and organiser
# on streams with 1,000 spectators' streams, then the knee climbed with streams and with
# polling in turns, then (BENCH_LIVE_ARGS=--field) a field of 10 sections of 12 tables. One
# address sends every request: its rate limit and creation quotas are off for the run.
BENCH_LIVE_ARGS ?=
bench-live: $(BENCH_STAMP) caddy
	RATE_LIMIT_PER_MINUTE=0 CREATION_QUOTA_EVENTS=0 CREATION_QUOTA_GAMES=0 deploy/native.sh start
	$(BIN)/python bench/bench_live.py --host http://127.0.0.1:$${SEGNAPUNTI_PORT:-8080} \
	  --state $${SEGNAPUNTI_STATE:-var/native} $(BENCH_LIVE_ARGS); status=$$?; \
	  deploy/native.sh stop; exit $$status

lint: $(STAMP)
	$(BIN)/python -m ruff check service tests migrations

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .mypy_cache *.egg-info
