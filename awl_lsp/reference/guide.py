"""`awl guide`: the keyword catalog rendered as terminal text."""

from __future__ import annotations

import difflib
import textwrap

from awl_lsp.reference.catalog import entries, entry
from awl_lsp.reference.model import SOURCE_REFERENCE, KeywordEntry

FORM_ORDER: tuple[str, ...] = (
    "declaration",
    "header-clause",
    "clause",
    "statement",
    "guard",
    "target-word",
    "combinator",
    "operator",
    "test",
    "literal",
    "type-door",
    "type",
)
"""The order the guide index lists forms in; forms not named here follow alphabetically."""

_MIN_WIDTH = 40


class UnknownKeywordError(KeyError):
    """`render_guide` was asked about a word that is not an AWL keyword."""

    def __init__(self, word: str, suggestions: list[str]) -> None:
        super().__init__(word)
        self.word = word
        self.suggestions = suggestions

    def __str__(self) -> str:
        message = f"{self.word!r} is not an AWL keyword"
        if self.suggestions:
            message += f"; did you mean {', '.join(self.suggestions)}?"
        return message


def _resolve(word: str) -> KeywordEntry:
    found = entry(word)
    if found is not None:
        return found
    known = [item.keyword for item in entries()]
    folded = [keyword for keyword in known if keyword.lower() == word.lower()]
    if len(folded) == 1:
        resolved = entry(folded[0])
        if resolved is not None:
            return resolved
    by_lower = {keyword.lower(): keyword for keyword in known}
    close = difflib.get_close_matches(word.lower(), list(by_lower), n=5, cutoff=0.6)
    raise UnknownKeywordError(word, [by_lower[match] for match in close])


def _index(width: int) -> str:
    groups: dict[str, list[KeywordEntry]] = {}
    for item in entries():
        groups.setdefault(item.form, []).append(item)
    forms = [form for form in FORM_ORDER if form in groups]
    forms += sorted(form for form in groups if form not in FORM_ORDER)
    column = max(len(item.keyword) for item in entries()) + 2
    summary_width = max(width - 2 - column, 12)
    lines = [
        textwrap.fill(
            f"AWL keywords ({len(entries())}), grouped by form. Run `awl guide WORD` for a full entry.",
            width,
        )
    ]
    for form in forms:
        lines += ["", form]
        for item in groups[form]:
            summary = textwrap.shorten(item.description, summary_width, placeholder=" …")
            lines.append(f"  {item.keyword:<{column}}{summary}".rstrip())
    return "\n".join(lines)


def _full(item: KeywordEntry, width: int) -> str:
    parts = [f"{item.keyword} — {item.summary}", textwrap.fill(item.description, width)]
    if item.example:
        example = "\n".join(f"    {line}" if line else "" for line in item.example.splitlines())
        parts.append(f"Example:\n{example}")
    footer = []
    if item.slots:
        footer.append(textwrap.fill(f"Typed next in: {', '.join(item.slots)}.", width))
    source = "the user's keyword reference" if item.source == SOURCE_REFERENCE else "awl-lsp"
    footer.append(f"Source: {source}.")
    parts.append("\n".join(footer))
    return "\n\n".join(parts)


def render_guide(word: str | None = None, *, width: int = 88) -> str:
    """Terminal text for `awl guide`: an index grouped by form, or one word's full entry.

    Raises `UnknownKeywordError` (a KeyError carrying close matches) for a word that is
    not an AWL keyword.
    """
    width = max(width, _MIN_WIDTH)
    if word is None:
        return _index(width)
    return _full(_resolve(word.strip()), width)
