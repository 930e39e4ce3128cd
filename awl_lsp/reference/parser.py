"""Parser for the user's keyword reference (`keyword-reference.txt`).

The reference is a sequence of entries, optionally preceded by a title. Each entry is a
description paragraph, a `• form …` line, a `• positions …` line, and a complete example
document running up to the next entry's description paragraph. Entries do not print their
keyword; `REFERENCE_KEYWORDS` gives them in file order (the user's KEYWORDS.md).
"""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass

REFERENCE_KEYWORDS: tuple[str, ...] = (
    "workloop",
    "carry",
    "invariant",
    "tolerance",
    "retention",
    "hatch",
    "retire",
    "detached",
    "windows",
    "report",
    "confirms",
    "start",
    "unconfirmed",
    "for",
    "key",
)
"""The keyword each reference entry documents, in file order (from KEYWORDS.md)."""

_BULLET = re.compile(r"^\s*[•·*-]\s*(?P<field>form|positions)\b[\s:]*(?P<value>.*?)\s*$", re.IGNORECASE)


class ReferenceFormatError(ValueError):
    """The keyword reference does not have the entry shape this parser reads."""


@dataclass(frozen=True)
class RawEntry:
    """One entry of the reference as printed: it carries no keyword of its own."""

    description: str
    form: str
    positions: tuple[str, ...]
    example: str
    line: int
    """1-based line of the entry's first description line."""


def _normalise(text: str) -> list[str]:
    text = text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    return [line.rstrip() for line in text.split("\n")]


def _paragraph_start(lines: list[str], end: int, floor: int) -> tuple[int, int]:
    """Bounds [start, stop) of the last paragraph ending before line index `end`, not below `floor`."""
    stop = end
    while stop > floor and not lines[stop - 1].strip():
        stop -= 1
    start = stop
    while start > floor and lines[start - 1].strip():
        start -= 1
    return start, stop


def _bullet_blocks(lines: list[str]) -> list[tuple[int, int]]:
    """[start, stop) of each run of form/positions bullet lines (blank lines may separate them)."""
    blocks: list[tuple[int, int]] = []
    index = 0
    while index < len(lines):
        if not _BULLET.match(lines[index]):
            index += 1
            continue
        start = stop = index
        while index < len(lines) and (_BULLET.match(lines[index]) or not lines[index].strip()):
            if lines[index].strip():
                stop = index + 1
            index += 1
        blocks.append((start, stop))
        index = stop
    return blocks


def _split_positions(value: str) -> tuple[str, ...]:
    return tuple(part for part in re.split(r"[\s,;]+", value) if part)


def parse_reference(text: str) -> list[RawEntry]:
    """Split the reference into its entries, in file order."""
    lines = _normalise(text)
    blocks = _bullet_blocks(lines)
    if not blocks:
        raise ReferenceFormatError("no `• form` / `• positions` lines found")
    # Each entry's description is the paragraph right above its bullets.
    descriptions: list[tuple[int, int]] = []
    floor = 0
    for start, stop in blocks:
        bounds = _paragraph_start(lines, start, floor)
        if bounds[0] == bounds[1]:
            raise ReferenceFormatError(f"line {start + 1}: bullets without a description paragraph")
        descriptions.append(bounds)
        floor = stop
    entries: list[RawEntry] = []
    for number, ((desc_start, desc_stop), (block_start, block_stop)) in enumerate(
        zip(descriptions, blocks, strict=True)
    ):
        fields: dict[str, str] = {}
        for line in lines[block_start:block_stop]:
            match = _BULLET.match(line)
            if match:
                field = match["field"].lower()
                if field in fields:
                    raise ReferenceFormatError(f"line {block_start + 1}: `{field}` given twice")
                fields[field] = match["value"]
        for field in ("form", "positions"):
            if not fields.get(field):
                raise ReferenceFormatError(f"line {block_start + 1}: entry has no `{field}` value")
        example_end = descriptions[number + 1][0] if number + 1 < len(blocks) else len(lines)
        example = textwrap.dedent("\n".join(lines[block_stop:example_end])).strip("\n")
        description = " ".join(line.strip() for line in lines[desc_start:desc_stop])
        entries.append(
            RawEntry(
                description=description,
                form=fields["form"],
                positions=_split_positions(fields["positions"]),
                example=example,
                line=desc_start + 1,
            )
        )
    return entries


def parse_keyword_reference(text: str) -> list[tuple[str, RawEntry]]:
    """Parse the reference and pair each entry with the keyword it documents."""
    entries = parse_reference(text)
    if len(entries) != len(REFERENCE_KEYWORDS):
        raise ReferenceFormatError(
            f"the keyword reference has {len(entries)} entries; KEYWORDS.md names {len(REFERENCE_KEYWORDS)}"
        )
    return list(zip(REFERENCE_KEYWORDS, entries, strict=True))
