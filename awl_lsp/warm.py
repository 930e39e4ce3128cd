"""What a server process makes once, before serving, so that no user's first request pays for it.

The keyword catalog is read (completion and hover offer its entries). The protocol's converter
makes its code for each class it meets the first time it meets it, and every time it meets a new
list type it registers a hook that drops all the code it made so far — which the next request of
each kind then makes again (≈ 10 ms for the first completion at 5,000 lines). So the code for the
messages of every method the server answers or sends is made first, and the completion request and
answer's (whose union-typed parts are only found on a real value) last, twice.
"""

from __future__ import annotations

from typing import Any

from lsprotocol import types as lsp

from awl_lsp.reference import entries

# what the server sends besides the answers to the methods it registers
_SENT = (
    lsp.INITIALIZE,
    lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS,
    lsp.WINDOW_SHOW_MESSAGE,
    lsp.WINDOW_LOG_MESSAGE,
)

# classes answers are made of that the converter only meets on a real value (a union's member)
_UNION_PARTS = (lsp.SemanticTokensDelta, lsp.SemanticTokens, lsp.Hover, lsp.Location, lsp.DocumentSymbol)


def warm_up(protocol: Any) -> None:  # noqa: ANN401 — pygls's LanguageServerProtocol
    """Make the keyword catalog and the converter's code for the methods `protocol` serves."""
    entries()
    converter = protocol._converter
    for method in [*protocol.fm.features, *_SENT]:
        types = lsp.METHOD_TO_TYPES.get(method)
        if types is None:  # (our own methods: plain JSON)
            continue
        request, response = types[0], types[1]
        converter.get_structure_hook(request)
        converter.get_unstructure_hook(response if response is not None else request)
    for answer_class in _UNION_PARTS:
        converter.get_unstructure_hook(answer_class)
    where = {"textDocument": {"uri": "file:///warm-up.awl"}, "position": {"line": 0, "character": 0}}
    message = {"jsonrpc": "2.0", "id": 0, "method": lsp.TEXT_DOCUMENT_COMPLETION, "params": where}
    converter.structure(message, lsp.CompletionRequest)
    answer = _completion_list()
    for _ in range(2):  # (making some of the code registers hooks that drop what was made before)
        converter.unstructure(lsp.CompletionResponse(id=0, result=answer))


def _completion_list() -> lsp.CompletionList:
    """A completion answer with every part `features.completion` may fill in."""
    whole = lsp.Range(lsp.Position(0, 0), lsp.Position(0, 1))
    items = [
        lsp.CompletionItem(
            label="a",
            kind=lsp.CompletionItemKind.Function,
            detail="a",
            documentation=doc,
            sort_text="0000",
            text_edit=lsp.TextEdit(whole, "a"),
            text_edit_text="a",
            insert_text_format=lsp.InsertTextFormat.Snippet,
            data={"value": [0, 0, "a"]},
        )
        for doc in (lsp.MarkupContent(lsp.MarkupKind.Markdown, "a"), "a", None)
    ]
    defaults = lsp.CompletionItemDefaults(
        commit_characters=["."],
        edit_range=whole,
        insert_text_format=lsp.InsertTextFormat.Snippet,
        insert_text_mode=lsp.InsertTextMode.AsIs,
        data={},
    )
    return lsp.CompletionList(False, items, item_defaults=defaults)
