# awl-lsp — every target bootstraps .venv from nothing.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: demo test bench lint e2e clean

$(STAMP): pyproject.toml setup.py tree-sitter-awl/src/parser.c tree-sitter-awl/src/scanner.c tree-sitter-awl/bindings/python/tree_sitter_awl/binding.c
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[test]'
	touch $@

demo: $(STAMP)
	$(PY) -m awl_lsp.demo examples

test: $(STAMP) test-extra
	$(PY) -m ruff check awl_lsp tests tree-sitter-awl/bindings bench
	$(PY) -m pytest -q tests

bench: $(STAMP)
	$(PY) bench/run.py

clean:
	rm -rf $(VENV) build *.egg-info

# Editor-specific targets (vsix, e2e, TextMate tests) live in mk/*.mk; they add to these.
test-extra::
e2e::
include $(wildcard mk/*.mk)
