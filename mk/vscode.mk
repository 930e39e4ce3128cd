# VS Code client: the .vsix, the TextMate grammar tests and the end-to-end test in code-server.
# Included by the root Makefile. Everything bootstraps with `npm ci` from the committed lock file.
#
#   make vsix            vscode-extension/awl-<version>.vsix (bundled; needs no node_modules)
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
VSIX           := $(VSCODE_DIR)/awl-$(VSCODE_VERSION).vsix
VSIX_INPUTS    := $(wildcard $(VSCODE_DIR)/src/*.ts $(VSCODE_DIR)/syntaxes/* $(VSCODE_DIR)/snippets/*) \
                  $(VSCODE_DIR)/package.json $(VSCODE_DIR)/language-configuration.json \
                  $(VSCODE_DIR)/tsconfig.json $(VSCODE_DIR)/README.md $(VSCODE_DIR)/LICENSE \
                  $(VSCODE_DIR)/.vscodeignore
AWL_CODE_SERVER ?=
E2E_CODE_SERVER_DIR := .e2e/code-server
SHARED_CODE_SERVER_INSTALLER := ../shared/bin/install-code-server

.PHONY: vsix tmgrammar-test vscode-unit-test e2e-vscode

$(VSCODE_NPM): $(VSCODE_DIR)/package.json $(VSCODE_DIR)/package-lock.json
	cd $(VSCODE_DIR) && npm ci --no-audit --no-fund --loglevel=error
	touch $@

vsix: $(VSIX)

$(VSIX): $(VSCODE_NPM) $(VSIX_INPUTS)
	rm -f $(VSCODE_DIR)/*.vsix
	cd $(VSCODE_DIR) && npm run --silent package

tmgrammar-test: $(VSCODE_NPM)
	cd $(VSCODE_DIR) && ./node_modules/.bin/vscode-tmgrammar-test -g syntaxes/awl.tmLanguage.json 'test/grammar/*.awl'

vscode-unit-test: $(VSCODE_NPM)
	cd $(VSCODE_DIR) && npm run --silent test:unit

test-extra:: tmgrammar-test vscode-unit-test

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
	node tests/e2e/vscode/run.mjs --code-server "$$cs" --vsix "$(CURDIR)/$(VSIX)" --server "$(CURDIR)/$(VENV)/bin/awl"
