# `make run` serves the playground; `make test` passes every test. Both set up what they need.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 5000
PYODIDE_FILES := pyodide.mjs pyodide.asm.mjs pyodide.asm.wasm python_stdlib.zip pyodide-lock.json
# Served under a versioned URL (static/pyodide/<version>/), so browsers keep the files for good.
PYODIDE_VERSION := $(shell node -p "require('./package.json').dependencies.pyodide")
PYODIDE_DIR := static/build/pyodide/$(PYODIDE_VERSION)
# .br and .gz beside each file, made once here (brotli-11 of the wasm takes most of a minute), never per request.
COMPRESS := $(BIN)/python -m whitenoise.compress --quiet
DIR ?= export
WORKERS ?= 4

.PHONY: setup run production export test lint bench load-check clean
.DELETE_ON_ERROR:

setup: $(VENV)/.installed static/build/meta.json $(PYODIDE_DIR)/.compressed .browser .sandbox .postgres .redis

$(VENV)/.installed: requirements.lock
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --disable-pip-version-check -r requirements.lock
	touch $@

node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

# Bundles with content-hashed names; esbuild's metafile tells the server which name each entry got.
static/build/meta.json: node_modules/.installed $(VENV)/.installed $(shell find static/js -name '*.js') $(wildcard static/css/*.css) static/favicon.svg static/build/pyodide-lock.json
	rm -rf static/build/assets
	npm run --silent build
	$(COMPRESS) static/build/assets br gz

# A Pyodide lock with no packages: the worker's bundle holds it (lockFileContents), so no request for it.
static/build/pyodide-lock.json: node_modules/.installed scripts/minimal-lock.mjs
	mkdir -p static/build
	node scripts/minimal-lock.mjs node_modules/pyodide/pyodide-lock.json $@

# The runtime as is; the stdlib split in two (what the first visit needs, the rest fetched when first
# imported) and compiled to .pyc by Pyodide's own Python; the lock, for loadPyodide() without it.
STDLIB_SPLIT := scripts/compile-stdlib.mjs scripts/stdlib-first-load.txt static/js/worker/lazy_stdlib.py
$(PYODIDE_DIR)/.copied: node_modules/.installed $(STDLIB_SPLIT) static/build/pyodide-lock.json
	rm -rf static/build/pyodide
	mkdir -p $(PYODIDE_DIR)
	cp $(addprefix node_modules/pyodide/,$(filter-out python_stdlib.zip pyodide-lock.json,$(PYODIDE_FILES))) $(PYODIDE_DIR)/
	cp static/build/pyodide-lock.json $(PYODIDE_DIR)/
	node scripts/compile-stdlib.mjs node_modules/pyodide/python_stdlib.zip scripts/stdlib-first-load.txt $(PYODIDE_DIR)
	touch $@

$(PYODIDE_DIR)/.compressed: $(PYODIDE_DIR)/.copied $(VENV)/.installed
	$(COMPRESS) $(PYODIDE_DIR) br gz
	touch $@

# The Chromium the browser tests drive: its path, or empty for Playwright's own.
.browser: $(VENV)/.installed scripts/setup-browser.sh
	VENV=$(VENV) scripts/setup-browser.sh > $@

# The sandbox /verify runs learner code in (bubblewrap; apt-get when root and missing): its path.
.sandbox: scripts/setup-sandbox.sh
	scripts/setup-sandbox.sh > $@

# PostgreSQL's server programs, for the tests of LTI state shared by several instances: their folder.
.postgres: scripts/setup-postgres.sh
	scripts/setup-postgres.sh > $@

# Redis's server, for the tests of rate limits shared by several instances: its path.
.redis: scripts/setup-redis.sh
	scripts/setup-redis.sh > $@

run: setup
	$(BIN)/flask --app server run --host 127.0.0.1 --port $(PORT)

# Production: gunicorn, several worker processes; the app sends the same headers as `make run`.
production: setup
	$(BIN)/gunicorn --workers $(WORKERS) --threads 4 --bind 127.0.0.1:$(PORT) 'server:create_app()'

# The whole site as plain files with relative URLs, for any static file server: make export DIR=site
export: setup
	$(BIN)/flask --app server export $(DIR)

lint: $(VENV)/.installed
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

test: setup lint
	CHROMIUM="$$(cat .browser)" $(BIN)/pytest

bench: setup
	$(BIN)/python benchmarks/load.py

load-check: setup
	$(BIN)/python benchmarks/load_check.py

clean:
	rm -rf $(VENV) node_modules static/build .browser .sandbox .postgres .redis
