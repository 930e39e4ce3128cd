# VS Code client: the .vsix, the TextMate grammar tests and the end-to-end test in code-server.
# Included by the root Makefile. Everything bootstraps with `npm ci` from the committed lock file.
#
#   make vsix            vscode-extension/awl-<version>-<target>.vsix for this machine's platform
#                        (linux-x64, …): the extension bundled with esbuild, and the language
#                        server in bundled/libs (awl_lsp + pygls, lsprotocol, tree-sitter and the
#                        grammar binding, pip-installed from this clone's wheel)
#   make tmgrammar-test  scope assertions in vscode-extension/test/grammar/*.awl (part of `make test`)
#   make vscode-unit-test server discovery and indentation rules (node --test; part of `make test`)
#   make e2e-vscode      installs the vsix into code-server and drives it with headless Chromium
#
# e2e-vscode finds code-server as: $(AWL_CODE_SERVER) (a code-server binary, a folder holding one,
# or an installer script taking a destination folder), else `code-server` on PATH, else
# .e2e/code-server (installed there by ../shared/bin/install-code-server when that exists).

VSCODE_DIR     := vscode-extension
VSCODE_NPM     := $(VSCODE_DIR)/node_modules/.npm-ci.stamp
VSCODE_VERSION := $(shell sed -n 's/^  "version": "\([^"]*\)".*/\1/p' $(VSCODE_DIR)/package.json)
# vsce's platform name for this machine: linux-x64, linux-arm64, darwin-arm64, darwin-x64.
_vsce_Linux-x86_64   := linux-x64
_vsce_Linux-aarch64  := linux-arm64
_vsce_Darwin-arm64   := darwin-arm64
_vsce_Darwin-x86_64  := darwin-x64
VSCODE_TARGET  ?= $(or $(_vsce_$(shell uname -s)-$(shell uname -m)),unknown)
VSIX           := $(VSCODE_DIR)/awl-$(VSCODE_VERSION)-$(VSCODE_TARGET).vsix
VSCODE_BUNDLE  := $(VSCODE_DIR)/bundled/libs/.stamp
PY_SOURCES     := $(shell find awl_lsp tree-sitter-awl/bindings/python -name '*.py' -o -name '*.c' -o -name '*.txt' -o -name '*.scm') \
                  tree-sitter-awl/src/parser.c tree-sitter-awl/src/scanner.c pyproject.toml setup.py
VSIX_INPUTS    := $(wildcard $(VSCODE_DIR)/src/*.ts $(VSCODE_DIR)/syntaxes/* $(VSCODE_DIR)/snippets/*) \
                  $(VSCODE_DIR)/package.json $(VSCODE_DIR)/language-configuration.json \
                  $(VSCODE_DIR)/tsconfig.json $(VSCODE_DIR)/README.md $(VSCODE_DIR)/LICENSE \
                  $(VSCODE_DIR)/.vscodeignore
AWL_CODE_SERVER ?=
E2E_CODE_SERVER_DIR := .e2e/code-server
SHARED_CODE_SERVER_INSTALLER := ../shared/bin/install-code-server

.PHONY: vsix tmgrammar-test vscode-unit-test mermaid-test e2e-vscode

$(VSCODE_NPM): $(VSCODE_DIR)/package.json $(VSCODE_DIR)/package-lock.json
	cd $(VSCODE_DIR) && npm ci --no-audit --no-fund --loglevel=error
	touch $@

vsix: $(VSIX)

# The server for the .vsix: this clone's wheel and its dependencies, for this platform, installed
# into bundled/libs (no scripts: the extension runs `python -m awl_lsp lsp` with it on PYTHONPATH).
$(VSCODE_BUNDLE): $(STAMP) $(PY_SOURCES)
	rm -rf $(VSCODE_DIR)/bundled/libs $(VSCODE_DIR)/bundled/wheel
	$(PY) -m pip wheel -q --no-deps -w $(VSCODE_DIR)/bundled/wheel .
	$(PY) -m pip install -q --no-compile --target $(VSCODE_DIR)/bundled/libs $(VSCODE_DIR)/bundled/wheel/*.whl
	rm -rf $(VSCODE_DIR)/bundled/wheel $(VSCODE_DIR)/bundled/libs/bin
	find $(VSCODE_DIR)/bundled/libs -name __pycache__ -prune -exec rm -rf {} +
	touch $@

$(VSIX): $(VSCODE_NPM) $(VSIX_INPUTS) $(VSCODE_BUNDLE)
	rm -f $(VSCODE_DIR)/*.vsix
	cd $(VSCODE_DIR) && npm run --silent package -- --target $(VSCODE_TARGET) -o $(notdir $@)

tmgrammar-test: $(VSCODE_NPM)
	cd $(VSCODE_DIR) && ./node_modules/.bin/vscode-tmgrammar-test -g syntaxes/awl.tmLanguage.json 'test/grammar/*.awl'

vscode-unit-test: $(VSCODE_NPM)
	cd $(VSCODE_DIR) && npm run --silent test:unit

# Mermaid's own parser (npm) must accept `awl graph --format mermaid` for every document we have.
mermaid-test: $(STAMP) $(VSCODE_NPM)
	cd $(VSCODE_DIR) && AWL="$(CURDIR)/$(VENV)/bin/awl" node --test --test-reporter=dot test/mermaid/parse.test.mjs

test-extra:: tmgrammar-test vscode-unit-test mermaid-test

e2e:: e2e-vscode

e2e-vscode: $(STAMP) $(VSIX)
	@set -e; cs=""; given="$(AWL_CODE_SERVER)"; \
	if [ -n "$$given" ]; then \
	  if [ -d "$$given" ]; then \
	    for c in "$$given/node_modules/.bin/code-server" "$$given/bin/code-server"; do \
	      if [ -z "$$cs" ] && [ -x "$$c" ]; then cs="$$c"; fi; done; \
	  else case "$$(basename "$$given")" in \
	    install*) bash "$$given" "$(E2E_CODE_SERVER_DIR)"; \
	              cs="$(CURDIR)/$(E2E_CODE_SERVER_DIR)/node_modules/.bin/code-server";; \
	    *) cs="$$given";; \
	  esac; fi; \
	  if [ ! -x "$$cs" ] && ! command -v "$$cs" >/dev/null 2>&1; then \
	    echo "e2e-vscode: AWL_CODE_SERVER=$$given gives no code-server executable" >&2; exit 1; fi; \
	elif command -v code-server >/dev/null 2>&1; then cs="$$(command -v code-server)"; \
	elif [ -x "$(E2E_CODE_SERVER_DIR)/node_modules/.bin/code-server" ]; then \
	  cs="$(CURDIR)/$(E2E_CODE_SERVER_DIR)/node_modules/.bin/code-server"; \
	elif [ -f "$(SHARED_CODE_SERVER_INSTALLER)" ]; then \
	  echo "e2e-vscode: installing code-server into $(E2E_CODE_SERVER_DIR)"; \
	  bash "$(SHARED_CODE_SERVER_INSTALLER)" "$(E2E_CODE_SERVER_DIR)"; \
	  cs="$(CURDIR)/$(E2E_CODE_SERVER_DIR)/node_modules/.bin/code-server"; \
	else \
	  echo "e2e-vscode: SKIPPED: no code-server (set AWL_CODE_SERVER, put code-server on PATH," \
	       "or provide $(SHARED_CODE_SERVER_INSTALLER))"; $(SKIP_EXIT); \
	fi; \
	if [ ! -x /usr/bin/chromium ] && [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	  echo "e2e-vscode: installing Debian's chromium"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium >/dev/null; \
	fi; \
	echo "e2e-vscode: code-server $$cs"; \
	node tests/e2e/vscode/run.mjs --code-server "$$cs" --vsix "$(CURDIR)/$(VSIX)"
