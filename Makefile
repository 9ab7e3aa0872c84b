# `make run` serves the playground; `make test` passes every test. Each sets up what it needs, and no more:
# serving needs the runtime's Python packages and the built files; the tests also need the test tools
# (pytest, playwright, ruff...), Chromium, bubblewrap and PostgreSQL. PLAYGROUND_VERIFY=1 make run also
# sets up bubblewrap, the sandbox verification runs learner code in.
# Two jobs at once: the setup steps that wait on the network or the disk (pip, npm, apt) run beside the
# ones that wait on a core (brotli, esbuild); `make -jN` sets another number.
MAKEFLAGS += --jobs=2
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 5000
PYODIDE_FILES := pyodide.mjs pyodide.asm.mjs pyodide.asm.wasm python_stdlib.zip pyodide-lock.json
# Served under a versioned URL (static/pyodide/<version>/), so browsers keep the files for good.
PYODIDE_VERSION := $(shell node -p "require('./package.json').dependencies.pyodide")
PYODIDE_DIR := static/build/pyodide/$(PYODIDE_VERSION)
# .br and .gz beside each file, made once here (brotli-11 of the wasm takes about half a minute), never per request.
COMPRESS := $(BIN)/python scripts/compress.py
# Where `make export` writes: export/ is git-ignored; DIR=/srv/backprop/site for a folder outside the repo.
DIR ?= export
WORKERS ?= 4
# What serving needs: the runtime's packages and the built files (and with verification on, the sandbox).
VERIFY_ON := $(filter 1 true True yes on,$(PLAYGROUND_VERIFY))
# The message catalogues (docs/translating.md): each language's .po compiled to the .mo the server reads.
MO := $(patsubst %.po,%.mo,$(wildcard translations/*/LC_MESSAGES/messages.po))
SERVE := $(VENV)/.installed static/build/meta.json $(PYODIDE_DIR)/.compressed $(MO) $(if $(VERIFY_ON),.sandbox)

.PHONY: messages setup serve-setup run production export test test-fast test-setup lint bench load-check clean
.DELETE_ON_ERROR:

# Everything, for the tests.
setup: serve-setup test-setup
serve-setup: $(SERVE)
test-setup: $(VENV)/.test-installed .browser .chromium .sandbox .postgres .nginx .redis

$(VENV)/.installed: requirements.lock
	@echo "make: installing the Python packages that serving needs (requirements.lock) into $(VENV)/"
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --disable-pip-version-check -r requirements.lock
	touch $@

# The test tools besides: pytest, playwright, ruff, an LTI platform, a test CA.
$(VENV)/.test-installed: $(VENV)/.installed requirements-test.lock
	@echo "make: installing the test tools (requirements-test.lock) into $(VENV)/"
	$(BIN)/pip install --quiet --disable-pip-version-check -r requirements-test.lock
	touch $@

node_modules/.installed: package.json package-lock.json
	@echo "make: installing the front-end packages (package-lock.json) into node_modules/"
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

# Bundles with content-hashed names; esbuild's metafile tells the server which name each entry got.
static/build/meta.json: node_modules/.installed $(VENV)/.installed $(shell find static/js runtime -name '*.js') $(wildcard static/css/*.css) static/favicon.svg static/build/pyodide-lock.json
	@echo "make: building the page's scripts and styles (esbuild) into static/build/assets/"
	rm -rf static/build/assets
	npm run --silent build
	$(COMPRESS) static/build/assets

# A Pyodide lock with no packages: the worker's bundle holds it (lockFileContents), so no request for it.
static/build/pyodide-lock.json: node_modules/.installed runtime/build/minimal-lock.mjs
	mkdir -p static/build
	node runtime/build/minimal-lock.mjs node_modules/pyodide/pyodide-lock.json $@

# The runtime as is; the stdlib split in two (what the first visit needs, the rest fetched when first
# imported) and compiled to .pyc by Pyodide's own Python; the lock, for loadPyodide() without it.
STDLIB_SPLIT := runtime/build/compile-stdlib.mjs runtime/build/stdlib-first-load.txt runtime/worker/lazy_stdlib.py
$(PYODIDE_DIR)/.copied: node_modules/.installed $(STDLIB_SPLIT) static/build/pyodide-lock.json
	@echo "make: copying Pyodide's files into $(PYODIDE_DIR)/, its standard library split and compiled"
	rm -rf static/build/pyodide
	mkdir -p $(PYODIDE_DIR)
	cp $(addprefix node_modules/pyodide/,$(filter-out python_stdlib.zip pyodide-lock.json,$(PYODIDE_FILES))) $(PYODIDE_DIR)/
	cp static/build/pyodide-lock.json $(PYODIDE_DIR)/
	node runtime/build/compile-stdlib.mjs node_modules/pyodide/python_stdlib.zip runtime/build/stdlib-first-load.txt $(PYODIDE_DIR)
	touch $@

$(PYODIDE_DIR)/.compressed: $(PYODIDE_DIR)/.copied $(VENV)/.installed
	@echo "make: compressing Pyodide's files, once (about half a minute: brotli at its best)"
	$(COMPRESS) $(PYODIDE_DIR)
	touch $@

# A language's catalogue compiled (fuzzy and empty messages left out: they are said in English).
translations/%/LC_MESSAGES/messages.mo: translations/%/LC_MESSAGES/messages.po $(VENV)/.installed
	$(BIN)/pybabel -q compile -i $< -o $@

# After changing a message: extract every message again (babel.cfg) into messages.pot and merge it into
# each language's .po, where a new or changed message waits (empty or fuzzy) for its translation.
messages: $(VENV)/.installed
	PYTHONPATH=. $(BIN)/pybabel -q extract -F babel.cfg -k N_ -k t -k tn:1,2 --add-location=file --sort-output --no-wrap --project="backprop playground" -o translations/messages.pot .
	$(BIN)/pybabel -q update -i translations/messages.pot -d translations --no-wrap --ignore-obsolete

# The Chromium the browser tests drive (the headless shell): its path, or empty for Playwright's own.
.browser: $(VENV)/.test-installed scripts/setup-browser.sh
	VENV=$(VENV) scripts/setup-browser.sh > $@

# The Chromium a learner has, for the benchmarks, the screenshots and the LTI tests (its contexts block
# third-party cookies, as an incognito window does): its path, or empty likewise.
.chromium: $(VENV)/.test-installed scripts/setup-browser.sh
	VENV=$(VENV) scripts/setup-browser.sh full > $@

# The sandbox /verify runs learner code in (bubblewrap; apt-get when root and missing): its path.
.sandbox: scripts/setup-sandbox.sh
	scripts/setup-sandbox.sh > $@

# PostgreSQL's server programs, for the tests of LTI state shared by several instances: their folder.
.postgres: scripts/setup-postgres.sh
	scripts/setup-postgres.sh > $@

# nginx, for the test that serves an export with the nginx block it writes: its path.
.nginx: scripts/setup-nginx.sh
	scripts/setup-nginx.sh > $@

# Redis's server, for the tests of rate limits shared by several instances: its path.
.redis: scripts/setup-redis.sh
	scripts/setup-redis.sh > $@

run: serve-setup
	@echo "make: serving the playground: open http://127.0.0.1:$(PORT)/ (Ctrl-C stops it)"
	$(BIN)/flask --app server run --host 127.0.0.1 --port $(PORT)

# Production: gunicorn, several worker processes; the app sends the same headers as `make run`.
production: serve-setup
	$(BIN)/gunicorn --workers $(WORKERS) --threads 4 --bind 127.0.0.1:$(PORT) 'server:create_app()'

# The whole site as plain files with relative URLs, for any static file server, and its nginx block:
# make export (into export/, git-ignored), or make export DIR=/srv/backprop/site
export: serve-setup
	$(BIN)/flask --app server export $(DIR) $(if $(LOCATION),--location $(LOCATION))

lint: $(VENV)/.test-installed
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

# Every test: first all but those marked alone, in TEST_PROCESSES processes (pytest-xdist's worksteal:
# each process takes a run of tests in file order and, when it is done, the end of another's run, so no
# core idles while one process finishes a long file; a module's shared pages are made in each process
# that runs its tests). One more process than cores: the tests that wait on a server or a timeout leave
# the cores to the others. Then those marked alone, away from the rest (they check what happens within a
# time limit, which a machine busy with other tests blurs), in two processes, one per core: each runs one
# test at a time, whose runaway code spins one core at most.
# Last, by itself, what keeps both cores busy for a minute or two (marked spins: a class of 30 with six endless
# loops): beside those marked alone it blurred their time limits.
TEST_PROCESSES ?= 3
test: setup lint
	$(BIN)/pytest -n $(TEST_PROCESSES) --dist worksteal -m "not alone and not spins" --durations=30
	$(BIN)/pytest -n 2 --dist load -m alone --durations=10
	$(BIN)/pytest -m spins --durations=2

# The unit tests only: the engine, the grader and the server in CPython, no browser, sandbox or server
# process (about half a minute).
test-fast: serve-setup $(VENV)/.test-installed
	$(BIN)/pytest -n 2 -m "not slow" --ignore=tests/browser

bench: setup .chromium
	$(BIN)/python -m benchmarks.load

load-check: setup
	$(BIN)/python -m benchmarks.load_check

clean:
	rm -rf $(VENV) node_modules static/build .browser .chromium .sandbox .postgres .nginx .redis
