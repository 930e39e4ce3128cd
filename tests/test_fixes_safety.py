"""What keeps a quick fix from making a document worse: close names that could only be another
mistake are not suggested, a guess is tried on a re-checked copy before it is offered, and the
copy is checked incrementally, finding what a fresh analysis finds.

Each document is canonical and accepted by the engine; one mistake is put in, and the test says
which fixes the user is offered — and, applied as the editor applies them (`fix_cases.apply_fix`),
what the text then is and that the engine accepts it.
"""

from __future__ import annotations

from collections import Counter

from fix_cases import apply_fix, engine_verdict
from helpers import example, snap_of

from awl_lsp.features.documents import OpenDocument, analyse_text
from awl_lsp.features.findings import findings
from awl_lsp.features.fixes import Edit, apply_edits, fixes_for
from awl_lsp.features.fixes.trial import REPLICA, recheck
from awl_lsp.syntax import TextEdit
from awl_lsp.syntax.problems import Problem, Severity

SHIP = """\
//! Ship an order, or skip it when it is empty.
workflow ship_order
  input order_id: String
  outcome shipped: type Shipped, route success
  outcome skipped: type Skipped, route failure

type Order   { id: String, lines: Int }
type Shipped { order_id: String, parcels: Int }
type Skipped { reason: String }

worker depot
  action load(order_id: String) -> Order

step fetch
  load(order_id: order_id) -> order
  outcome full: when order.lines > 0,
    route shipped(order_id: order.id, parcels: order.lines)
  outcome empty: otherwise,
    route skipped(reason: "no lines")
"""

NOTE = """\
//! Send a note and say so.
workflow send_note
  input text: String
  outcome noted: type Receipt, route success
  outcome lost:  type String,  route failure

type Receipt { id: String }

worker mail
  action send(text: String) -> Receipt

step note
  send(text: text) -> noted
  route noted
"""

SUMMARISE = """\
//! Read notes and pass their summary on.
workflow summarise
  input notes: String
  outcome done: type String, route success

type Note { summary: String }

worker pen
  action read(text: String) -> Note

step read
  read(text: notes) -> note
  route done(note.summary)
"""

TALLY = """\
//! Count the documents.
workflow count_docs
  input docs: [String]
  outcome counted: type Tally, route success

type Tally { total: Int }

step tally
  docs |> count -> total
  route counted(total: total)
"""


def _error(text: str, code: str) -> tuple:
    snap = snap_of(text)
    (problem,) = [p for p in findings(snap) if p.code == code and p.severity is Severity.ERROR]
    return snap, problem


def _titles(text: str, code: str) -> list[str]:
    snap, problem = _error(text, code)
    return [f.title for f in fixes_for(snap, problem, strict=True)]


def test_a_close_name_whose_payload_would_not_fit_is_not_offered() -> None:
    broken = SHIP.replace("route shipped(order_id", "route shiped(order_id")
    _, problem = _error(broken, "route-target")
    assert problem.data == {"name": "shiped", "candidates": ["shipped", "skipped"]}
    # (`skipped` carries a `reason`, not an order and its parcels: the route would be wrong twice)
    assert _titles(broken, "route-target") == ["Change to `shipped`"]
    fixed, action = apply_fix(broken, "route-target", "Change to `shipped`")
    assert fixed == SHIP and action.is_preferred
    assert engine_verdict(fixed) == "OK"


def test_a_route_is_not_sent_back_to_the_step_it_stands_in() -> None:
    broken = NOTE.replace("  outcome noted: type Receipt, route success\n", "")
    _, problem = _error(broken, "route-target")
    assert problem.data == {"name": "noted", "candidates": []}  # not `note`: a cycle with no bound
    assert "did you mean" not in problem.message
    assert not [t for t in _titles(broken, "route-target") if t.startswith("Change to")]
    bounded = broken.replace("  route noted\n", "  route noted\n  max 2 visits\n")
    _, problem = _error(bounded, "route-target")
    assert problem.data == {"name": "noted", "candidates": ["note"]}  # (a bounded step may re-enter)


def test_a_route_that_carries_a_value_is_not_sent_to_a_step() -> None:
    broken = SHIP.replace("route skipped(reason", "route fetc(reason")
    _, problem = _error(broken, "route-target")
    assert problem.data == {"name": "fetc", "candidates": []}  # `fetch` is a step: it takes no value


def test_a_value_of_a_type_without_the_field_read_is_no_close_name() -> None:
    broken = SUMMARISE.replace("read(text: notes) -> note", "read(text: notes)")
    _, problem = _error(broken, "unknown-binding")
    assert problem.data == {"name": "note", "candidates": []}  # `notes` is a String: no `summary`
    assert _titles(broken, "unknown-binding") == ["Bind `read` as `-> note`", "Declare input `note`"]
    fixed, _ = apply_fix(broken, "unknown-binding", "Bind `read` as `-> note`")
    assert fixed == SUMMARISE
    assert engine_verdict(fixed) == "OK"


def test_inside_a_subflow_the_enclosing_flows_inputs_are_no_close_names() -> None:
    text = (
        "//! A subflow that reads only its parameter.\n"
        "workflow twice\n"
        "  input a: String\n"
        "  outcome both: type String, route success\n\n"
        "worker text\n"
        "  action upper(s: String) -> String\n\n"
        "subflow shout(word: String)\n"
        "  outcome loud: type String\n\n"
        "  step up\n"
        "    upper(s: ab) -> w\n"
        "    route loud(w)\n\n"
        "step first\n"
        "  shout(word: a) -> la\n\n"
        "step finish after first\n"
        "  route both(la)\n"
    )
    _, problem = _error(text, "unknown-binding")
    assert problem.data == {"name": "ab", "candidates": []}  # `a` is the workflow's, not the subflow's


def test_a_chain_that_ends_nowhere_is_bound_to_the_name_read_below_it() -> None:
    broken = TALLY.replace("docs |> count -> total", "docs |> count")
    assert _titles(broken, "pipe-unterminated") == [
        "Bind the result as `-> total`",
        "Remove the chain (its value goes nowhere)",
    ]
    fixed, action = apply_fix(broken, "pipe-unterminated", "Bind the result as `-> total`")
    assert fixed == TALLY and action.is_preferred
    assert engine_verdict(fixed) == "OK"


def test_a_hatch_key_is_not_copied_from_an_argument_with_an_error_of_its_own() -> None:
    text = example("broken_hatch.awl").replace("order_id: order.id,", "order_id: order.idd,")
    snap = snap_of(text)
    (problem,) = [p for p in findings(snap) if p.code == "hatch-key"]
    assert [f.title for f in fixes_for(snap, problem, strict=True)] == ["Add `key order.total`"]


def test_a_list_forked_over_is_declared_as_a_list_of_what_its_item_is_given_as() -> None:
    text = (
        "//! Grade each sitting.\n"
        "workflow grade_all\n"
        "  outcome graded: type Report, route success\n\n"
        "type Sitting { model: String }\n"
        "type Row     { model: String, passed: Bool }\n"
        "type Report  { rows: [Row] }\n\n"
        "child sit(spec: Sitting) -> Row\n\n"
        "step fan_out\n"
        "  fork spec in sittings\n"
        "    sit(spec: spec)\n"
        "  join -> rows\n\n"
        "step report\n"
        "  route graded(rows: rows)\n"
    )
    fixed, _ = apply_fix(text, "unknown-binding", "Declare input `sittings`")
    assert "  input sittings: [Sitting]\n" in fixed


def test_messages_name_no_line_the_binding_is_a_related_place() -> None:
    text = TALLY.replace(
        "  docs |> count -> total\n  route counted(total: total)",
        "  route counted(total: total)\n  docs |> count -> total",
    )
    snap = snap_of(text)
    (problem,) = [p for p in findings(snap) if p.code == "read-before-bound"]
    assert not any(c.isdigit() for c in problem.message), problem.message
    assert [(r.range[0], r.message) for r in problem.related] == [(9, "`total` is bound here")]


# ---------------------------------------------------------------- the replica trials check
def _keys(text: str) -> Counter[tuple[str, str]]:
    return Counter((p.code, p.message) for p in findings(analyse_text(text)))


def test_a_trial_finds_what_a_fresh_analysis_of_the_fixed_text_finds() -> None:
    """The replica goes from one text tried to the next by the span that differs — at the start,
    the end, across lines, beside a CRLF and a non-ASCII character — and re-checks incrementally."""
    for base in (SHIP, SHIP.replace("\n", "\r\n"), SHIP.replace("no lines", "no lines ✗ 𝄞")):
        snap = analyse_text(base)
        at = base.index("route shipped")
        row = base.count("\n", 0, at)
        col = len(base[base.rfind("\n", 0, at) + 1 : at].encode())
        tries = [
            (Edit((row, col + 6, row, col + 13), "shiped"),),  # a name misspelt
            (Edit((row, col + 6, row, col + 13), "skipped"),),  # a payload that does not fit
            (Edit((0, 0, 0, 0), "// a comment first\n"),),  # at the very start
            (Edit((row - 2, 0, row + 1, 0), ""),),  # an arm and its route removed
            (Edit((row, col + 6, row, col + 13), "shiped"), Edit((1, 0, 1, 0), "\n")),  # two places
        ]
        for edits in tries:
            assert recheck(snap, edits) == _keys(apply_edits(base, edits)), edits
        assert sum(k == REPLICA for k in snap.shared) == 0  # (the document analysed was the replica)


def test_an_open_documents_replica_follows_its_versions() -> None:
    """In the editor the replica is the document's: made once, it follows each new version."""
    doc = OpenDocument(SHIP, 1, None, None)
    first = doc.snapshot
    change = (Edit((16, 10, 16, 17), "skipped"),)
    assert recheck(first, change) == _keys(apply_edits(SHIP, change))
    replica = first.shared[REPLICA]
    doc.edit([TextEdit(13, 5, 13, 10, "load_it")], 2)  # `step fetch` renamed
    second = doc.snapshot
    assert recheck(second, change) == _keys(apply_edits(second.doc.text, change))
    assert second.shared[REPLICA] is replica


def test_a_problem_sent_back_with_other_words_is_still_mended() -> None:
    """A fix reads the problem's code, range and data: its message may be reworded by the client."""
    broken = SHIP.replace("route shipped(order_id", "route shiped(order_id")
    snap, problem = _error(broken, "route-target")
    reworded = Problem(problem.range, "reworded", problem.code, problem.severity, problem.data)
    assert [f.title for f in fixes_for(snap, reworded)] == ["Change to `shipped`"]
