"""The canonical printer (`awl fmt`, LSP formatting): a document in the engine's canonical form.

`canonical_text(text)` returns the canonical form, or None when the document has syntax errors
(or anything the printer would not reproduce faithfully: then nothing is touched at all).

The form, as the engine's own printer lays documents out:

- Every logical line is re-spelt from its tokens with single spaces, none inside brackets or
  before `,` `:` `?`, none around `.`/`..`; multi-line calls, lists and pipes are joined.
  Strings, raw strings and `json { … }` / `schema { … }` bodies are kept byte for byte.
- Two spaces per block level. Narration lines first (no blank lines among them), then the
  `workflow`/`workloop` line and its header clauses in canonical order (timeout/every/on, input,
  signal, carry, outcome/report, invariant with its tolerance then confirms, retention), then the
  top-level declarations in canonical order (const, type, worker, child, detached, subflow,
  step, retire); the order within a kind is the written one. In a step: statements and
  substeps, then `on failure`, the outcomes and `max N visits`; in a loop: statements, `until`,
  `max`.
- A blank line is kept where the source had one or more before a line (never two in a row;
  none between doc lines and what they document); comment lines travel with the line after them
  and take its indentation; a comment at the end of a line stays there after one space.
- Alignment: consecutive header/subflow outcome clauses pad `outcome name:` and `type T,` to
  common widths; consecutive one-line `type` declarations of the same shape (`{ … }` or `= …`)
  pad their names. A blank or comment line ends a run.
- Record types stay on one line when that line fits in 100 columns and holds no comment or blank
  line, otherwise one field per line with trailing commas; comment lines after the last field
  move after the type. Trailing commas inside brackets go; `//x` comments become `// x`.
- A pipe statement longer than 100 columns puts each `|> stage` on its own line, one level in.
- A step outcome whose route carries named fields, or whose line would pass 100 columns,
  breaks after its comma with `route …` one level deeper; a long route payload then wraps
  between arguments, continuation lines one more level in.

Modules: `source` (tokens, spacing, comments of the parsed text), `forms` (records, outcomes and
pipes that may span lines), `blocks` (blocks, order, comments between items, the document),
`lines` (alignment and blank lines of the printed lines).
"""

from __future__ import annotations

from awl_lsp.features.printer.blocks import Printer
from awl_lsp.features.printer.lines import Out, render
from awl_lsp.features.printer.source import COMMENTS, VERBATIM, Unprintable, literal
from awl_lsp.syntax import SyntaxDocument

__all__ = ["canonical_items", "canonical_text"]


def canonical_text(text: str) -> str | None:
    """The canonical form of `text`, or None when it has syntax errors or cannot be printed faithfully."""
    printed = _print(text)
    return printed[0] if printed else None


def canonical_items(text: str) -> list[tuple[int, int, str]] | None:
    """Each top-level item's canonical text (no line break at its end) with the source rows it replaces
    (first, last; its comment lines included), in source order; None as for `canonical_text`."""
    printed = _print(text)
    if printed is None:
        return None
    _, out, eol = printed
    groups: dict[tuple[int, int], list[Out]] = {}
    for o in out:
        if o.owner is not None:
            groups.setdefault(o.owner, []).append(o)
    items = []
    for owner in sorted(groups):
        rendered = render(groups[owner]).rstrip("\n")
        items.append((owner[0], owner[1], rendered.replace("\n", eol)))
    return items


def _print(text: str) -> tuple[str, list[Out], str] | None:
    eol = "\r\n" if "\r\n" in text else "\n"
    bom = "\ufeff" if text.startswith("\ufeff") else ""
    doc = SyntaxDocument(text[len(bom) :].replace("\r\n", "\n"))
    if doc.root.has_error or not text.strip("\ufeff \t\r\n"):
        return None
    try:
        printer = Printer(doc)
        out = printer.lines()
        result = render(out) + ("\n" if printer.ends_with_kept_blank() else "")
    except (Unprintable, RecursionError):
        return None
    if not _same_content(doc, SyntaxDocument(result)):
        return None
    return bom + result.replace("\n", eol), out, eol


def _leaves(doc: SyntaxDocument) -> list[tuple[str, str]]:
    """Every token and comment of the document (commas aside), sorted: what printing must keep."""
    found: list[tuple[str, str]] = []
    source = doc.source
    cursor = doc.tree.walk()
    while True:
        node = cursor.node
        kind = node.type if node is not None else ""
        if node is not None and (node.child_count == 0 or kind in VERBATIM):
            text = source[node.start_byte : node.end_byte].decode("utf-8").rstrip()
            if kind in COMMENTS:  # the printer may add a space after `//`, or make a `///` a comment
                kind, text = "comment", "".join(text.split())
            text = literal(kind, text)  # `007` prints as `7`
            if text and text != ",":
                found.append((kind, text))
        elif cursor.goto_first_child():
            continue
        while not cursor.goto_next_sibling():
            if not cursor.goto_parent():
                return sorted(found)


def _same_content(before: SyntaxDocument, after: SyntaxDocument) -> bool:
    """The printed document parses cleanly and holds the same tokens and comments."""
    return not after.root.has_error and _leaves(before) == _leaves(after)
