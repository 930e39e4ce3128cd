"""Signature help inside argument lists: calls, `spawn`, `hatch`, `answer`, record construction, routes.

The open call at the cursor is found from the tree's tokens around the cursor (ERROR nodes'
children included, as completion reads them), so it works while the argument list is still being
typed and the tree is broken there. The callee is resolved through the model; its parameters (or
the record fields an `answer`/`route`/construction fills) come with their types, and the active
parameter is the named argument under the cursor, else the argument's index.

The callee's parameters come from `features.callees` (shared with the quick fixes that add missing
arguments).
"""

from __future__ import annotations

from dataclasses import dataclass

from lsprotocol import types as lsp

from awl_lsp.features.callees import Callee, expected_parameters
from awl_lsp.features.completion_tokens import Analysis
from awl_lsp.features.lsp_positions import point
from awl_lsp.features.snapshot import Snapshot

_LEADS = frozenset({"hatch", "answer", "spawn", "route"})
_DECLARING = frozenset({"action", "child", "detached", "subflow"})


@dataclass
class OpenCall:
    how: str
    name: str
    index: int  # commas before the cursor at the call's own depth
    arg_name: str | None  # the named argument the cursor is in, if it is named already


# ---------------------------------------------------------------------- finding the open call
def open_call(snap: Snapshot, position: lsp.Position) -> OpenCall | None:
    """The innermost `name(` whose argument list the cursor is in, with its context keyword.

    Read from the tree's tokens (ERROR nodes' children included), as completion reads them, so a
    half-typed argument list still counts.
    """
    row, col = point(snap, position)
    analysis = Analysis(snap, row, col)
    toks = analysis.toks
    cursor_byte = snap.doc.lines.byte_starts[row] + col if row < len(snap.doc.lines.byte_starts) else 0
    upto = next((i for i, t in enumerate(toks) if t.start >= cursor_byte), len(toks))
    parens = [i for i in analysis.open_brackets(upto) if toks[i].text == "("]
    if not parens:
        return None
    paren = parens[-1]
    if paren == 0 or toks[paren - 1].node.type not in ("identifier", "start"):
        return None
    name = toks[paren - 1].text
    lead = toks[paren - 2].text if paren >= 2 and toks[paren - 2].row == toks[paren - 1].row else ""
    if lead in _DECLARING:
        return None  # a declaration's own parameter list
    how = lead if lead in _LEADS else "call"
    if name in ("filter", "map", "sort", "any", "all", "count") and how == "call":
        return None
    depth = toks[paren].depth + 1
    commas = [i for i in range(paren + 1, upto) if toks[i].text == "," and toks[i].depth == depth]
    first = (commas[-1] if commas else paren) + 1
    arg_name = None
    if first + 1 < upto and toks[first].node.type == "identifier" and toks[first + 1].text == ":":
        arg_name = toks[first].text
    return OpenCall(how, name, len(commas), arg_name)


# ---------------------------------------------------------------------- the answer
def _doc(text: str, markdown: bool) -> lsp.MarkupContent | str | None:
    """Documentation as Markdown, or as a plain string for clients that do not accept Markdown."""
    if not text:
        return None
    return lsp.MarkupContent(lsp.MarkupKind.Markdown, text) if markdown else text.replace("`", "")


def _signature(callee: Callee, markdown: bool = True) -> lsp.SignatureInformation:
    prefix = f"{callee.how} " if callee.how in ("hatch", "answer", "route", "spawn") else ""
    label = f"{prefix}{callee.name}("
    params: list[lsp.ParameterInformation] = []
    for i, p in enumerate(callee.params):
        if i:
            label += ", "
        start = len(label.encode("utf-16-le")) // 2
        label += p.label
        end = len(label.encode("utf-16-le")) // 2
        doc = p.doc or ("optional" if p.optional else "")
        params.append(
            lsp.ParameterInformation(
                label=(start, end),
                documentation=_doc(doc, markdown),
            )
        )
    label += ")"
    if callee.returns:
        label += f" -> {callee.returns}"
    if callee.how == "hatch":
        label += " key …"
    doc = callee.doc
    return lsp.SignatureInformation(
        label=label,
        documentation=_doc(doc, markdown),
        parameters=params,
    )


def active_index(callee: Callee, call: OpenCall) -> int:
    """The parameter the cursor is on: by name when the argument is named, else by position."""
    if call.arg_name is not None:
        names = [p.name for p in callee.params]
        return names.index(call.arg_name) if call.arg_name in names else len(names)
    return call.index


def signature_help(snap: Snapshot, position: lsp.Position, markdown: bool = True) -> lsp.SignatureHelp | None:
    """The signature of the call around the cursor; `markdown`: the client accepts Markdown docs."""
    call = open_call(snap, position)
    if call is None:
        return None
    row, col = point(snap, position)
    callee = expected_parameters(snap, call.how, call.name, row, col)
    if callee is None:
        return None
    info = _signature(callee, markdown)
    active = active_index(callee, call)
    info.active_parameter = active
    return lsp.SignatureHelp(signatures=[info], active_signature=0, active_parameter=active)
