"""Contracts between documents: a `detached` or `child` declaration against the workflow it names.

The engine binds a declared name to a deployed workflow whose input and output schemas must match;
these rules say where they will not, while the user is still typing:

- each declared parameter is an input of the workflow, with the same type (records compared by
  their fields, so two documents may each declare their own `Note`);
- every required input of the workflow is declared (optional `T?` inputs may be left out);
- a child's result type is what the workflow's success outcomes carry;
- the name belongs to a workflow, not a workloop, and to one workflow in the workspace;
- a contract whose workflow is not in the workspace is only a hint: it may be deployed from elsewhere.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from difflib import get_close_matches
from pathlib import Path

from awl_lsp.checks.base import Problem, Severity
from awl_lsp.workspace.index import Entry, WorkspaceIndex
from awl_lsp.workspace.summary import Contract, DocumentSummary, Range


@dataclass(frozen=True)
class ContractProblem:
    problem: Problem
    related: tuple[tuple[Path, Range, str], ...] = field(default=())  # (document, range, why)


def _shape(type_text: str, summary: DocumentSummary) -> object:
    """What a type means for matching: a record's fields (sorted), otherwise its text."""
    text = type_text.strip()
    suffix = ""
    while text.endswith("?") or (text.startswith("[") and text.endswith("]")):
        if text.endswith("?"):
            suffix += "?"
            text = text[:-1].strip()
        else:
            suffix += "[]"
            text = text[1:-1].strip()
    fields = summary.records.get(text)
    return (tuple(sorted(fields)) if fields is not None else text, suffix)


def same_type(a: str, a_doc: DocumentSummary, b: str, b_doc: DocumentSummary) -> bool:
    """Types match when their shapes do: records by their fields, anything else by name."""
    return _shape(a, a_doc) == _shape(b, b_doc)


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
                        f"`input {p.name}: {target_input.type}`",
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
                            f"succeeds with `outcome {o.name}: type {o.type}`",
                            "contract-result-type",
                        ),
                        ((target.path, o.range, f"`outcome {o.name}` carries `{o.type}`"),),
                    )
                )
    return out


def contract_problems(path: Path, summary: DocumentSummary, index: WorkspaceIndex) -> list[ContractProblem]:
    """The cross-document problems of one document (its own rules are the checker's)."""
    key = path.resolve()
    out: list[ContractProblem] = []
    if summary.flow_name and summary.flow_selection is not None:
        others = [e for e in index.flows_named(summary.flow_name) if e.path != key]
        if others:
            out.append(
                ContractProblem(
                    _problem(
                        summary.flow_selection,
                        f"another document also declares {others[0].summary.flow_kind} "
                        f"`{summary.flow_name}`: one name deploys one workflow, so rename one of them",
                        "workflow-duplicate-name",
                    ),
                    tuple(
                        (e.path, e.summary.flow_selection, "also declared here")
                        for e in others
                        if e.summary.flow_selection is not None
                    ),
                )
            )
    for c in summary.contracts:
        targets = [e for e in index.flows_named(c.name) if e.path != key]
        if not targets:
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
        out.extend(_contract(c, summary, targets[0]))
    return out
