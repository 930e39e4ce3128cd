"""What a document could do without is dimmed: unused bindings, types and detached declarations and
unreachable steps carry the `Unnecessary` tag; for a client that shows the tag an unused
declaration is a hint (dimmed, not underlined), and an unreachable step stays an error."""

from __future__ import annotations

from helpers import snap_of
from lsprotocol import types as lsp
from pytest_lsp import client_capabilities

from awl_lsp.features.diagnostics import diagnostics, dims_unused

UNNECESSARY = [lsp.DiagnosticTag.Unnecessary]

UNUSED = """//! x
workflow w
  input dir: String
  outcome done: type Bool, route success

type Spare { a: Int }

worker k
  action probe(dir: String) -> Bool

step one
  probe(dir: dir) -> seen
  true |> route done
"""

UNREACHABLE = """//! x
workflow w
  outcome done: type Bool, route success

step one
  true |> route done

step two
  true |> route done
"""


def by_code(text: str, dim: bool) -> dict[str, lsp.Diagnostic]:
    return {str(d.code): d for d in diagnostics(snap_of(text), "file:///w.awl", dim)}


def test_unused_declarations_are_dimmed_hints_where_the_client_dims() -> None:
    found = by_code(UNUSED, dim=True)
    for code in ("unused-binding", "unused-type"):
        assert found[code].severity == lsp.DiagnosticSeverity.Hint, code
        assert found[code].tags == UNNECESSARY, code
    assert found["unused-binding"].range.start == lsp.Position(11, 21)  # the name `seen`


def test_unused_declarations_stay_warnings_for_a_client_that_does_not_dim() -> None:
    found = by_code(UNUSED, dim=False)
    for code in ("unused-binding", "unused-type"):
        assert found[code].severity == lsp.DiagnosticSeverity.Warning, code
        assert found[code].tags == UNNECESSARY, code  # (harmless where it is not shown)


def test_an_unreachable_step_is_a_dimmed_error() -> None:
    for dim in (True, False):
        d = by_code(UNREACHABLE, dim)["unreachable-step"]
        assert d.severity == lsp.DiagnosticSeverity.Error  # the engine refuses the document
        assert d.tags == UNNECESSARY


def test_other_problems_carry_no_tag() -> None:
    broken = UNUSED.replace("probe(dir: dir)", "probe(dir: nowhere)")
    d = by_code(broken, dim=True)["unknown-binding"]
    assert d.severity == lsp.DiagnosticSeverity.Error and d.tags is None


def test_which_clients_dim() -> None:
    assert dims_unused(client_capabilities("visual-studio-code"))
    assert dims_unused(client_capabilities("neovim"))
    assert not dims_unused(lsp.ClientCapabilities())
    assert not dims_unused(None)
    pulled_only = lsp.ClientCapabilities(
        text_document=lsp.TextDocumentClientCapabilities(
            diagnostic=lsp.DiagnosticClientCapabilities(
                tag_support=lsp.ClientDiagnosticsTagOptions(value_set=[lsp.DiagnosticTag.Unnecessary])
            )
        )
    )
    assert dims_unused(pulled_only)
