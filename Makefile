# Two commands matter: `make run` (set up and start the bot) and `make test`.
# Without make: see README, "Without make".
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# a Python that is 3.11 or newer exits 0 from this check
IS_311 := -c 'import sys; sys.exit(sys.version_info < (3, 11))'
# the first Python >= 3.11 among these (override: make PYTHON=/path/to/python3.12 ...)
PYTHON ?= $(shell for p in python3.13 python3.12 python3.11 python3; do \
	command -v $$p >/dev/null 2>&1 && $$p $(IS_311) 2>/dev/null && { echo $$p; break; }; done)

.PHONY: run test test-fast lint bench clean local

# .venv is rebuilt when its interpreter is missing, unusable or older than 3.11 (e.g. a first
# try with Python 3.10 left one behind), not only when pyproject.toml changed
ifneq ($(shell $(BIN)/python $(IS_311) 2>/dev/null && echo ok),ok)
.PHONY: $(STAMP)
endif

$(STAMP): pyproject.toml
	@if [ -z "$(PYTHON)" ] || ! $(PYTHON) $(IS_311) 2>/dev/null; then \
		echo "error: Passepartout needs Python 3.11 or newer; found none (tried python3.13, python3.12," \
		     "python3.11, python3$(if $(PYTHON), and $(PYTHON))). Install one, or name it: make PYTHON=/path/to/python3.11" >&2; \
		exit 1; fi
	@if [ -e $(VENV) ] && ! $(BIN)/python $(IS_311) 2>/dev/null; then \
		echo "$(VENV) has no usable Python 3.11+: building it again with $(PYTHON)"; rm -rf $(VENV); fi
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/python -m bot

local: $(STAMP)
	$(BIN)/python -m bot.local

# the one full test command (CI calls it)
test: $(STAMP)
	$(BIN)/ruff check engine render bot tests bench
	$(BIN)/mypy
	$(BIN)/python -m pytest -q -n 2

# the edit loop: everything but the whole games (tests marked `wholegame`); `pytest --lf` reruns failures
test-fast: $(STAMP)
	$(BIN)/ruff check engine render bot tests bench
	$(BIN)/mypy
	$(BIN)/python -m pytest -q -n 2 -m "not wholegame"

# every benchmark with its small default sizes (the whole loop stays under ~3 minutes);
# a benchmark's own options (e.g. `--rev REV` for an interleaved A/B run) are for running it alone
bench: $(STAMP)
	@for b in bench/bench_*.py; do \
		echo "== $$b"; start=$$(date +%s); \
		$(BIN)/python $$b || exit 1; \
		echo "   ($$b: $$(( $$(date +%s) - start )) s)"; \
	done

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache
