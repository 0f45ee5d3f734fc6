# Two entry points for a fresh machine: `make run` (the app) and `make test`.
VENV ?= .venv
PYTHON ?= python3
BIN = $(VENV)/bin

.PHONY: install run test bench lint clean

$(BIN)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[dev]'
	touch $@

install: $(BIN)/.installed

run: install
	$(BIN)/streamlit run app.py

test: install
	$(BIN)/python -m pytest

bench: install
	$(BIN)/python bench/solver_bench.py
	$(BIN)/python bench/rounds_bench.py

lint: install
	$(BIN)/ruff check $(wildcard escoba puzzles lessons locales trainer app_pages ui tests bench) app.py

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
