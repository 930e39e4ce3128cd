"""Signature help: which call the cursor is in, the parameters it takes, and the active one."""

from __future__ import annotations

from helpers import example, snap_of
from lsprotocol import types as lsp

from awl_lsp.features.signature_help import signature_help

WORKLOOP = example("inbox_sweep.awl")
WORKFLOW = example("release_notes.awl")


def at(text: str, needle: str, offset: int | None = None) -> lsp.Position:
    """The position `offset` characters into `needle` (default: its end)."""
    index = text.index(needle) + (len(needle) if offset is None else offset)
    return lsp.Position(text.count("\n", 0, index), index - (text.rfind("\n", 0, index) + 1))


def help_at(text: str, needle: str, offset: int | None = None) -> lsp.SignatureHelp | None:
    return signature_help(snap_of(text), at(text, needle, offset))


def params_of(h: lsp.SignatureHelp) -> list[str]:
    sig = h.signatures[0]
    out = []
    for p in sig.parameters or []:
        assert isinstance(p.label, tuple)
        start, end = p.label
        out.append(sig.label[start:end])
    return out


def test_action_call_parameters_and_active_by_name() -> None:
    h = help_at(WORKLOOP, "list_new(inbox: in")
    assert h is not None
    assert h.signatures[0].label == "list_new(inbox: String, after: String) -> Batch"
    assert params_of(h) == ["inbox: String", "after: String"]
    assert h.active_parameter == 0
    assert h.signatures[0].documentation.value == "Messages newer than `after`, oldest first."
    h = help_at(WORKLOOP, "list_new(inbox: inbox, after: la")
    assert h is not None and h.active_parameter == 1


def test_named_arguments_match_by_name_not_position() -> None:
    text = WORKLOOP.replace(
        "list_new(inbox: inbox, after: last_seen)", "list_new(after: last_seen, inbox: inbox)"
    )
    h = help_at(text, "list_new(after: last_seen, inbox: in")
    assert h is not None and h.active_parameter == 0
    h = help_at(text, "list_new(after: la")
    assert h is not None and h.active_parameter == 1
    unknown = WORKLOOP.replace("after: last_seen)", "since: last_seen)")
    h = help_at(unknown, "since: la")
    assert h is not None and h.active_parameter == 2  # no parameter of that name: none is active


def test_unnamed_argument_is_matched_by_index() -> None:
    text = WORKLOOP.replace("list_new(inbox: inbox, after: last_seen)", "list_new(inbox: inbox, )")
    h = help_at(text, "list_new(inbox: inbox, ")
    assert h is not None and h.active_parameter == 1
    h = help_at(text, "  list_new(")
    assert h is not None and h.active_parameter == 0


def test_half_typed_call_in_a_broken_document() -> None:
    text = WORKLOOP.replace(
        "  list_new(inbox: inbox, after: last_seen) -> batch", "  list_new(inbox: inbox, "
    )
    assert snap_of(text).doc.root.has_error
    h = help_at(text, "  list_new(inbox: inbox, ")
    assert h is not None
    assert h.signatures[0].label.startswith("list_new(")
    assert h.active_parameter == 1


def test_hatch_answer_and_route_start() -> None:
    h = help_at(WORKLOOP, "hatch triage_message(message_id: message.id, sen")
    assert h is not None
    assert h.signatures[0].label == "hatch triage_message(message_id: String, sender: String) key …"
    assert h.active_parameter == 1
    h = help_at(WORKLOOP, "answer status(fetched: fetched, hat")
    assert h is not None
    assert params_of(h) == ["fetched: Int", "hatched: Int"] and h.active_parameter == 1
    h = help_at(WORKLOOP, "route start(last")
    assert h is not None
    assert h.signatures[0].label == "route start(last_seen: String)" and h.active_parameter == 0


def test_route_to_an_outcome_shows_its_payload_fields() -> None:
    h = help_at(WORKFLOW, 'route shelved(tag: tag, reason: "the')
    assert h is not None
    assert h.signatures[0].label == "route shelved(tag: String, reason: String)"
    assert h.active_parameter == 1


def test_record_construction_and_child_and_subflow() -> None:
    text = (
        "//! Records, children and subflows.\n"
        "workflow records\n"
        "  input who: String\n"
        "  outcome done: type Card, route success\n"
        "\n"
        "type Card {\n"
        "  /// Who the card is for.\n"
        "  name: String,\n"
        "  note: String?,\n"
        "}\n"
        "\n"
        "child greet(name: String) -> Card\n"
        "subflow polish(card: Card)\n"
        "  outcome polished: type Card\n"
        "  step p\n"
        "    route polished(card)\n"
        "\n"
        "step make\n"
        "  Card(name: who, note: who) -> card\n"
        "  greet(name: who) -> greeted\n"
        "  polish(card: card) -> better\n"
        "  route done(name: who)\n"
    )
    h = help_at(text, "Card(name: who, no")
    assert h is not None
    assert h.signatures[0].label == "Card(name: String, note: String?)"
    assert h.active_parameter == 1
    first = h.signatures[0].parameters[0]
    assert first.documentation is not None and first.documentation.value == "Who the card is for."
    h = help_at(text, "  greet(na")
    assert h is not None and h.signatures[0].label == "greet(name: String) -> Card"
    h = help_at(text, "  polish(card: ca")
    assert h is not None and h.signatures[0].label == "polish(card: Card)"
    h = help_at(text, "route done(na")
    assert h is not None and h.signatures[0].label == "route done(name: String, note: String?)"


def test_multi_line_argument_list_and_strings_with_brackets() -> None:
    text = WORKFLOW.replace(
        '    route shelved(tag: tag, reason: "the draft never settled")',
        '    route shelved(\n      tag: tag,\n      reason: "a (stray, paren",\n    )',
    )
    h = help_at(text, 'reason: "a (stray, pa')
    assert h is not None and h.signatures[0].label.startswith("route shelved(") and h.active_parameter == 1
    h = help_at(text, "      tag: t")
    assert h is not None and h.active_parameter == 0


def test_no_help_outside_argument_lists() -> None:
    assert help_at(WORKLOOP, "list_new(inbox: inbox, after: last_seen) -> ba") is None
    assert help_at(WORKLOOP, "step fet") is None
    assert help_at(WORKLOOP, "action list_new(inbox: St") is None  # a declaration, not a call
    assert help_at(WORKLOOP, "detached triage_message(mess") is None
    assert help_at(WORKLOOP, "|> count") is None


def test_plain_documentation_for_clients_without_markdown() -> None:
    from helpers import example, pos, snap_of
    from lsprotocol import types as lsp

    from awl_lsp.features.signature_help import signature_help

    text = example("inbox_sweep.awl").replace("inbox: inbox, after: last_seen)", "inbox: inbox, ")
    snap = snap_of(text)
    at = pos(text, "list_new(inbox: inbox, ", len("list_new(inbox: inbox, "))
    rich = signature_help(snap, at)
    plain = signature_help(snap, at, markdown=False)
    assert rich is not None and plain is not None
    assert isinstance(rich.signatures[0].documentation, lsp.MarkupContent)
    assert plain.signatures[0].documentation == "Messages newer than after, oldest first."
