"""Contracts between documents: a `detached` or `child` declaration against the workflow it names.

The engine binds a declared name to a deployed workflow whose input and output schemas must match;
these rules say where they will not, while the user is still typing:

- each declared parameter is an input of the workflow, with the same type (records compared by
  their fields, so two documents may each declare their own `Note`);
- every required input of the workflow is declared (optional `T?` inputs may be left out);
- a child's result type is what the workflow's success outcomes carry;
- the name belongs to a workflow, not a workloop.

Which document a contract is checked against is the workspace's one resolution
(`WorkspaceIndex.resolve_flow`: the document itself, then the nearest folder). A mismatch is an
error when that workflow lies in the contract's folder or below it, and a warning when it was only
found further away (it may not be the one deployed). Equally near workflows that would judge the
contract differently are one warning naming them all, never an error. Two documents declaring one
workflow name are no problem by themselves. A contract whose workflow is not in the workspace is
only a hint: it may be deployed from elsewhere.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from difflib import get_close_matches
from pathlib import Path

from awl_lsp.checks.base import Problem, Severity
from awl_lsp.workspace.index import Entry, WorkspaceIndex
from awl_lsp.workspace.resolution import Resolution, shown
from awl_lsp.workspace.summary import Contract, DocumentSummary, Range, type_shape

MAX_RELATED = 8  # documents named in one diagnostic's related information, at most

Related = tuple[tuple[Path, Range, str], ...]  # (document, range, why)


@dataclass(frozen=True)
class ContractProblem:
    problem: Problem
    related: Related = field(default=())


def same_type(a: str, a_doc: DocumentSummary, b: str, b_doc: DocumentSummary) -> bool:
    """Types match when their shapes do: records by their fields, anything else by name."""
    return type_shape(a, a_doc) == type_shape(b, b_doc)


def _fields_apart(a: str, a_doc: DocumentSummary, b: str, b_doc: DocumentSummary) -> str:
    """Where one type name stands for records of other fields in the two documents, what each holds."""
    if a.strip() != b.strip():
        return ""
    here, there = type_shape(a, a_doc)[0], type_shape(b, b_doc)[0]

    def written(shape: object) -> str:
        if isinstance(shape, tuple):
            return "{ " + ", ".join(f"{n}: {t}" for n, t in shape) + " }"
        return "not a record"

    return f" (`{a.strip()}` is `{written(here)}` here, `{written(there)}` there)"


def _problem(r: Range, message: str, code: str, severity: Severity = Severity.ERROR) -> Problem:
    return Problem(r, message, code, severity)


def _contract(c: Contract, here: DocumentSummary, target: Entry) -> list[ContractProblem]:
    out: list[ContractProblem] = []
    flow = target.summary
    where = (
        ((target.path, flow.flow_selection, f"workflow `{flow.flow_name}` is declared here"),)
        if flow.flow_selection is not None
        else ()
    )
    if flow.flow_kind == "workloop":
        out.append(
            ContractProblem(
                _problem(
                    c.selection,
                    f"`{c.name}` is a workloop, which runs on its own; "
                    f"a `{c.kind}` declaration names a workflow",
                    "contract-workloop",
                ),
                where,
            )
        )
        return out
    inputs = {i.name: i for i in flow.inputs}
    for p in c.params:
        target_input = inputs.get(p.name)
        if target_input is None:
            close = get_close_matches(p.name, list(inputs), n=1)
            hint = f": did you mean `{close[0]}`?" if close else ""
            message = f"workflow `{flow.flow_name}` has no input `{p.name}`{hint}"
            out.append(ContractProblem(_problem(p.range, message, "contract-unknown-input"), where))
        elif not same_type(p.type, here, target_input.type, flow):
            out.append(
                ContractProblem(
                    _problem(
                        p.range,
                        f"`{p.name}` is `{p.type}` here, but workflow `{flow.flow_name}` takes "
                        f"`input {p.name}: {target_input.type}`"
                        + _fields_apart(p.type, here, target_input.type, flow),
                        "contract-input-type",
                    ),
                    ((target.path, target_input.range, f"`input {p.name}: {target_input.type}`"),),
                )
            )
    declared = {p.name for p in c.params}
    missing = [i for i in flow.inputs if i.name not in declared and not i.optional]
    if missing:
        listed = ", ".join(f"`{i.name}: {i.type}`" for i in missing)
        out.append(
            ContractProblem(
                _problem(
                    c.selection,
                    f"`{c.kind} {c.name}` leaves out what workflow `{flow.flow_name}` requires: {listed}",
                    "contract-missing-input",
                ),
                tuple((target.path, i.range, f"`input {i.name}: {i.type}` is required") for i in missing),
            )
        )
    if c.kind == "child" and c.result:
        for o in flow.outcomes:
            if o.route == "success" and o.type and not same_type(c.result, here, o.type, flow):
                out.append(
                    ContractProblem(
                        _problem(
                            c.selection,
                            f"child `{c.name}` returns `{c.result}`, but workflow `{flow.flow_name}` "
                            f"succeeds with `outcome {o.name}: type {o.type}`"
                            + _fields_apart(c.result, here, o.type, flow),
                            "contract-result-type",
                        ),
                        ((target.path, o.range, f"`outcome {o.name}` carries `{o.type}`"),),
                    )
                )
    return out


def contract_problems(path: Path, summary: DocumentSummary, index: WorkspaceIndex) -> list[ContractProblem]:
    """The cross-document problems of one document (its own rules are the checker's)."""
    key = index.key(path)
    out: list[ContractProblem] = []
    for c in summary.contracts:
        found = index.resolve_flow(c.name, key)
        if found.chosen is None:
            if index.roots:
                out.append(
                    ContractProblem(
                        _problem(
                            c.selection,
                            f"no workflow `{c.name}` in this workspace to check this `{c.kind}` against "
                            "(it may be deployed from elsewhere)",
                            "contract-unresolved",
                            Severity.HINT,
                        )
                    )
                )
            continue
        out.extend(_resolved(c, summary, found, index.roots))
    return out


def _gist(found: list[ContractProblem]) -> tuple:
    return tuple((f.problem.code, f.problem.message) for f in found)


def _resolved(
    c: Contract, here: DocumentSummary, found: Resolution[Entry], roots: list[Path]
) -> list[ContractProblem]:
    """The contract against the workflow it binds to, said with which document that is."""
    verdicts = [(e, _contract(c, here, e)) for e in found.tied]
    if any(_gist(v) != _gist(verdicts[0][1]) for _, v in verdicts[1:]):
        return [_ambiguous(c, found, verdicts, roots)]
    chosen = verdicts[0][0]
    rel = shown(chosen.path, found.origin, roots)
    count = len(found.candidates)
    if not found.local:
        where = (
            f"; checked against `{rel}`, the nearest document declaring `{c.name}`, which lies outside "
            "this document's folder (a warning: the workflow deployed under that name may be another)"
        )
    elif count > 1:
        where = f"; checked against `{rel}`, the nearest of the {count} documents declaring `{c.name}`"
    else:
        where = f"; checked against `{rel}`"
    severity = Severity.ERROR if found.local else Severity.WARNING
    return [
        ContractProblem(
            replace(f.problem, message=f.problem.message + where, severity=severity),
            _with_resolution(f.related, found),
        )
        for f in verdicts[0][1]
    ]


def _with_resolution(related: Related, found: Resolution[Entry]) -> Related:
    """A problem's own related places, then the workflow checked against and the other documents
    declaring its name (nearest first, `MAX_RELATED` at most)."""
    out = list(related)
    chosen = found.chosen
    assert chosen is not None
    if chosen.summary.flow_selection is not None and not any(p == chosen.path for p, _, _ in related):
        out.append(
            (chosen.path, chosen.summary.flow_selection, "the workflow this contract is checked against")
        )
    tied = len(found.tied)
    for i, other in enumerate(found.others[: MAX_RELATED - 1], start=1):
        if other.summary.flow_selection is not None:
            why = (
                f"also declares `{found.name}`, as near"
                if i < tied
                else f"also declares `{found.name}`, farther from this document"
            )
            out.append((other.path, other.summary.flow_selection, why))
    return tuple(out)


def _ambiguous(
    c: Contract,
    found: Resolution[Entry],
    verdicts: list[tuple[Entry, list[ContractProblem]]],
    roots: list[Path],
) -> ContractProblem:
    """Equally near workflows of one name that judge the contract differently: one warning."""
    names = [f"`{shown(e.path, found.origin, roots)}`" for e, _ in verdicts]
    fits = [n for n, (_, v) in zip(names, verdicts, strict=True) if not v]
    if fits:
        verdict = f"it fits {', '.join(fits)} only"
    else:
        verdict = "it fits none of them, each for another reason"
    message = (
        f"`{c.kind} {c.name}` may bind to any of {len(verdicts)} equally near workflows `{c.name}` "
        f"that differ ({', '.join(names)}): {verdict} — keep one, or give them different names"
    )
    related = tuple(
        (
            e.path,
            e.summary.flow_selection,
            "fits this contract" if not v else f"does not fit: {v[0].problem.message}",
        )
        for e, v in verdicts[:MAX_RELATED]
        if e.summary.flow_selection is not None
    )
    return ContractProblem(_problem(c.selection, message, "contract-ambiguous", Severity.WARNING), related)
