# awl-lsp — every target bootstraps .venv from nothing.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: demo test bench lint e2e clean dist dist-check

$(STAMP): pyproject.toml setup.py tree-sitter-awl/src/parser.c tree-sitter-awl/src/scanner.c tree-sitter-awl/bindings/python/tree_sitter_awl/binding.c
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	# setuptools' notice about editable installs of a package spread over two folders is not a problem here.
	PYTHONWARNINGS="ignore:Editable installation" $(PY) -m pip install -q -e '.[test]'
	touch $@

demo: $(STAMP)
	$(PY) -m awl_lsp.server.demo examples

test: $(STAMP) test-extra
	$(PY) -m ruff check awl_lsp tests tree-sitter-awl/bindings bench tools
	$(PY) -m ruff format --check awl_lsp tests tree-sitter-awl/bindings bench tools
	$(PY) -m mypy
	$(PY) -m pytest -q -rs tests

# The wheel (cp311-abi3) and the sdist, into dist/.
dist: $(STAMP)
	$(PY) -m build --outdir dist .

# Builds both, installs each into a fresh venv in a temporary folder and runs `awl` from there.
dist-check: $(STAMP)
	.ci/dist-check $(PY) $(PYTHON)

bench: $(STAMP)
	$(PY) bench/run.py

clean:
	rm -rf $(VENV) build dist *.egg-info

# A real-editor test that cannot run prints SKIPPED and passes, unless AWL_REQUIRE_EDITORS=1
# (set by .ci/run): then the skip is a failure.
AWL_REQUIRE_EDITORS ?=
SKIP_EXIT = { if [ "$(AWL_REQUIRE_EDITORS)" = 1 ]; then \
  echo "AWL_REQUIRE_EDITORS=1: a skipped editor test fails the run" >&2; exit 1; else exit 0; fi; }

# Editor-specific targets (vsix, e2e, TextMate tests) live in mk/*.mk; they add to these.
test-extra::
e2e::
include $(wildcard mk/*.mk)
