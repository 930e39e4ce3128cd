"""The table of AWL's keywords: every word, its class, and the documents it belongs to.

`TABLE` is the one list of the language's words. The keyword catalog (`catalog.py`: hover, completion,
`awl guide`) takes its words, their order, their form and their document kinds from here, and
`tools/gen_keywords.py` (`make keywords`) writes the editor clients' word lists from it:

- `tree-sitter-awl/queries/highlights.scm` (Neovim and the Python binding link to it; Helix's copy is
  made from it by `editors/helix/install.sh`), between `; BEGIN generated …` / `; END generated …`;
- `vscode-extension/syntaxes/awl.tmLanguage.json`: the repository entries `keywords` and `types`;
- `vscode-extension/language-configuration.json`: `indentationRules.increaseIndentPattern`;
- `editors/emacs/awl-mode.el`, between `;; BEGIN generated …` / `;; END generated …`;
- `editors/nvim/lua/awl/indent.lua`, between `-- BEGIN generated …` / `-- END generated …`.

`tests/test_keywords.py` fails while one of those is not what the generator writes, and checks the
table against the grammar: every word `tree-sitter-awl/src/grammar.json` knows as a literal token is
here or in `NOT_KEYWORDS`, and every word here is one the grammar knows (the builtin types are
names to the grammar: `type_identifier`).

What a keyword means cannot be generated; CONTRIBUTING.md ("Add a keyword or header clause") walks
these places in order, and the tests named there prove each step:

- the grammar's rules: `tree-sitter-awl/grammar.js` (then `tree-sitter generate`, and cases in
  `tree-sitter-awl/test/corpus/`);
- the highlight patterns that capture a word through its node (`Keyword.node`), and the TextMate
  and Emacs patterns for contextual words (`place="context"`) and for the names declarations
  introduce — hand-written beside the generated regions;
- the model's extraction of what the word declares or reads: `awl_lsp/model/extract*.py`;
- the checker's rules: `awl_lsp/checks/rules_*.py`, registered in `awl_lsp/checks/__init__.py`;
- the word's hover entry: `awl_lsp/reference/entries_*.py` (or the user's `keyword-reference.txt`);
- completion: the slots that offer it (`awl_lsp/reference/slots.py`), its snippet
  (`awl_lsp/features/completion_snippets.py`), the clause maps of `features/completion_context.py`;
- the line shapes of "incomplete line" messages: `awl_lsp/syntax/expected.py`;
- the printer's clause order: `awl_lsp/features/printer/blocks.py`;
- `BUILTIN_TYPES` of `awl_lsp/model/index.py` (the model layer sits below this package; the
  test keeps its copy equal to this table's builtin types).

Semantic tokens need nothing: every word the tree holds as an anonymous token is a keyword there,
unless its parent node says otherwise (`features/token_classes.py`).
"""

from __future__ import annotations

from dataclasses import dataclass

BOTH = "both"
WORKFLOW = "workflow"
WORKLOOP = "workloop"
KINDS: tuple[str, ...] = (BOTH, WORKFLOW, WORKLOOP)
"""The document kinds a word belongs to: both, or only workflows, or only workloops."""

ROLES: dict[str, str] = {
    "declaration": "opens a declaration or the document (`step`, `worker`, `retire`, …)",
    "clause": "a header clause, action setting or continuation word (`input`, `timeout`, `of`, …)",
    "control": "a statement or flow word (`route`, `fork`, `hatch`, `after`, `in`, …)",
    "repeat": "a loop word (`loop`, `counting`, `until`)",
    "conditional": "an outcome guard word (`if`, `else`, `when`, `otherwise`)",
    "logical": "a logical operator (`not`, `and`, `or`)",
    "operator-word": "the `is` test and what it tests for (`empty`, `present`, `absent`)",
    "literal": "a boolean literal",
    "target": "a route target or outcome kind (`start`, `success`, `failure`)",
    "combinator": "a pipe combinator (`filter`, `count`, …)",
    "builtin-type": "a builtin type name",
}
"""The colour classes: what an editor without a language server colours the word as."""

PLACES: dict[str, str] = {
    "line": "a keyword only where it opens a line",
    "inner": "a keyword wherever it stands (but not as a `.field`)",
    "context": "a keyword only right after another word (`is empty`, `route start`, `) key`, `|> count`); "
    "editors without a tree colour it in hand-written context patterns only",
}
"""Where an editor that has no parse tree (TextMate, Emacs) may take the word for a keyword."""


@dataclass(frozen=True)
class Keyword:
    """One word of the language.

    `form` is how `awl guide` groups it (`guide.FORM_ORDER`; for the words of the user's keyword
    reference, the form that reference prints). `opens_block`: a line it opens is followed by an
    indented block (the editors' indentation rules). `node`: the highlight query captures the word
    through this node instead of a word list, because the same word is something else elsewhere
    (`workflow.id` is a value, `route failure` a target, `true` a boolean node).
    """

    word: str
    form: str
    kinds: str
    role: str
    place: str
    opens_block: bool = False
    node: str = ""


def _k(
    word: str,
    form: str,
    role: str,
    place: str,
    kinds: str = BOTH,
    *,
    opens_block: bool = False,
    node: str = "",
) -> Keyword:
    return Keyword(word, form, kinds, role, place, opens_block, node)


# In the order LANGUAGE.md lists them (the catalog and `awl guide` keep it), then the builtin types.
TABLE: tuple[Keyword, ...] = (
    _k("workflow", "declaration", "declaration", "line", opens_block=True, node="workflow_declaration"),
    _k("workloop", "declaration", "declaration", "line", opens_block=True),
    _k("input", "header-clause", "clause", "line"),
    _k("signal", "header-clause", "clause", "line"),
    _k("outcome", "header-clause", "clause", "line"),
    _k("type", "declaration", "clause", "inner"),
    _k("schema", "type-door", "clause", "inner"),
    _k("worker", "declaration", "declaration", "line", opens_block=True),
    _k("action", "declaration", "declaration", "line"),
    _k("child", "declaration", "declaration", "line"),
    _k("detached", "declaration", "declaration", "line", WORKLOOP),
    _k("subflow", "declaration", "declaration", "line", opens_block=True),
    _k("step", "declaration", "declaration", "line", opens_block=True),
    _k("const", "declaration", "declaration", "line"),
    _k("after", "clause", "control", "inner"),
    _k("fork", "statement", "control", "line", opens_block=True),
    _k("join", "clause", "control", "line"),
    _k("loop", "statement", "repeat", "line", opens_block=True),
    _k("counting", "clause", "repeat", "inner"),
    _k("until", "clause", "repeat", "line"),
    _k("max", "clause", "control", "line"),
    _k("sequential", "clause", "control", "inner"),
    _k("spawn", "statement", "control", "line"),
    _k("hatch", "statement", "control", "line", WORKLOOP),
    _k("key", "statement", "control", "context", WORKLOOP),
    _k("answer", "statement", "control", "line", WORKLOOP),
    _k("wait", "statement", "control", "line"),
    _k("sleep", "statement", "control", "line"),
    _k("timeout", "clause", "clause", "inner"),
    _k("retry", "clause", "clause", "line"),
    _k("every", "clause", "clause", "inner"),
    _k("backoff", "clause", "clause", "inner"),
    _k("node", "clause", "clause", "line"),
    _k("on", "clause", "control", "line"),
    _k("failure", "target-word", "target", "context", node="outcome_kind"),
    _k("if", "guard", "conditional", "inner"),
    _k("else", "guard", "conditional", "inner"),
    _k("when", "guard", "conditional", "inner"),
    _k("otherwise", "guard", "conditional", "inner"),
    _k("route", "statement", "control", "inner"),
    _k("success", "target-word", "target", "context", WORKFLOW, node="outcome_kind"),
    _k("start", "target-word", "target", "context", WORKLOOP, node="start"),
    _k("carry", "header-clause", "clause", "line", WORKLOOP),
    _k("report", "header-clause", "clause", "line", WORKLOOP),
    _k("invariant", "header-clause", "clause", "line", WORKLOOP, opens_block=True),
    _k("tolerance", "header-clause", "clause", "line", WORKLOOP),
    _k("windows", "header-clause", "clause", "inner", WORKLOOP),
    _k("unconfirmed", "header-clause", "clause", "inner", WORKLOOP),
    _k("for", "header-clause", "clause", "inner", WORKLOOP),
    _k("confirms", "header-clause", "clause", "line", WORKLOOP),
    _k("retention", "header-clause", "clause", "line", WORKLOOP),
    _k("retire", "declaration", "declaration", "line", WORKLOOP, opens_block=True),
    _k("filter", "combinator", "combinator", "context", node="combinator"),
    _k("map", "combinator", "combinator", "context", node="combinator"),
    _k("sort", "combinator", "combinator", "context", node="combinator"),
    _k("count", "combinator", "combinator", "context", node="combinator"),
    _k("any", "combinator", "combinator", "context", node="combinator"),
    _k("all", "combinator", "combinator", "context", node="combinator"),
    _k("is", "operator", "operator-word", "inner"),
    _k("empty", "test", "operator-word", "context"),
    _k("present", "test", "operator-word", "context"),
    _k("absent", "test", "operator-word", "context"),
    _k("not", "operator", "logical", "inner"),
    _k("and", "operator", "logical", "inner"),
    _k("or", "operator", "logical", "inner"),
    _k("true", "literal", "literal", "inner", node="boolean"),
    _k("false", "literal", "literal", "inner", node="boolean"),
    _k("in", "clause", "control", "inner"),
    _k("of", "operator", "clause", "inner"),
    _k("json", "literal", "clause", "inner"),
    _k("visits", "clause", "clause", "inner"),
    _k("distribute", "statement", "control", "line", opens_block=True),
    _k("sequence", "statement", "control", "line", opens_block=True),
    _k("collect", "statement", "control", "line"),
    _k("Bool", "type", "builtin-type", "inner", node="type_identifier"),
    _k("Int", "type", "builtin-type", "inner", node="type_identifier"),
    _k("Float", "type", "builtin-type", "inner", node="type_identifier"),
    _k("String", "type", "builtin-type", "inner", node="type_identifier"),
    _k("Nil", "type", "builtin-type", "inner", node="type_identifier"),
    _k("Dir", "type", "builtin-type", "inner", node="type_identifier"),
)

NOT_KEYWORDS: dict[str, str] = {
    "ms": "a duration's unit, inside the one `duration` token (`250ms`)",
    "s": "a duration's unit, inside the one `duration` token (`30s`)",
    "m": "a duration's unit, inside the one `duration` token (`5m`)",
    "h": "a duration's unit, inside the one `duration` token (`3h`)",
    "d": "a duration's unit, inside the one `duration` token (`2d`)",
}
"""Words the grammar spells as literal strings that are not keywords, with the reason."""

BY_WORD: dict[str, Keyword] = {k.word: k for k in TABLE}

KEYWORDS: tuple[str, ...] = tuple(k.word for k in TABLE if k.role != "builtin-type")
"""AWL's contextual keywords, in the order LANGUAGE.md lists them."""

BUILTIN_TYPES: tuple[str, ...] = tuple(k.word for k in TABLE if k.role == "builtin-type")
"""AWL's builtin type names."""
