# The README's two set-up commands: `make play` and `make test`. Both create the venv themselves.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
PIP := $(PY) -m pip

.PHONY: play test bench lint notebooks venv clean

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --upgrade pip

venv: $(PY)

$(VENV)/.installed-test: $(PY) pyproject.toml hatch_build.py $(wildcard widgets/*)
	$(PIP) install --quiet -e '.[test]'
	touch $@

$(VENV)/.installed-play: $(PY) pyproject.toml hatch_build.py $(wildcard widgets/*)
	$(PIP) install --quiet -e '.[play]'
	touch $@

$(VENV)/.installed-bench: $(PY) pyproject.toml hatch_build.py $(wildcard widgets/*)
	$(PIP) install --quiet -e '.[bench]'
	touch $@

# JupyterLab refuses to run as root unless told; containers often are root.
ROOT_FLAG := $(if $(filter 0,$(shell id -u)),--allow-root,)

play: $(VENV)/.installed-play
	$(VENV)/bin/jupyter lab $(ROOT_FLAG) example_notebooks

test: $(VENV)/.installed-test
	$(VENV)/bin/ruff check .
	$(PY) -m pytest -q -p no:cacheprovider tests
	# the documented way to validate any seeded notebook with strict nbval (README)
	$(PY) -m pytest -q -p no:cacheprovider --nbval --nbval-current-env example_notebooks

bench: $(VENV)/.installed-bench
	$(PY) -m benchmarks

# Re-execute every example notebook and save its outputs (after a change that alters what they print).
notebooks: $(VENV)/.installed-test
	$(PY) -m gamekernel.tools.execute_notebooks example_notebooks/*.ipynb

clean:
	rm -rf $(VENV) gamekernel/static .pytest_cache
