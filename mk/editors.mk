# Neovim, Helix and Emacs clients (editors/): the Neovim parser build and the headless e2e tests.
# Included by the root Makefile.
#
#   make nvim-parser   editors/nvim/parser/awl.so from tree-sitter-awl/src (what :AwlBuildParser does)
#   make e2e-nvim      real Neovim (>= 0.10) + real `awl lsp`: tests/e2e/nvim/e2e.lua, then
#                      tests/e2e/nvim/ts_register.lua (a parser installed nvim-treesitter's way)
#   make e2e-nvim-new  the same on the newest Neovim (>= 0.11), the server via vim.lsp.enable("awl"):
#                      $(AWL_NVIM_NEW), else `AWL_NVIM_SUITE=sid ../shared/bin/nvim` (0.12)
#   make e2e-emacs     Emacs + eglot smoke test: editors/emacs/test/awl-eglot-smoke.el, then the
#                      README's init.el snippet under `emacs -q` (editors/emacs/test/init-snippet.sh)
#
# e2e-nvim finds Neovim as: $(AWL_NVIM), else `nvim` on PATH when it is >= 0.10, else
# ../shared/bin/nvim when that exists; it is skipped with a message when the one found is not
# Neovim >= 0.10 (Debian bookworm's own nvim is 0.7) or there is none.
# e2e-emacs uses $(AWL_EMACS), else `emacs` on PATH, and is skipped when there is none or when
# eglot is not installed (Emacs 29+ has it built in; Debian bookworm: apt-get install elpa-eglot).

AWL_NVIM        ?=
AWL_NVIM_NEW    ?=
AWL_EMACS       ?=
SHARED_NVIM     := ../shared/bin/nvim
NVIM_PLUGIN_DIR := editors/nvim
NVIM_PARSER     := $(NVIM_PLUGIN_DIR)/parser/awl.so
TS_AWL_SRC      := tree-sitter-awl/src
CC              ?= cc

.PHONY: nvim-parser e2e-nvim e2e-nvim-new e2e-emacs

nvim-parser: $(NVIM_PARSER)

$(NVIM_PARSER): $(TS_AWL_SRC)/parser.c $(TS_AWL_SRC)/scanner.c
	mkdir -p $(dir $@)
	$(CC) -shared -fPIC -O2 -I $(TS_AWL_SRC) $^ -o $@.tmp && mv $@.tmp $@

e2e:: e2e-nvim e2e-nvim-new e2e-emacs

# nvim_ok NVIM: exit 0 when NVIM runs and is Neovim >= 0.10.
NVIM_OK = nvim_ok() { v="$$("$$1" --version 2>/dev/null | sed -n '1s/^NVIM v\([0-9]*\)\.\([0-9]*\).*/\1 \2/p')"; [ -n "$$v" ] && set -- $$v && { [ "$$1" -gt 0 ] || [ "$$2" -ge 10 ]; }; }

e2e-nvim: $(STAMP)
	@set -e; $(NVIM_OK); nv=""; given="$(AWL_NVIM)"; \
	if [ -n "$$given" ]; then \
	  if ! nvim_ok "$$given"; then \
	    echo "e2e-nvim: SKIPPED: AWL_NVIM=$$given is not Neovim >= 0.10 ($$("$$given" --version 2>&1 | head -n 1))"; \
	    $(SKIP_EXIT); fi; \
	  nv="$$given"; \
	elif command -v nvim >/dev/null 2>&1 && nvim_ok nvim; then nv="$$(command -v nvim)"; \
	elif [ -x "$(SHARED_NVIM)" ] && nvim_ok "$(SHARED_NVIM)"; then nv="$(SHARED_NVIM)"; \
	else \
	  echo "e2e-nvim: SKIPPED: no Neovim >= 0.10 (nvim on PATH is $$(command -v nvim >/dev/null 2>&1 && nvim --version 2>/dev/null | head -n 1 || echo absent);" \
	       "set AWL_NVIM to a Neovim 0.10+ binary)"; $(SKIP_EXIT); \
	fi; \
	echo "e2e-nvim: $$nv ($$("$$nv" --version 2>/dev/null | head -n 1))"; \
	AWL_REPO="$(CURDIR)" AWL_SERVER="$(CURDIR)/$(VENV)/bin/awl" \
	  timeout 600 "$$nv" --headless --clean -u NONE -i NONE -n -l tests/e2e/nvim/e2e.lua; \
	AWL_REPO="$(CURDIR)" timeout 300 "$$nv" --headless --clean -u NONE -i NONE -n -l tests/e2e/nvim/ts_register.lua

e2e-nvim-new: $(STAMP)
	@set -e; given="$(AWL_NVIM_NEW)"; \
	if [ -n "$$given" ]; then set -- "$$given"; \
	elif [ -x "$(SHARED_NVIM)" ]; then set -- env AWL_NVIM_SUITE=sid "$(SHARED_NVIM)"; \
	else echo "e2e-nvim-new: SKIPPED: no Neovim >= 0.11 (set AWL_NVIM_NEW)"; $(SKIP_EXIT); fi; \
	v="$$("$$@" --version 2>/dev/null | sed -n '1s/^NVIM v\([0-9]*\)\.\([0-9]*\).*/\1 \2/p')"; \
	if [ -z "$$v" ] || { [ "$${v% *}" = 0 ] && [ "$${v#* }" -lt 11 ]; }; then \
	  echo "e2e-nvim-new: SKIPPED: $$* is not Neovim >= 0.11 ($$v)"; $(SKIP_EXIT); fi; \
	echo "e2e-nvim-new: $$* ($$("$$@" --version 2>/dev/null | head -n 1))"; \
	AWL_REPO="$(CURDIR)" AWL_SERVER="$(CURDIR)/$(VENV)/bin/awl" \
	  timeout 600 "$$@" --headless --clean -u NONE -i NONE -n -l tests/e2e/nvim/e2e.lua; \
	AWL_REPO="$(CURDIR)" timeout 300 "$$@" --headless --clean -u NONE -i NONE -n -l tests/e2e/nvim/ts_register.lua

e2e-emacs: $(STAMP)
	@set -e; em="$(AWL_EMACS)"; \
	if [ -z "$$em" ]; then \
	  if command -v emacs >/dev/null 2>&1; then em="$$(command -v emacs)"; \
	  else echo "e2e-emacs: SKIPPED: no emacs (apt-get install emacs-nox elpa-eglot, or set AWL_EMACS)"; $(SKIP_EXIT); fi; \
	fi; \
	if ! "$$em" --batch --eval "(require 'eglot)" >/dev/null 2>&1; then \
	  echo "e2e-emacs: SKIPPED: $$em has no eglot (Emacs 29+, or apt-get install elpa-eglot)"; $(SKIP_EXIT); fi; \
	echo "e2e-emacs: $$("$$em" --version | head -n 1)"; \
	AWL_REPO="$(CURDIR)" AWL_SERVER="$(CURDIR)/$(VENV)/bin/awl" \
	  timeout 300 "$$em" --batch -l editors/emacs/test/awl-eglot-smoke.el; \
	editors/emacs/test/init-snippet.sh "$$em" "$(CURDIR)" "$(CURDIR)/$(VENV)/bin/awl"
