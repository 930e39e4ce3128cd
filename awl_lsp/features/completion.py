"""Completion for AWL: only the words, names and snippets that are legal at the cursor.

`complete(snap, position)` is a pure function of a `Snapshot`. `completion_context.plan` reads the
tree's tokens around the cursor (robust to the half-typed line) and says what may come next —
keyword slots from `awl_lsp.reference`, declared names of the right kind, argument names not yet
given, the fields of a value's type (via `awl_lsp.model.types`), or types. This module turns that
plan into `CompletionItem`s whose text edit replaces the partially typed word.

One item per label. Keywords insert their form (`every ${1:10m}`, see `completion_snippets`),
calls their arguments with a value of each parameter's type as placeholder (a same-named value in
scope, else `""`, `0`, …; never a name that does not exist), and the two document templates are
offered only at the top of an empty document. Snippets go only to clients that support them
(plain text otherwise), Markdown documentation only to clients that accept it. Names in scope
come before keywords.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import cast

from lsprotocol import types as lsp

from awl_lsp.features import completion_snippets as snippets
from awl_lsp.features.completion_calls import Params, call_parts, call_text
from awl_lsp.features.completion_context import Analysis, Plan, plan
from awl_lsp.features.completion_items import SYMBOL_KINDS, Entry, item_defaults, value_detail
from awl_lsp.features.completion_items import resolve_value as resolve_value
from awl_lsp.features.completion_values import Group, Offer, ValueBlock, choose
from awl_lsp.features.lsp_positions import point
from awl_lsp.features.snapshot import Snapshot
from awl_lsp.model import BUILTIN_TYPES, Kind, Symbol
from awl_lsp.model.builder import gc_paused
from awl_lsp.model.types import AwlType, parse_type_text
from awl_lsp.reference import KeywordEntry, entry, keywords_for_slot

# the most items one answer carries: a longer list is cut to the best matches of what is typed and
# marked incomplete, so the client asks again as the user types (the answer stays small and quick
# however many names a large document declares)
MAX_ITEMS = 200


_SNIPPET = lsp.InsertTextFormat.Snippet
_PLAIN = lsp.InsertTextFormat.PlainText


class _Items:
    """Collects offers in offer order, once per label."""

    def __init__(
        self,
        snap: Snapshot,
        a: Analysis,
        p: Plan,
        snippet_ok: bool = True,
        markdown_ok: bool = True,
        lazy_detail: bool = False,
    ) -> None:
        self.snap, self.a, self.p = snap, a, p
        self._named: dict[str, bool] = {}  # name -> an argument of that name takes a value in scope
        self._masks: dict[tuple[str, ...], tuple[bool, ...]] = {}  # … for a callee's argument names
        self.block: ValueBlock | None = None  # the values in scope, where they go in offer order
        self.snippet_ok, self.markdown_ok = snippet_ok, markdown_ok
        self.lazy_detail = lazy_detail  # the client resolves `detail` later (completionItem/resolve)
        line = snap.doc.lines.line_text(a.row).encode("utf-8")
        self.line_ends_here = not line[a.word_end :].strip()  # a keyword's form would not clash
        model = snap.model
        self.workloop: bool | None = model.is_workloop if model.flow is not None else None
        start = snap.doc.to_position((a.row, a.word_start))
        end = snap.doc.to_position((a.row, a.word_end))
        self.range = lsp.Range(lsp.Position(*start), lsp.Position(*end))
        self.shared_range = False  # the client takes the range from the list (`item_defaults`)
        self.shared_format = False  # … and the insert text format
        self.usual_snippet: bool | None = None  # the list's format: snippet or not (None: no default)
        self.entries: list[Offer] = []
        self.seen: set[str] = set()

    def add(
        self,
        label: str,
        kind: lsp.CompletionItemKind,
        detail: str = "",
        doc: str = "",
        insert: str | None = None,
        snippet: bool = False,
    ) -> None:
        self.offer(label, kind, lambda _: (detail, doc, insert, snippet))

    def offer(
        self,
        label: str,
        kind: lsp.CompletionItemKind,
        make: Callable[[Entry], tuple[str, str, str | None, bool]],
        weight: int = 0,
        data: object = None,
    ) -> None:
        if label in self.seen:
            return
        self.seen.add(label)
        self.entries.append(Entry(label, kind, make, weight, data))

    def made(self, e: Entry) -> tuple[str, str, str, bool]:
        """An offer's detail, documentation, text and whether that is a snippet."""
        detail, doc, insert, snippet = e.make(e)
        text = insert if insert is not None else e.label
        if snippet and not self.snippet_ok:
            text, snippet = snippets.plain(text), False
        if snippet and text == snippets.escape(e.label):
            snippet = False
        return detail, doc, text, snippet

    def build(self, index: int, e: Entry, made: tuple[str, str, str, bool]) -> lsp.CompletionItem:
        detail, doc, text, snippet = made
        documentation: lsp.MarkupContent | str | None = None
        if doc:
            documentation = (
                lsp.MarkupContent(lsp.MarkupKind.Markdown, doc) if self.markdown_ok else _unmark(doc)
            )
        shared = self.shared_range
        return lsp.CompletionItem(
            label=e.label,
            kind=e.kind,
            detail=detail or None,
            documentation=documentation,
            sort_text=f"{index:04d}",
            text_edit=None if shared else lsp.TextEdit(self.range, text),
            text_edit_text=text if shared else None,
            insert_text_format=None if snippet == self.usual_snippet else _SNIPPET if snippet else _PLAIN,
            data=e.data,
        )

    def shown(self, limit: int) -> tuple[list[lsp.CompletionItem], bool]:
        """The items to send (at most `limit`, in offer order) and whether the list was cut (see
        `choose`); their sort texts number them in that order. For a client that takes the insert
        text format from the list, the format most items have is the list's (`usual_snippet`)."""
        chosen, cut = choose(self.entries, self.block, self.a.prefix, limit)
        made = [self.made(e) for e in chosen]
        if self.shared_format and made:
            self.usual_snippet = 2 * sum(1 for m in made if m[3]) > len(made)
        return [self.build(i, e, m) for i, (e, m) in enumerate(zip(chosen, made, strict=True))], cut

    # ---- keywords
    def allowed(self, e: KeywordEntry) -> bool:
        if e.keyword in self.p.drop:
            return False
        if self.workloop is True and e.workflow_only:
            return False
        return not (self.workloop is False and e.workloop_only)

    def keyword(
        self,
        e: KeywordEntry,
        kind: lsp.CompletionItemKind = lsp.CompletionItemKind.Keyword,
        form: str = "",
        slot: str = "",
    ) -> None:
        if self.allowed(e):

            def make(_: Entry) -> tuple[str, str, str | None, bool]:
                doc = e.hover_markdown() if self.markdown_ok else e.hover_plaintext()
                shape = snippets.form(e.keyword, slot) if self.line_ends_here else None
                return form or e.form, doc, shape, shape is not None

            self.offer(e.keyword, kind, make)

    def word(
        self, word: str, kind: lsp.CompletionItemKind = lsp.CompletionItemKind.Keyword, slot: str = ""
    ) -> None:
        e = entry(word)
        if e is not None:
            self.keyword(e, kind, slot=slot)

    # ---- symbols
    def symbol(self, sym: Symbol, insert: str | None = None, snippet: bool = False, detail: str = "") -> None:
        kind = SYMBOL_KINDS.get(sym.kind, lsp.CompletionItemKind.Variable)
        self.add(sym.name, kind, detail or sym.detail or sym.name, sym.doc, insert, snippet)

    def symbols(self, symbols: list[Symbol]) -> None:
        """`symbol` for each of `symbols`, each offer made only if the answer needs it."""
        if not symbols:
            return
        kinds, variable, make = SYMBOL_KINDS, lsp.CompletionItemKind.Variable, self._symbol_make

        def offer(s: Symbol) -> Entry:
            return Entry(s.name, kinds.get(s.kind, variable), make, source=s)

        self.entries.append(Group(symbols, frozenset(self.seen), offer))
        self.seen.update([s.name for s in symbols])

    @staticmethod
    def _symbol_make(e: Entry) -> tuple[str, str, str | None, bool]:
        sym = cast(Symbol, e.source)
        return sym.detail or sym.name, sym.doc, None, False

    def in_scope(self, names: tuple[str, ...]) -> tuple[bool, ...]:
        """Per name: does it name a value an argument at the cursor could pass (bindings only once
        bound; see `placeholders.names_in_scope`)? Each name is looked up once per request."""
        mask = self._masks.get(names)
        if mask is not None:
            return mask
        known = self._named
        missing = [n for n in names if n not in known]
        if missing:
            row = self.a.row
            found = self.snap.model.visible_named(missing, self.p.scope)
            for n in missing:
                s = found.get(n)
                known[n] = s is not None and (s.kind is not Kind.BINDING or s.selection[0] < row)
        mask = self._masks[names] = tuple(map(known.__getitem__, names))
        return mask

    def calls(self, symbols: list[Symbol], params: Params) -> None:
        """`name(p: value, …)` for each of `symbols`: each value a placeholder of the parameter's type,
        or a same-named value in scope; an empty tab stop when no value of the type can be written.
        `params(sym)` lists the arguments. Each offer is made only if the answer needs it, and its
        arguments are read only if it is sent (and its parts are not kept, see `completion_calls`)."""
        if not symbols:
            return
        kinds, variable, make = SYMBOL_KINDS, lsp.CompletionItemKind.Variable, self._call_make

        def offer(s: Symbol) -> Entry:
            return Entry(s.name, kinds.get(s.kind, variable), make, source=(s, params))

        self.entries.append(Group(symbols, frozenset(self.seen), offer))
        self.seen.update([s.name for s in symbols])

    def _call_make(self, e: Entry) -> tuple[str, str, str | None, bool]:
        sym, params = cast(tuple[Symbol, Params], e.source)
        parts = call_parts(self.snap, sym, params)
        text = call_text(parts, self.in_scope(parts.names))
        return sym.detail or sym.name, sym.doc, text, True

    def parameters(self, sym: Symbol) -> list[tuple[str, str | None]]:
        """A callable's parameters: (name, type text)."""
        return [(x.name, x.type) for x in self.snap.model.parameters_of(sym)]

    def record_fields(self, sym: Symbol) -> list[tuple[str, str | None]]:
        """A record type's fields: (name, type text) — their docs are not read (a call needs none)."""
        found = self.a.env.fields_of_type(parse_type_text(sym.name))
        return [(n, str(t)) for n, t in found.items()]

    def report_fields(self, sym: Symbol) -> list[tuple[str, str | None]]:
        """The fields of a report's type: (name, type text)."""
        return [(n, t) for n, t, _ in self.fields(sym.type or "")]

    def values(self) -> None:
        """The values in scope at the cursor, offered here (listed only if the answer needs them, see
        `ValueBlock`); each one's type is inferred only when the item is sent — or, for a client
        that resolves `detail` lazily, when the item is resolved (`resolve_value`)."""
        a, p = self.a, self.p
        at, before = len(self.entries), set(self.seen)
        self.block = ValueBlock(self.snap, a.row, p.scope, p.constants_only, at, before, self._value_make)

    def _value_make(self, e: Entry) -> tuple[str, str, str | None, bool]:
        sym = e.data
        assert isinstance(sym, Symbol)
        if self.lazy_detail and not sym.type:
            e.data = {"value": [sym.selection[0], sym.selection[1], sym.name]}
            return f"{sym.kind.value} {sym.name}", sym.doc, None, False
        e.data = None
        return value_detail(sym, self.a.env.type_of_symbol), sym.doc, None, False

    def fields(self, type_text: str | AwlType) -> list[tuple[str, str, str]]:
        """(name, type, doc) of the fields of a type, declared or from a JSON schema."""
        env = self.a.env
        t = parse_type_text(type_text) if isinstance(type_text, str) else type_text
        docs = {f.name: f.doc for f in self.snap.model.fields_of(str(t.strip()))}
        found = env.fields_of_type(t)
        return [(n, str(t), docs.get(n, "")) for n, t in found.items()]


_HEADER_SLOTS = frozenset({"workflow-header", "workloop-header", "invariant-body"})
# statements that name a declaration of this kind: offered once one is declared
_NEEDS = {"spawn": Kind.CHILD, "hatch": Kind.DETACHED, "answer": Kind.REPORT, "wait": Kind.SIGNAL}
_LINE_SLOTS = frozenset({"step-body", "loop-body", "fork-body", "workflow-header", "workloop-header"})


def _unmark(markdown: str) -> str:
    """Markdown documentation as plain text (fences and emphasis dropped)."""
    lines = [line for line in markdown.splitlines() if not line.startswith("```")]
    return "\n".join(lines).replace("**", "").replace("`", "")


def complete(
    snap: Snapshot, position: lsp.Position, snippet_ok: bool = True, markdown_ok: bool = True
) -> list[lsp.CompletionItem]:
    """The completion items at `position` (an empty list where nothing may be typed).

    `snippet_ok` / `markdown_ok`: what the client said it supports (snippet insert text,
    Markdown documentation).
    """
    return list(completion_list(snap, position, snippet_ok, markdown_ok).items)


def completion_list(
    snap: Snapshot,
    position: lsp.Position,
    snippet_ok: bool = True,
    markdown_ok: bool = True,
    lazy_detail: bool = False,
    limit: int = MAX_ITEMS,
    defaults: Collection[str] = (),
) -> lsp.CompletionList:
    """The answer to a completion request: at most `limit` items, `is_incomplete` when cut.

    `lazy_detail`: the client resolves `detail` (`completionItem/resolve`), so values' inferred
    types are left to `resolve_value`. `defaults`: the item defaults the client takes from the list
    (`completionList.itemDefaults`): with `editRange`, the range every item replaces is sent once
    (see `item_defaults`).

    Offering every value in scope makes thousands of short-lived objects: no cyclic collection runs
    meanwhile (one would walk the whole document's model, ≈ 40 ms at 5,000 lines), and the offers'
    cycles (each offer's `make` holds the list) are cut when done, so they are freed at once."""
    with gc_paused():
        out = _offers(snap, position, snippet_ok, markdown_ok, lazy_detail)
        out.shared_range = "editRange" in defaults  # (every item replaces the same range)
        out.shared_format = out.shared_range and "insertTextFormat" in defaults
        items, cut = out.shown(limit)
        out.entries.clear()
        out.block = None
    answer = lsp.CompletionList(is_incomplete=cut, items=items)
    if out.shared_range:
        item_defaults(answer, out.range, out.usual_snippet)
    return answer


def _offers(
    snap: Snapshot, position: lsp.Position, snippet_ok: bool, markdown_ok: bool, lazy_detail: bool
) -> _Items:
    row, col = point(snap, position)
    p, a = plan(snap, row, col)
    out = _Items(snap, a, p, snippet_ok, markdown_ok, lazy_detail)
    model = snap.model
    source = snap.doc.source
    if not source or source.isspace():  # (what `strip` drops, without copying the document)
        for name, body in snippets.TEMPLATES.items():
            out.add(name, lsp.CompletionItemKind.Snippet, f"a new {name} document", "", body, snippet=True)
        return out
    if p.arguments is not None and not _arguments(out, *p.arguments) and p.arguments[0] == "route":
        p.values = True  # a payload that is not a record: `route failed("text")`
        p.slots.append("expression")
    if p.fields_of is not None:
        for name, t, doc in out.fields(p.fields_of):
            out.add(name, lsp.CompletionItemKind.Field, f"{name}: {t}", doc)
    if p.workflow_fields:
        out.add("id", lsp.CompletionItemKind.Field, "workflow.id: String", "The id of this run.")
    if p.route_targets or p.confirms_targets:
        base = a.scope.split("/")[0] if a.scope.startswith("subflow:") else ""
        out.word("start", lsp.CompletionItemKind.EnumMember)
        out.symbols([s for s in model.of_kind(Kind.STEP) if s.scope == base])
        if p.route_targets:
            out.symbols([s for s in model.of_kind(Kind.OUTCOME) if s.scope == base])
            for s in model.of_kind(Kind.STEP_OUTCOME):
                # a substep may route to an outcome of a step around it
                if s.scope == base and s.container in p.enclosing_steps[1:]:
                    out.symbol(s)
    if p.steps is not None:
        for name in p.steps:
            step = model.first(Kind.STEP, name, "")
            if step is not None:
                out.symbol(step)
    if p.detached:
        out.calls(model.of_kind(Kind.DETACHED), out.parameters)
    if p.reports:
        out.calls(model.of_kind(Kind.REPORT), out.report_fields)
    if p.signals:
        out.symbols(model.of_kind(Kind.SIGNAL))
    if p.children:
        out.calls(model.of_kind(Kind.CHILD), out.parameters)
    if p.callables:
        out.calls(model.of_kind(Kind.ACTION, Kind.CHILD, Kind.SUBFLOW), out.parameters)
    if p.stage_actions:
        for s in model.of_kind(Kind.ACTION):
            if len(model.parameters_of(s)) == 1:
                out.symbol(s)
    if p.values:
        out.values()
        out.symbols(model.of_kind(Kind.VARIANT))
    if p.record_types:
        records = [s for s in model.of_kind(Kind.TYPE) if s.extra.get("form") == "record_body"]
        out.calls(records, out.record_fields)
    if any(slot in _LINE_SLOTS for slot in p.slots):  # statements about nothing declared: not yet
        p.drop |= {word for word, kind in _NEEDS.items() if not model.of_kind(kind)}
    for slot in p.slots:
        # words that also serve elsewhere (`every`, `on`, `timeout`) read as what they are here
        form = "header-clause" if slot in _HEADER_SLOTS else ""
        for e in keywords_for_slot(slot, workloop=out.workloop):
            out.keyword(e, form=form, slot=slot)
    line_slot = next((s for s in p.slots if s in _LINE_SLOTS), "")
    for w in p.words:
        out.word(w, slot=line_slot)
    if p.types:
        out.symbols(model.of_kind(Kind.TYPE))
        for name in BUILTIN_TYPES:
            builtin = entry(name)
            out.add(name, lsp.CompletionItemKind.Class, "builtin type", builtin.markdown() if builtin else "")
    return out


def _arguments(out: _Items, how: str, callee: str) -> bool:
    """`name: ` items for the argument names of `callee` not yet written; False if it takes none."""
    model = out.snap.model
    given = out.p.given
    entries: list[tuple[str, str, str]] = []
    if how == "route" and callee == "start":
        entries = [(c.name, c.type or "", c.doc) for c in model.of_kind(Kind.CARRY)]
    elif how == "route":
        outcome = model.first(Kind.OUTCOME, callee)
        entries = out.fields(outcome.type or "") if outcome is not None else []
    elif how == "answer":
        report = model.first(Kind.REPORT, callee)
        entries = out.fields(report.type or "") if report is not None else []
    else:
        target = model.first(Kind.DETACHED, callee) if how == "hatch" else model.callable(callee)
        if target is not None:
            entries = [(x.name, x.type or "", x.doc) for x in model.parameters_of(target)]
        elif how == "call" and model.type_symbol(callee) is not None:
            entries = out.fields(callee)
    for name, t, doc in entries:
        if name not in given:
            out.add(name, lsp.CompletionItemKind.Field, f"{name}: {t}" if t else name, doc, f"{name}: ")
    return bool(entries)
