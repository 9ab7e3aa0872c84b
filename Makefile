# `make run` serves the playground; `make test` passes every test. Both set up what they need.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 5000
PYODIDE_FILES := pyodide.mjs pyodide.asm.mjs pyodide.asm.wasm python_stdlib.zip pyodide-lock.json

.PHONY: setup run test lint bench clean
.DELETE_ON_ERROR:

setup: $(VENV)/.installed static/build/main.js static/build/pyodide/.copied .browser

$(VENV)/.installed: requirements.lock
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --disable-pip-version-check -r requirements.lock
	touch $@

node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

static/build/main.js: node_modules/.installed $(wildcard static/js/*.js)
	npm run --silent build

# The runtime as is; the stdlib compiled to .pyc by Pyodide's own Python; a lock with no packages.
static/build/pyodide/.copied: node_modules/.installed scripts/compile-stdlib.mjs scripts/minimal-lock.mjs
	mkdir -p static/build/pyodide
	cd node_modules/pyodide && cp $(filter-out python_stdlib.zip pyodide-lock.json,$(PYODIDE_FILES)) ../../static/build/pyodide/
	node scripts/compile-stdlib.mjs node_modules/pyodide/python_stdlib.zip static/build/pyodide/python_stdlib.zip
	node scripts/minimal-lock.mjs node_modules/pyodide/pyodide-lock.json static/build/pyodide/pyodide-lock.json
	touch $@

# The Chromium the browser tests drive: its path, or empty for Playwright's own.
.browser: $(VENV)/.installed scripts/setup-browser.sh
	VENV=$(VENV) scripts/setup-browser.sh > $@

run: setup
	$(BIN)/flask --app server run --host 127.0.0.1 --port $(PORT)

lint: $(VENV)/.installed
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

test: setup lint
	CHROMIUM="$$(cat .browser)" $(BIN)/pytest

bench: setup
	$(BIN)/python benchmarks/load.py

clean:
	rm -rf $(VENV) node_modules static/build .browser
