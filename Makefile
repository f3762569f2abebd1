# The README's two set-up commands: `make play` and `make test`. Both create the venv themselves.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
PIP := $(PY) -m pip

.PHONY: play test test-any-day table chp bench lint notebooks venv clean lite test-lite

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --upgrade pip

venv: $(PY)

$(VENV)/.installed-test: $(PY) pyproject.toml hatch_build.py $(wildcard widgets/* widgets/*/*)
	$(PIP) install --quiet -e '.[test]'
	touch $@

$(VENV)/.installed-play: $(PY) pyproject.toml hatch_build.py $(wildcard widgets/* widgets/*/*)
	$(PIP) install --quiet -e '.[play]'
	touch $@

$(VENV)/.installed-bench: $(PY) pyproject.toml hatch_build.py $(wildcard widgets/* widgets/*/*)
	$(PIP) install --quiet -e '.[bench]'
	touch $@

# JupyterLab refuses to run as root unless told; containers often are root.
ROOT_FLAG := $(if $(filter 0,$(shell id -u)),--allow-root,)

play: $(VENV)/.installed-play
	$(VENV)/bin/jupyter lab $(ROOT_FLAG) example_notebooks

NBVAL := $(PY) -m pytest -q -p no:cacheprovider --nbval --nbval-current-env example_notebooks

test: $(VENV)/.installed-test
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy
	# the layers of DESIGN.md as import contracts (pyproject.toml [tool.importlinter])
	$(VENV)/bin/lint-imports
	# three runs: jupyter_server's test fixtures (tests/remote) and Playwright's sync API (tests/browser,
	# tests/remote_browser) each hold an event loop, which must not leak into the others' process;
	# the zero-install site's smoke test (tests/lite) is `make test-lite` (.ci/run runs both)
	$(PY) -m pytest -q -p no:cacheprovider tests --ignore=tests/remote --ignore=tests/remote_browser --ignore=tests/lite
	$(PY) -m pytest -q -p no:cacheprovider tests/remote
	$(PY) -m pytest -q -p no:cacheprovider tests/remote_browser
	# the documented way to validate any seeded notebook with strict nbval (README)
	$(NBVAL)
	$(MAKE) --no-print-directory test-any-day

# The same strict nbval on another day, in other zones and locales: an output that depends on the
# clock, the zone or the locale fails the day it is written. Both runs go side by side (2 cores).
# Debian's faketime moves the clock of every process below it, the notebook kernels included;
# without it the zones and locales are still changed (CI installs it and requires it).
FAKETIME := $(shell command -v faketime 2>/dev/null)
test-any-day: $(VENV)/.installed-test
	@if [ -z "$(FAKETIME)" ]; then \
	    if [ -n "$$GAMEKERNEL_REQUIRE_FAKETIME" ]; then echo "faketime is required (apt-get install faketime)"; exit 1; fi; \
	    echo "faketime not found: the notebooks run in other zones and locales, on today's date"; fi
	@set -e; \
	 $(if $(FAKETIME),faketime '2031-02-28 23:59:30') env TZ=Pacific/Kiritimati LC_ALL=C.UTF-8 PYTHONHASHSEED=1 \
	     $(NBVAL) > .any-day-1.log 2>&1 & one=$$!; \
	 $(if $(FAKETIME),faketime '2029-12-31 23:59:50') env TZ=America/Adak LC_ALL=C PYTHONHASHSEED=2 \
	     $(NBVAL) > .any-day-2.log 2>&1 & two=$$!; \
	 ok=0; wait $$one || ok=1; wait $$two || ok=$$((ok + 2)); \
	 echo "nbval on 2031-02-28 23:59:30 in Pacific/Kiritimati, C.UTF-8: $$(tail -n 1 .any-day-1.log)"; \
	 echo "nbval on 2029-12-31 23:59:50 in America/Adak, C: $$(tail -n 1 .any-day-2.log)"; \
	 if [ $$ok != 0 ]; then cat .any-day-1.log .any-day-2.log; fi; rm -f .any-day-1.log .any-day-2.log; \
	 test $$ok = 0

# A remote table on this machine: JupyterHub (the GM and the players sign in) with configurable-http-proxy
# from the npm registry; README "Players at their own machines". Needs GAMEKERNEL_TABLE_GM_PASSWORD (the GM's
# own; players sign up); the table folder is ./table unless GAMEKERNEL_TABLE_DIR says otherwise.
$(VENV)/.installed-table: $(PY) pyproject.toml hatch_build.py $(wildcard widgets/* widgets/*/*) $(VENV)/node/.installed
	$(PIP) install --quiet -e '.[table]'
	touch $@

# configurable-http-proxy, JupyterHub's proxy, comes from the npm registry (the remote-table tests use it too)
$(VENV)/node/.installed: $(PY)
	npm install --silent --no-audit --no-fund --prefix $(VENV)/node configurable-http-proxy@5
	touch $@

chp: $(VENV)/node/.installed

table: $(VENV)/.installed-table
	PATH="$(CURDIR)/$(VENV)/node/node_modules/.bin:$(CURDIR)/$(VENV)/bin:$$PATH" \
	    $(VENV)/bin/jupyterhub -f gamekernel/remote/hub/jupyterhub_config.py

bench: $(VENV)/.installed-bench
	$(PY) -m benchmarks

# The examples as a zero-install site (JupyterLite + Pyodide, gamekernel preloaded): every input from
# PyPI and the npm registry, pinned; the inputs are cached in the venv folder between builds. README
# "A lesson from a link" says how a teacher publishes it; `python -m gamekernel lite serve lite-site`
# previews it on 127.0.0.1.
LITE_SITE ?= lite-site
$(VENV)/.installed-lite: $(PY) pyproject.toml hatch_build.py
	$(PIP) install --quiet -e '.[lite]'
	touch $@

lite: $(VENV)/.installed-lite
	$(PY) -m gamekernel lite build example_notebooks/*.ipynb --output $(LITE_SITE) --cache $(VENV)/lite-cache

# The site's smoke test: built from the registries, served on 127.0.0.1, every example run in Chromium.
test-lite: $(VENV)/.installed-lite $(VENV)/.installed-test
	GAMEKERNEL_LITE_CACHE=$(VENV)/lite-cache $(PY) -m pytest -q -p no:cacheprovider tests/lite

# Re-execute every example notebook and save its outputs (after a change that alters what they print).
notebooks: $(VENV)/.installed-test
	$(PY) -m gamekernel.tools.execute_notebooks example_notebooks/*.ipynb

clean:
	rm -rf $(VENV) gamekernel/static .pytest_cache
