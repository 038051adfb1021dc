# make test: set up .venv if needed, install spidersolve with its test extra, run every test.
# make run:  the same set-up, then the main job (a batch of solves and the win-rate table).
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

# The main job: the first 100 deals of 1, 2 and 4 suits (Classic) at the default
# budget of 1,000,000 nodes, then the win-rate table. Resumable: a second run
# reuses results/main and only prints the table.
run: $(STAMP)
	$(BIN)/spidersolve batch --suits 1,2,4 --deals 0:100 --out results/main
	$(BIN)/spidersolve stats results/main --budgets 10000,167000

clean:
	rm -rf $(VENV) .pytest_cache
