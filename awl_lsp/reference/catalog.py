"""The keyword catalog: the user's reference entries plus this project's own, with completion slots.

Built once on first use: the packaged `keyword-reference.txt` is parsed, paired with
`REFERENCE_KEYWORDS`, merged with the project-written entries, and given the slots
`SLOTS` assigns to each word. The words, their order, their form and the document kinds they
belong to are the keyword table's (`keywords.py`); the entries hold only the text.
"""

from __future__ import annotations

from functools import cache
from importlib.resources import files

from awl_lsp.reference.entries_body import BODY_ENTRIES
from awl_lsp.reference.entries_structure import STRUCTURE_ENTRIES
from awl_lsp.reference.keywords import BUILTIN_TYPES, BY_WORD, KEYWORDS, WORKFLOW, WORKLOOP
from awl_lsp.reference.model import SOURCE_OWN, SOURCE_REFERENCE, KeywordEntry
from awl_lsp.reference.parser import parse_keyword_reference
from awl_lsp.reference.slots import SLOTS, slots_of

REFERENCE_FILE = "keyword-reference.txt"


def read_reference_text() -> str:
    """The packaged copy of the user's keyword reference."""
    return files(__package__).joinpath(REFERENCE_FILE).read_text(encoding="utf-8")


def _entry(
    keyword: str, description: str, positions: tuple[str, ...], example: str, source: str
) -> KeywordEntry:
    row = BY_WORD.get(keyword)
    if row is None:
        raise RuntimeError(
            f"keyword catalog out of step: {keyword!r} is documented but not in keywords.TABLE"
        )
    return KeywordEntry(
        keyword=keyword,
        description=description,
        form=row.form,
        positions=positions,
        slots=slots_of(keyword),
        example=example or None,
        source=source,
        workloop_only=row.kinds == WORKLOOP,
        workflow_only=row.kinds == WORKFLOW,
    )


@cache
def _catalog() -> dict[str, KeywordEntry]:
    built: dict[str, KeywordEntry] = {}
    for keyword, raw in parse_keyword_reference(read_reference_text()):
        built[keyword] = _entry(keyword, raw.description, raw.positions, raw.example, SOURCE_REFERENCE)
    for text in (*STRUCTURE_ENTRIES, *BODY_ENTRIES):
        if text.keyword in built:
            raise RuntimeError(f"keyword {text.keyword!r} is documented twice")
        built[text.keyword] = _entry(text.keyword, text.description, text.positions, text.example, SOURCE_OWN)
    order = (*KEYWORDS, *BUILTIN_TYPES)
    unlisted = sorted(set(built) - set(order))
    missing = [word for word in order if word not in built]
    if unlisted or missing:
        raise RuntimeError(
            f"keyword catalog out of step: documented but not in keywords.TABLE: {unlisted}; in the table "
            f"without an entry (write one in reference/entries_structure.py or entries_body.py): {missing}"
        )
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
