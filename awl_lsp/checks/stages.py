"""Stages: which findings the engine makes while parsing, and which only once the text has parsed.

The engine reads a document, parses it, and checks it only when it parses: a document with a
syntax error gets that error and nothing else. The checker here runs on what the parser could
read, so in a document with a syntax error its findings about names, types and the flow graph
are provisional — an `unknown type Summary` may be nothing but the broken `type Summary …` line,
a step that "falls off the end" may have lost its `route` to the syntax error. `provisional`
keeps those findings visible as warnings that point at the syntax error, which stays the one
error (and the first, on the engine's line).

Findings the engine makes while parsing (indentation, brackets, misspelt keywords, and the line
rules the checker enforces for the parser: a second `on failure`, statements after the outcome
clauses, …) are never provisional: they are syntax errors in all but module.
"""

from __future__ import annotations

from awl_lsp.syntax.problems import Problem, Related, Severity

# What the engine finds only in a document that parses: name resolution, types, bindings, the
# flow graph, regions, loops, subflows and forks as wholes.
CHECK_STAGE = frozenset(
    {
        # names
        "after",
        "unknown-binding",
        "unknown-call",
        "unknown-field",
        "unknown-type",
        "route-target",
        "route-start",
        "duplicate",
        "naming",
        "builtin-type",
        "step-named-outcome",
        "workflow-bare",
        "workflow-field",
        # types and values
        "arguments",
        "call-override",
        "combinator-accessor",
        "combinator-list",
        "compare-mismatch",
        "compare-optional",
        "const",
        "const-collision",
        "const-cycle",
        "const-shadow",
        "count-argument",
        "enum-field",
        "enum-variant",
        "index-non-list",
        "is-empty",
        "is-present",
        "list-element",
        "list-item-type",
        "null-value",
        "optional-into-plain",
        "optional-unguarded",
        "pipe-stage",
        "pipe-stage-type",
        "plus-mismatch",
        "record-field",
        "route-missing-field",
        "route-no-payload",
        "route-not-record",
        "route-payload",
        "route-piped-payload",
        "route-unknown-field",
        "schema-json",
        "schema-missing",
        "schema-unsupported",
        "spawn",
        "timeout-zero",
        "type-bool",
        "type-mismatch",
        # bindings
        "binding-not-definite",
        "loop-local-escapes",
        "loop-seed-local",
        "failure-reads-step-binding",
        "binding-twice",
        "read-before-bound",
        "rebinding",
        # the flow graph
        "after-cycle",
        "after-fall-cycle",
        "after-route",
        "arms-after-route",
        "dead-end-step",
        "else-not-last",
        "falls-off-end",
        "on-failure-route",
        "outcomes-exhaustive",
        "route-cycle",
        "route-step-payload",
        "route-step-piped",
        "substep-after",
        "substep-route",
        "unreachable-step",
        # regions, forks, loops, subflows
        "collect-first",
        "collect-no-region",
        "collect-outside",
        "distribute-alone",
        "fork-named-join",
        "fork-non-list",
        "fork-sibling-read",
        "loop-counter-shadow",
        "loop-exhaustion",
        "loop-max",
        "loop-max-local",
        "loop-rebind",
        "loop-rebind-type",
        "loop-route",
        "loop-until",
        "region-after",
        "region-enter",
        "region-leave",
        "region-nested",
        "region-unclosed",
        "subflow-nested",
        "subflow-not-alone",
        "subflow-outer-name",
        "subflow-pipe-stage",
        "subflow-recursion",
        "visits-bound-runtime",
        "visits-read",
        "visits-type",
    }
)
# What the engine finds while it reads and parses the text: the syntax layer's problems and the
# checker's line rules the engine enforces in its parser. A misspelt clause or setting keyword is not
# listed: the checker reads the line it opens precisely, and `cascades.fold_typos` folds what it breaks.
PARSE_STAGE = frozenset(
    {
        # the syntax layer (`awl_lsp.syntax.errors`, `awl_lsp.syntax.layout`)
        "syntax",
        "missing",
        "too-deep",
        "string",
        "tab-indent",
        "odd-indent",
        "indent-jump",
        "unexpected-indent",
        "enum-line",
        "bracket-dedent",
        "field-indent",
        "brace-indent",
        "arm-route",
        # the checker's line rules
        "action-parameters",
        "after-outcomes",
        "argument-value",
        "binding-name",
        "collect-binding",
        "comment-in-arm",
        "comment-in-brackets",
        "config-indent",
        "config-not-call",
        "config-key-twice",
        "doc-line",
        "duration",
        "duration-unit",
        "enum-payload",
        "field-comma",
        "fork-body",
        "fork-join",
        "fork-without-body",
        "header",
        "header-indent",
        "header-type",
        "index-literal",
        "keyword-name",
        "loop-clause-twice",
        "loop-seed",
        "named-arguments",
        "narration",
        "on-failure-empty",
        "on-failure-twice",
        "optional-twice",
        "outcome",
        "outcome-indent",
        "outcome-route",
        "parameter-type",
        "parentheses",
        "pipe-unterminated",
        "relative-field",
        "retry",
        "return-type",
        "route-no-target",
        "schema-of-type",
        "string-escape",
        "subflow-outcome-route",
        "subflow-outcomes",
        "timeout-twice",
        "unexpected-block",
        "unknown-declaration",  # a top-level line that is no declaration: what it held is unread
        "visits-bound-twice",
        "visits-twice",
        "worker",
    }
)


def provisional(problems: list[Problem]) -> list[Problem]:
    """`problems` with the check-stage errors turned into warnings when a syntax error comes first."""
    syntax = [p for p in problems if p.severity is Severity.ERROR and p.code in PARSE_STAGE]
    if not syntax:
        return problems
    cause = min(syntax, key=lambda p: p.range)
    out: list[Problem] = []
    for p in problems:
        if p.severity is Severity.ERROR and p.code in CHECK_STAGE:
            p = Problem(
                p.range,
                f"{p.message} (provisional: the document has a syntax error, which may cause this; "
                "fix that first)",
                p.code,
                Severity.WARNING,
                p.data,
                (*p.related, Related(cause.range, "the document does not parse from here")),
            )
        out.append(p)
    return out


__all__ = ["CHECK_STAGE", "PARSE_STAGE", "provisional"]
