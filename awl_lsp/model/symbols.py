"""The semantic model's vocabulary: symbols (declarations), references, and ranges.

Ranges are tree-sitter coordinates `(start_row, start_byte_col, end_row, end_byte_col)`; the
protocol layer converts them to LSP positions. Nothing here holds a tree-sitter node, so a model
survives re-parses and can be cached per top-level item.

The symbols and references of one item share an `Anchor`: how many rows the item moved since it
was read. Their `range`/`selection` are stored as read and give the moved position, so moving an
item (lines added or removed above it) is one addition, however much it declares.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Any

Range = tuple[int, int, int, int]


def shift_range(r: Range, rows: int) -> Range:
    return (r[0] + rows, r[1], r[2] + rows, r[3])


class Anchor:
    """Rows an item moved since its facts were read (shared by its symbols and references)."""

    __slots__ = ("rows",)

    def __init__(self) -> None:
        self.rows = 0


STILL = Anchor()  # the anchor of symbols and references no item moves (never changed)


def _positioned(stored: str) -> property:
    """A range attribute kept as read (in `stored`) and given moved by the owner's anchor."""

    def get(self: Any) -> Range:
        d = self._at.rows
        r = getattr(self, stored)
        return (r[0] + d, r[1], r[2] + d, r[3]) if d else r

    def put(self: Any, r: Range) -> None:
        d = self._at.rows
        setattr(self, stored, (r[0] - d, r[1], r[2] - d, r[3]) if d else r)

    if stored == "_range":  # (the usual two read their attribute directly: features ask all the time)

        def get(self: Any) -> Range:
            d = self._at.rows
            r = self._range
            return (r[0] + d, r[1], r[2] + d, r[3]) if d else r

    elif stored == "_selection":

        def get(self: Any) -> Range:
            d = self._at.rows
            r = self._selection
            return (r[0] + d, r[1], r[2] + d, r[3]) if d else r

    return property(get, put)


def contains(r: Range, row: int, col: int) -> bool:
    return (r[0], r[1]) <= (row, col) <= (r[2], r[3])


class Kind(str, Enum):
    WORKFLOW = "workflow"
    WORKLOOP = "workloop"
    INPUT = "input"
    SIGNAL = "signal"
    OUTCOME = "outcome"  # a workflow or subflow outcome (a route target)
    CARRY = "carry"
    REPORT = "report"
    INVARIANT = "invariant"
    CONST = "const"
    TYPE = "type"
    FIELD = "field"
    VARIANT = "variant"
    WORKER = "worker"
    ACTION = "action"
    PARAMETER = "parameter"
    CHILD = "child"
    DETACHED = "detached"
    SUBFLOW = "subflow"
    STEP = "step"
    STEP_OUTCOME = "step outcome"
    BINDING = "binding"
    RETIRE = "retire"


VALUE_KINDS = frozenset({Kind.INPUT, Kind.CARRY, Kind.CONST, Kind.BINDING, Kind.PARAMETER})
CALLABLE_KINDS = frozenset({Kind.ACTION, Kind.CHILD, Kind.SUBFLOW})


@dataclass
class Symbol:
    kind: Kind
    name: str
    range: Range  # the whole declaration
    selection: Range  # the name
    detail: str = ""  # one-line signature as written, e.g. `action sweep(dir: String) -> Sweep`
    doc: str = ""  # the `///` lines above it
    type: str | None = None  # declared type text (inputs, carries, fields, parameters, typed bindings)
    container: str | None = None  # name of the enclosing declaration (`worker sweepers`, `step dispatch`)
    scope: str = ""  # scope key for bindings: "" for the flow, "subflow:x", "…/fork@row.id", …
    children: list[Symbol] = field(default_factory=list)
    extra: dict[str, str] = field(default_factory=dict)

    def shifted(self, rows: int) -> Symbol:
        if rows == 0:
            return self
        return replace(
            self,
            range=shift_range(self.range, rows),
            selection=shift_range(self.selection, rows),
            children=[c.shifted(rows) for c in self.children],
        )


Symbol._at = STILL  # type: ignore[attr-defined]
Symbol.range = _positioned("_range")  # type: ignore[assignment]
Symbol.selection = _positioned("_selection")  # type: ignore[assignment]


class RefKind(str, Enum):
    STEP = "step"  # `after x`, substeps
    ROUTE = "route"  # route / confirms targets: steps, outcomes, `start`
    CALL = "call"  # action / child / subflow / record construction
    HATCH = "hatch"  # detached
    ANSWER = "answer"  # report
    SIGNAL = "signal"  # `wait s`, `on s`
    TYPE = "type"
    VALUE = "value"  # a name in an expression
    FIELD = "field"  # `x.f`, `.f`
    ARGUMENT = "argument"  # `name:` in an argument list
    COLLECT = "collect"  # `collect x`


@dataclass
class Reference:
    kind: RefKind
    name: str
    range: Range
    scope: str = ""  # scope key where the reference sits (for value lookups)
    context: str = ""  # for FIELD: the base's type name; for ARGUMENT: the callee (`call:f`, `route:o`, …)
    target: Symbol | None = None

    def shifted(self, rows: int) -> Reference:
        if rows == 0:
            return self
        return replace(self, range=shift_range(self.range, rows))


Reference._at = STILL  # type: ignore[attr-defined]
Reference.range = _positioned("_range")  # type: ignore[assignment]
