# realmsim — two commands for a new machine:
#   make demo   installs everything and runs the main job on the default scenario
#   make test   installs everything and runs the whole test suite
# Both find a Python >= 3.12 by themselves (tools/find-python) and build .venv.

VENV    ?= .venv
PY      := $(VENV)/bin/python
STAMP   := $(VENV)/.installed
PYTEST_ARGS ?=

.PHONY: demo test test-fast install lint bench clean clause-gate bytecode

$(STAMP): pyproject.toml
	@PYBIN=$$(tools/find-python) || exit 1; \
	if [ ! -x $(PY) ]; then echo "creating $(VENV) with $$PYBIN"; $$PYBIN -m venv $(VENV) || exit 1; fi
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	@touch $(STAMP)

install: $(STAMP) bytecode

# the project's modules byte-compiled once: a process whose environment says not to write bytecode
# (PYTHONDONTWRITEBYTECODE, a read-only checkout) would otherwise compile some 140 modules each time it
# starts (0.3 s of CPU, docs/performance.md); a module edited since is compiled again as usual
bytecode: $(STAMP)
	@$(PY) -m compileall -q sim agents scenarios workers

demo: $(STAMP) bytecode
	$(VENV)/bin/realmsim run

test: $(STAMP) bytecode
	$(PY) -m pytest $(PYTEST_ARGS)

# the clause coverage gate: every RULES.md clause executed by a test that names it (tests/clause_gate.py)
clause-gate: $(STAMP)
	$(PY) -m pytest -q -p tests.clause_gate -m rule

# the edit loop: tests not marked slow (full campaigns, servers, long property runs), stop at the first failure
test-fast: $(STAMP) bytecode
	$(PY) -m pytest -m "not slow" -x -q $(PYTEST_ARGS)

lint: $(STAMP)
	$(VENV)/bin/ruff check sim agents scenarios workers tests bench
	$(VENV)/bin/mypy

bench: $(STAMP) bytecode
	for b in bench/bench_*.py; do echo "== $$b"; $(PY) $$b || exit 1; done

clean:
	rm -rf $(VENV) .pytest_cache build *.egg-info
