# Two entry points for a fresh machine: `make run` (the app) and `make test`.
VENV ?= .venv
PYTHON ?= python3
BIN = $(VENV)/bin

.PHONY: install run dev serve-network test bench lint clean fast pure test-compiled

$(BIN)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[dev]'
	touch $@

install: $(BIN)/.installed

run: install
	$(BIN)/streamlit run serve.py

# For programmers editing the app: pages rerun when a file is saved. The app ships with
# no file watcher (.streamlit/config.toml): it costs every new visitor's first page.
dev: install
	$(BIN)/streamlit run app.py --server.fileWatcherType auto --server.runOnSave true

# Tablets on the home or school network can open the app: every profile on this
# computer becomes reachable from that network (protect profiles with a PIN).
serve-network: install
	$(BIN)/streamlit run serve.py --server.address 0.0.0.0 \
		--browser.serverAddress "$$(hostname -I | cut -d' ' -f1)"

# Whole test files run in TEST_WORKERS processes (pytest-xdist): a file's server and
# browser fixtures stay in one worker. TEST_WORKERS=0 runs everything in this process.
TEST_WORKERS ?= 2

test: install
	$(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadfile

# The optional compiled core (issue 17, docs/BENCHMARKS.md): the engine's hot modules
# through mypyc, built in place next to their .py (needs a C compiler). Without it, or if
# the build fails, the engine runs in pure Python. Rebuild after editing those modules.
fast: install
	$(BIN)/pip install -q -e '.[dev,compiled]'
	$(BIN)/python bench/compile_engine.py

pure:
	$(PYTHON) bench/compile_engine.py --clean

# CI's second engine run: the engine tests with the core compiled, then pure Python again.
ENGINE_TESTS = tests/test_game.py tests/test_solver.py tests/test_record.py \
	tests/test_simulate_golden.py tests/test_illegal_moves.py tests/test_properties.py \
	tests/test_worked_examples.py tests/test_board_view.py tests/test_engine_isolation.py \
	tests/test_compiled_core.py tests/test_simulation_loop.py tests/test_scopa.py

# The rows-against-brute-force property (300 random tables, every count vector of each
# up to the largest target, the brute force in test code) runs in the pure suite;
# compiled, the solver is checked against brute force by the captures and subsets
# properties.
COMPILED_SKIP = --deselect tests/test_solver.py::test_solution_cells_and_rows_equal_brute_force

test-compiled: install
	$(BIN)/pip install -q -e '.[dev,compiled]'
	$(BIN)/python bench/compile_engine.py --strict
	ESCOBA_REQUIRE_COMPILED=1 $(BIN)/python -m pytest $(ENGINE_TESTS) $(COMPILED_SKIP); \
	status=$$?; $(BIN)/python bench/compile_engine.py --clean; exit $$status

# The board in Chromium (bench/board_browser_bench.py, about 75 s) runs when the
# browser is there (ESCOBA_CHROMIUM, default /usr/bin/chromium).
CHROMIUM ?= $(or $(ESCOBA_CHROMIUM),/usr/bin/chromium)

bench: install
	$(BIN)/python bench/solver_bench.py
	$(BIN)/python bench/rounds_bench.py
	@if [ -x "$(CHROMIUM)" ]; then $(BIN)/python bench/board_browser_bench.py; \
	else echo "bench/board_browser_bench.py skipped: no browser at $(CHROMIUM)"; fi

lint: install
	$(BIN)/ruff check $(wildcard escoba commands puzzles lessons locales trainer app_pages ui tests bench deploy) app.py serve.py

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis build/mypyc escoba/*.so
