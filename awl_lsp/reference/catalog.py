"""The keyword catalog: the user's reference entries plus this project's own, with completion slots.

Built once on first use: the packaged `keyword-reference.txt` is parsed, paired with
`REFERENCE_KEYWORDS`, merged with the project-written entries, and given the slots
`SLOTS` assigns to each word.
"""

from __future__ import annotations

from functools import cache
from importlib.resources import files

from awl_lsp.reference.entries_body import BODY_ENTRIES
from awl_lsp.reference.entries_structure import STRUCTURE_ENTRIES
from awl_lsp.reference.model import SOURCE_OWN, SOURCE_REFERENCE, KeywordEntry
from awl_lsp.reference.parser import REFERENCE_KEYWORDS, parse_keyword_reference
from awl_lsp.reference.slots import SLOTS, slots_of

REFERENCE_FILE = "keyword-reference.txt"

KEYWORDS: tuple[str, ...] = tuple(
    """
    workflow workloop input signal outcome type schema worker action child detached subflow
    step const after fork join loop counting until max sequential spawn hatch key answer wait
    sleep timeout retry every backoff node on failure if else when otherwise route success
    start carry report invariant tolerance windows unconfirmed for confirms retention retire
    filter map sort count any all is empty present absent not and or true false in of json
    visits distribute sequence collect
    """.split()
)
"""AWL's contextual keywords, in the order LANGUAGE.md lists them."""

BUILTIN_TYPES: tuple[str, ...] = ("Bool", "Int", "Float", "String", "Nil", "Dir")
"""AWL's builtin type names."""

# The reference covers workloop words; all but the `workloop` header itself only mean
# something inside a workloop document.
_REFERENCE_WORKLOOP_ONLY = frozenset(REFERENCE_KEYWORDS) - {"workloop"}


def read_reference_text() -> str:
    """The packaged copy of the user's keyword reference."""
    return files(__package__).joinpath(REFERENCE_FILE).read_text(encoding="utf-8")


@cache
def _catalog() -> dict[str, KeywordEntry]:
    built: dict[str, KeywordEntry] = {}
    for keyword, raw in parse_keyword_reference(read_reference_text()):
        built[keyword] = KeywordEntry(
            keyword=keyword,
            description=raw.description,
            form=raw.form,
            positions=raw.positions,
            slots=slots_of(keyword),
            example=raw.example or None,
            source=SOURCE_REFERENCE,
            workloop_only=keyword in _REFERENCE_WORKLOOP_ONLY,
        )
    for text in (*STRUCTURE_ENTRIES, *BODY_ENTRIES):
        if text.keyword in built:
            raise RuntimeError(f"keyword {text.keyword!r} is documented twice")
        built[text.keyword] = KeywordEntry(
            keyword=text.keyword,
            description=text.description,
            form=text.form,
            positions=text.positions,
            slots=slots_of(text.keyword),
            example=text.example or None,
            source=SOURCE_OWN,
            workloop_only=text.workloop_only,
            workflow_only=text.workflow_only,
        )
    order = (*KEYWORDS, *BUILTIN_TYPES)
    unlisted = sorted(set(built) - set(order))
    missing = [word for word in order if word not in built]
    if unlisted or missing:
        raise RuntimeError(f"keyword catalog out of step: unlisted {unlisted}, undocumented {missing}")
    return {word: built[word] for word in order}


def entry(word: str) -> KeywordEntry | None:
    """The entry documenting `word` (exact spelling), or None when it is not an AWL keyword."""
    return _catalog().get(word)


def entries() -> list[KeywordEntry]:
    """Every entry: the keywords in LANGUAGE.md order, then the builtin types."""
    return list(_catalog().values())


def keywords_for_slot(slot: str, *, workloop: bool | None = None) -> list[KeywordEntry]:
    """The entries that may be typed next in completion context `slot`, in suggestion order.

    With `workloop=True` words that only belong to workflows are dropped; with
    `workloop=False` words that only belong to workloops are dropped; with None (flow kind
    not known yet) nothing is filtered. Raises ValueError for a slot name `SLOTS` lacks.
    """
    if slot not in SLOTS:
        raise ValueError(f"unknown completion slot {slot!r}; known slots: {', '.join(SLOTS)}")
    catalog = _catalog()
    found = [catalog[word] for word in SLOTS[slot].keywords]
    if workloop is True:
        return [item for item in found if not item.workflow_only]
    if workloop is False:
        return [item for item in found if not item.workloop_only]
    return found
