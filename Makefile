# pilkku — two commands for a newcomer: `make run` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: run test lint venv clean

venv: $(STAMP)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/pilkku replay examples/demo-9ball.json

lint: $(STAMP)
	$(BIN)/ruff check rules_core hardware firmware host tests
	$(BIN)/mypy host rules_core

test: $(STAMP) lint
	$(BIN)/pytest

clean:
	rm -rf $(VENV) build *.egg-info
