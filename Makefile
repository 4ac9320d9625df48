# pilkku — two commands for a newcomer: `make run` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

MPY_STUBS := $(VENV)/mpy-stubs

.PHONY: run test lint typecheck venv clean bench mutants pico-npm formats-nightly

venv: $(STAMP)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	$(MAKE) --no-print-directory pico-npm
	touch $(STAMP)

# The emulated Pico (docs/pico.md) runs on rp2040js, pinned in host/board/pico/package-lock.json.
PICO_NPM := host/board/pico
pico-npm:
	@if command -v npm >/dev/null; then \
	  npm ci --prefix $(PICO_NPM) --no-audit --no-fund --silent; \
	else \
	  echo "make: no npm here: skipping rp2040js, the emulated Pico's tests will skip"; \
	fi

run: $(STAMP)
	$(BIN)/pilkku sim

# MicroPython's stubs live in folders of their own so they never meet the host's typeshed.
$(MPY_STUBS)/.installed: $(STAMP)
	$(BIN)/pip install --quiet --target $(MPY_STUBS)/rp2 'micropython-rp2-stubs==1.29.*'
	$(BIN)/pip install --quiet --target $(MPY_STUBS)/esp32 'micropython-esp32-stubs==1.29.*'
	touch $@

lint: $(STAMP)
	$(BIN)/ruff check rules_core hardware firmware host tests

typecheck: $(MPY_STUBS)/.installed
	MYPYPATH=$(MPY_STUBS)/rp2 $(BIN)/mypy --config-file mypy-micropython.ini \
	  --custom-typeshed-dir $(MPY_STUBS)/rp2 --cache-dir .mypy_cache/rp2 \
	  --exclude 'hardware/boards/esp32\.py' hardware firmware rules_core
	MYPYPATH=$(MPY_STUBS)/esp32 $(BIN)/mypy --config-file mypy-micropython.ini \
	  --custom-typeshed-dir $(MPY_STUBS)/esp32 --cache-dir .mypy_cache/esp32 \
	  hardware/boards/esp32.py
	$(BIN)/mypy --cache-dir .mypy_cache/host host rules_core

# Two workers (pytest-xdist): every emulated Pico test on one (tests/pico/conftest.py), the
# rest shared; the Pico's waits are in its own clock, the others' bounded by their events.
TEST_WORKERS ?= 2
test: $(STAMP) lint typecheck
	$(BIN)/pytest -n $(TEST_WORKERS) --dist loadgroup

# Speed, memory, flash and bytes on the real firmware (docs/performance.md); a few minutes.
bench: $(STAMP)
	$(BIN)/pilkku bench

# Mutation testing (docs/testing.md): slow, not in CI. Module by module on one core;
# GROUPS=... picks groups or modules (tests/mutants.py: rules, journal, sync, results).
GROUPS ?=
mutants: $(STAMP)
	$(BIN)/pip install --quiet -e '.[dev,mutants]'
	$(BIN)/python tests/mutants.py $(GROUPS)

# The tournament formats' property tests with thousands of cases each (docs/testing.md):
# hours, not in CI, which tries a few cases of each.
formats-nightly: $(STAMP)
	HYPOTHESIS_PROFILE=nightly nice -n 10 $(BIN)/pytest -q \
	  tests/host/test_formats_properties.py tests/host/test_formats_double.py

clean:
	rm -rf $(VENV) build *.egg-info mutants
