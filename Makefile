# make test: set up .venv if needed, install spidersolve with its test extra, run the checks
#            (make check: ruff lint and format, mypy) and every test.
# make run:  the same set-up, then the main job (a batch of solves and the win-rate table).
# make bench: the same set-up, then every benchmark under benchmarks/ (docs/benchmarks.md).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# the search kernel compiled ahead of time (spidersolve/search/native.py), rebuilt when a
# kernel source changes; without it (no C compiler) the search runs numba's kernels
NATIVE := $(VENV)/.native
KERNEL_SOURCES := $(wildcard spidersolve/state/*.py spidersolve/search/*.py)
# the package's bytecode, written ahead of time: where PYTHONDONTWRITEBYTECODE is set, every
# command would otherwise compile its modules again at each start (about 0.04 s of a solve);
# and the hash keys, so that a search does not import numpy.random (spidersolve/state/keys.py)
BYTECODE := $(VENV)/.bytecode
PACKAGE_SOURCES := $(shell find spidersolve -name '*.py')

.PHONY: test check run setup clean bench

setup: $(STAMP) $(NATIVE) $(BYTECODE)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

$(NATIVE): $(STAMP) $(KERNEL_SOURCES)
	$(BIN)/python -m spidersolve.search.build || echo "make: the search runs numba's kernels"
	touch $(NATIVE)

$(BYTECODE): $(STAMP) $(PACKAGE_SOURCES)
	$(BIN)/python -m compileall -q spidersolve
	$(BIN)/python -m spidersolve.state.keys
	touch $(BYTECODE)

# pytest-xdist workers: 2, the cores of the machines this is made for (a fixed number, since a
# container can list more cores than it may use); `make test TEST_WORKERS=0` runs one process
TEST_WORKERS ?= 2
test: check $(NATIVE) $(BYTECODE)
	$(BIN)/python -m pytest -q -n $(TEST_WORKERS)

# Lint, format and types; the configuration is in pyproject.toml.
check: $(STAMP)
	$(BIN)/ruff check spidersolve tests benchmarks docs
	$(BIN)/ruff format --check spidersolve tests benchmarks docs
	$(BIN)/mypy

# The main job: the first 100 deals of 1, 2 and 4 suits (Classic) at the default
# budget of 1,000,000 nodes, then the win-rate table. Resumable: a second run
# reuses results/main and only prints the table.
run: $(STAMP) $(NATIVE) $(BYTECODE)
	$(BIN)/spidersolve batch --suits 1,2,4 --deals 0:100 --out results/main
	$(BIN)/spidersolve stats results/main --budgets 10000,167000

# The benchmarks of docs/benchmarks.md with the options its tables were made
# with: about 10 minutes on 2 cores (winrates.py reuses results/bench-winrates,
# so a second run only prints its table). The honest player's win rates take
# hours on the full deal set, so HONEST sets its options: the default is a
# short run; `make bench HONEST=` runs deals 0..99 of 1, 2 and 4 suits.
HONEST ?= --suits 1 --deals 0:10
bench: $(STAMP) $(NATIVE) $(BYTECODE)
	$(BIN)/python benchmarks/perft.py
	$(BIN)/python benchmarks/solve_power.py
	$(BIN)/python benchmarks/solve_power.py --shorten
	$(BIN)/python benchmarks/hint_latency.py
	$(BIN)/python benchmarks/solve_process.py --deals 100
	$(BIN)/python benchmarks/long_lines.py
	$(BIN)/python benchmarks/hint_latency.py --suits 4 --deals 5
	$(BIN)/python benchmarks/hint_latency.py --suits 4 --deals 5 --honest
	$(BIN)/python benchmarks/winrates.py
	$(BIN)/python benchmarks/tail.py
	$(BIN)/python benchmarks/honest_winrate.py $(HONEST)

clean:
	rm -rf $(VENV) .pytest_cache
	rm -f spidersolve/search/_native*.so
