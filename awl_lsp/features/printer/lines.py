"""Printed lines: the `Out` record, column alignment of runs of similar lines, and rendering
(indentation, blank lines never doubled, comment lines that end a block placed with the next line)."""

from __future__ import annotations

from dataclasses import dataclass

WIDTH = 100
INDENT = "  "
FLOAT = -1  # the depth of comment lines that end a block: that of the next line printed


@dataclass
class Out:
    """An output line: its depth, its text, and the alignment shape it may join."""

    depth: int
    text: str
    blank: bool = False  # a blank line before it
    align: tuple | None = None  # (group key, cells…) for one-line aligned items
    owner: tuple[int, int] | None = None  # source rows of the top-level item it prints
    marker: bool = False  # no line: a blank line before the next line printed


def align(out: list[Out]) -> None:
    """Pad the cells of each run of consecutive lines of one alignment shape to common widths."""
    i = 0
    while i < len(out):
        shape = out[i].align
        key = shape[0] if shape else None
        if key is None:
            i += 1
            continue
        j = i + 1
        members = [i]
        while j < len(out):
            o = out[j]
            if o.blank:
                break
            if o.align is None:  # a comment line or any other line ends the run
                break
            if o.align[0] != key or o.depth != out[i].depth:
                break
            members.append(j)
            j += 1
        if len(members) > 1:
            cells = [shape[1:] for m in members if (shape := out[m].align) is not None]  # every member aligns
            ncols = max(len(c) for c in cells)
            widths = [max((len(c[k]) for c in cells if len(c) > k + 1), default=0) for k in range(ncols)]
            for m, c in zip(members, cells, strict=True):
                trail = out[m].text[len(" ".join(c)) :]
                text = "".join(
                    cell.ljust(widths[k]) + " " if k < len(c) - 1 else cell for k, cell in enumerate(c)
                )
                out[m].text = text + trail
        i = j if j > i else i + 1


def render(out: list[Out]) -> str:
    """The text of the lines, each ending with a line break."""
    following = 0
    for o in reversed(out):  # comment lines that end a block go with the line after them
        if o.depth == FLOAT:
            o.depth = following
        following = o.depth
    lines: list[str] = []
    carried = False
    for o in out:
        if o.marker:
            carried = True
            continue
        if (o.blank or carried) and lines and lines[-1] != "" and o is not out[0]:
            lines.append("")
        carried = False
        lines.append(INDENT * o.depth + o.text)
    return "\n".join(lines) + "\n"
