"""The server's warm-up (`awl_lsp.server.warm`, after `initialize` is answered, while the input is quiet):
what every first completion used to pay for is done once per process, and an answer sent after it
is exactly the one a fresh converter writes (the warm-up changes when the work is done, never what
is sent)."""

from __future__ import annotations

import json

from lsprotocol import types as lsp
from pygls.protocol import default_converter
from test_completion_reuse import DOC as REUSE_DOC
from test_completion_reuse import _cursors

from awl_lsp.features.completion import completion_list
from awl_lsp.features.documents import OpenDocument
from awl_lsp.server.language_server import AwlServer
from awl_lsp.server.warm import warm_up

# a workloop with a record call and a step line half-typed and one empty (shared with the reuse tests)
DOC, CURSORS = _cursors(REUSE_DOC.replace("note = ‸", "note = i‸"))


def _answers() -> list[lsp.CompletionList]:
    doc = OpenDocument(DOC, 1, None, None)
    at = CURSORS
    return [
        completion_list(doc.snapshot, p, snippet_ok, markdown_ok, lazy_detail=lazy, defaults=defaults)
        for p in at
        for snippet_ok, markdown_ok, lazy, defaults in (
            (
                True,
                True,
                True,
                ["commitCharacters", "editRange", "insertTextFormat", "insertTextMode", "data"],
            ),
            (False, False, False, ()),
        )
    ]


def test_an_answer_sent_after_the_warm_up_is_the_one_a_fresh_converter_writes() -> None:
    server = AwlServer()
    warm_up(server.protocol)
    fresh = default_converter()
    answers = _answers()
    assert any(a.items for a in answers)
    for answer in answers:
        sent = json.dumps(server.protocol._converter.unstructure(answer), sort_keys=True)
        assert sent == json.dumps(fresh.unstructure(answer), sort_keys=True)


def test_after_the_warm_up_the_first_completion_answer_makes_no_converter_code() -> None:
    # (what an editor asks before its first completion: diagnostics are sent, tokens and a delta)
    server = AwlServer()
    warm_up(server.protocol)
    converter = server.protocol._converter
    diagnostic = lsp.Diagnostic(
        lsp.Range(lsp.Position(0, 0), lsp.Position(0, 1)),
        "m",
        tags=[lsp.DiagnosticTag.Unnecessary],
        related_information=[
            lsp.DiagnosticRelatedInformation(
                lsp.Location("file:///a.awl", lsp.Range(lsp.Position(0, 0), lsp.Position(0, 1))), "r"
            )
        ],
    )
    converter.unstructure(lsp.PublishDiagnosticsParams("file:///a.awl", [diagnostic]))
    converter.unstructure(lsp.SemanticTokensDeltaResponse(id=1, result=lsp.SemanticTokens([1, 2])))
    delta = lsp.SemanticTokensDelta([lsp.SemanticTokensEdit(0, 1, [3])])
    converter.unstructure(lsp.SemanticTokensDeltaResponse(id=2, result=delta))
    made = converter._unstructure_func.dispatch.cache_info().misses
    for i, answer in enumerate(_answers()):
        converter.unstructure(lsp.CompletionResponse(id=3 + i, result=answer))
    assert converter._unstructure_func.dispatch.cache_info().misses == made
