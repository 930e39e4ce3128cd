"""What the model reads from a document that hover, go-to-definition and the checks then show:
the `///` lines above a declaration wherever it sits (above a top-level item, or inside one), and
the declaration each argument name of a call points at (the callee's parameter, a record type's
field, or nothing for a callee nobody declared), however often the same callee is called."""

from __future__ import annotations

from awl_lsp.model import ModelBuilder, SemanticModel
from awl_lsp.model.symbols import Kind, RefKind, Symbol
from awl_lsp.syntax import SyntaxDocument

DOC = """workloop sorter
  every 5m
  input region: String
  report board: type Board
  invariant steady: type Board
    tolerance 3 windows
    confirms start
  retention 3d

/// The numbers on the board.
/// Two lines of them.
type Board { pending: Int }

// an ordinary comment is no documentation
type Parcel {
  /// where it goes
  to: String,
  weight: Int,
}

/// Hands that pick.
worker hands
  /// Picks a parcel for a region.
  action pick(region: String, note: String) -> Parcel
  action weigh(parcel: Parcel) -> Int

/// Looks at the board.
step scan
  pick(region: region, note: region) -> first
  pick(note: region, region: region) -> second
  weigh(parcel: first) -> heavy
  Board(pending: heavy) -> counted
  mystery(region: region) -> lost
  answer board(pending: counted.pending)
  route start
"""


def _model(text: str) -> SemanticModel:
    doc = SyntaxDocument(text)
    return ModelBuilder().build(doc.tree, doc.source)


def _symbol(model: SemanticModel, kind: Kind, name: str) -> Symbol:
    found = model.lookup(kind, name)
    assert len(found) == 1, (kind, name, found)
    return found[0]


def test_doc_lines_above_each_declaration_are_its_documentation() -> None:
    model = _model(DOC)
    assert _symbol(model, Kind.TYPE, "Board").doc == "The numbers on the board.\nTwo lines of them."
    assert _symbol(model, Kind.TYPE, "Parcel").doc == ""  # (`//` is a comment, not a doc line)
    assert [(f.name, f.doc) for f in _symbol(model, Kind.TYPE, "Parcel").children] == [
        ("to", "where it goes"),
        ("weight", ""),
    ]
    assert _symbol(model, Kind.WORKER, "hands").doc == "Hands that pick."
    assert _symbol(model, Kind.ACTION, "pick").doc == "Picks a parcel for a region."
    assert _symbol(model, Kind.ACTION, "weigh").doc == ""
    assert _symbol(model, Kind.STEP, "scan").doc == "Looks at the board."


def test_a_doc_line_moved_inside_the_item_above_documents_nothing_below() -> None:
    text = DOC.replace("/// Hands that pick.\nworker hands", "worker hands\n/// Hands that pick.")
    model = _model(text)
    assert _symbol(model, Kind.WORKER, "hands").doc == ""


def _arguments(model: SemanticModel) -> list[tuple[str, str, str | None]]:
    """(callee context, argument name, what it points at) of every argument, in order."""
    out = []
    for ref in model.references:
        if ref.kind is RefKind.ARGUMENT:
            target = ref.target
            where = None if target is None else f"{target.kind.value} {target.container}.{target.name}"
            out.append((ref.context, ref.name, where))
    return out


def test_each_argument_points_at_the_parameter_or_field_it_fills() -> None:
    found = _arguments(_model(DOC))
    assert found == [
        ("call:pick", "region", "parameter pick.region"),
        ("call:pick", "note", "parameter pick.note"),
        ("call:pick", "note", "parameter pick.note"),
        ("call:pick", "region", "parameter pick.region"),
        ("call:weigh", "parcel", "parameter weigh.parcel"),
        ("call:Board", "pending", "field Board.pending"),
        ("call:mystery", "region", None),
        ("answer:board", "pending", "field Board.pending"),
    ]


def test_an_argument_follows_its_callee_when_the_callee_changes() -> None:
    weigh = "  action weigh(parcel: Parcel) -> Int"
    text = DOC.replace(weigh, "  action weigh(item: Parcel, parcel: Parcel) -> Int")
    found = dict(((context, name), where) for context, name, where in _arguments(_model(text)))
    assert found[("call:weigh", "parcel")] == "parameter weigh.parcel"
    text = DOC.replace(weigh, "  action weigh(item: Parcel) -> Int")
    found = dict(((context, name), where) for context, name, where in _arguments(_model(text)))
    assert found[("call:weigh", "parcel")] is None
