# make test: set up .venv if needed, install spidersolve with its test extra, run every test.
# make run:  the same set-up, then the main job.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: test run setup clean bench

setup: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

test: $(STAMP)
	$(BIN)/python -m pytest -q

run: $(STAMP)
	$(BIN)/spidersolve deal SP1-S1C-AAAAAAD
	$(BIN)/spidersolve actions SP1-S1C-AAAAAAD

clean:
	rm -rf $(VENV) .pytest_cache
