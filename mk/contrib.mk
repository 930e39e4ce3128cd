# Generators for contributors (CONTRIBUTING.md). Included by the root Makefile.
#
#   make grammar    regenerate tree-sitter-awl/src from grammar.js with the pinned CLI (0.22.6,
#                   --no-bindings) and rebuild the Python binding; the CLI is $(AWL_TREE_SITTER),
#                   else ../shared/bin/tree-sitter, else tree-sitter on PATH
#   make keywords   rewrite the editors' keyword lists (highlights.scm, the TextMate grammar, the
#                   VS Code indentation rule, the Emacs mode, the Neovim indent) from the keyword
#                   table awl_lsp/reference/keywords.py; `tests/test_keywords.py` fails until it is run
#   make new-rule NAME=word_word [KIND=workflow|workloop] [NODE=node_type]
#                   a checker rule module awl_lsp/checks/rules_NAME.py from the template, registered
#                   in awl_lsp/checks/__init__.py, with its test (tests/test_rules_NAME.py) and a valid
#                   and an invalid document of KIND with a sidecar (tests/data/checks/NAME/)

NAME   ?=
KIND   ?=
NODE   ?=

TREE_SITTER_PIN := 0.22.6
TS_CLI := $(or $(AWL_TREE_SITTER),$(if $(wildcard ../shared/bin/tree-sitter),$(abspath ../shared/bin/tree-sitter)),tree-sitter)

.PHONY: grammar keywords new-rule

grammar:
	@v="$$($(TS_CLI) --version 2>/dev/null)"; case "$$v" in \
	  "tree-sitter $(TREE_SITTER_PIN)"*) ;; \
	  *) echo "make grammar: $(TS_CLI) is '$$v', not tree-sitter $(TREE_SITTER_PIN) (set AWL_TREE_SITTER)" >&2; exit 2;; \
	esac
	cd tree-sitter-awl && $(TS_CLI) generate --no-bindings
	$(MAKE) --no-print-directory $(STAMP)

keywords: $(STAMP)
	$(PY) tools/gen_keywords.py

new-rule: $(STAMP)
	@test -n "$(NAME)" || { echo "make new-rule: say the rule's name: make new-rule NAME=quiet_once" >&2; exit 2; }
	$(PY) tools/new_rule.py "$(NAME)" $(if $(KIND),--kind "$(KIND)") $(if $(NODE),--node "$(NODE)")
