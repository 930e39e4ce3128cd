"""Perturbed copies of an AWL document that keep its meaning: the differential formatting test
feeds each to our printer and to the engine's reference printer and expects the same text."""

from __future__ import annotations

import random
import re
from collections.abc import Callable

_COMMENT = re.compile(r"^\s*//")


def collapse_spaces(text: str) -> str:
    """Runs of spaces after the indentation become one (alignment collapsed)."""
    return "\n".join(re.sub(r"(?<=\S) {2,}", " ", line) for line in text.split("\n"))


def extra_spaces(text: str) -> str:
    """Spaces after the indentation doubled or tripled at random, spaces around brackets and commas."""
    rng = random.Random(len(text))
    out: list[str] = []
    for line in text.split("\n"):
        body = line.lstrip(" ")
        indent = line[: len(line) - len(body)]
        if _COMMENT.match(line) or '"' in body:
            out.append(line)
            continue
        body = re.sub(r" ", lambda _: " " * rng.randint(1, 3), body)
        body = body.replace("(", "( ").replace(",", " ,")
        out.append(indent + body + " " * rng.randint(0, 2))
    return "\n".join(out)


def broken_alignment(text: str) -> str:
    """Alignment padding shifted: one space more after every colon and comma of every other line."""
    out: list[str] = []
    for i, line in enumerate(text.split("\n")):
        if i % 2 and not _COMMENT.match(line) and '"' not in line:
            line = line.replace(": ", ":  ").replace(", ", ",   ")
        out.append(line)
    return "\n".join(out)


def wrong_indentation(text: str) -> str:
    """Comment lines indented at random, blank lines doubled."""
    rng = random.Random(len(text) + 1)
    out: list[str] = []
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if _COMMENT.match(line) and not line.lstrip().startswith(("//!", "///")):
            line = " " * (2 * rng.randint(0, 3) + rng.randint(0, 1)) + line.lstrip()
        elif not line.strip() and i < len(lines) - 1:
            out.append("   ")
        out.append(line)
    return "\n".join(out)


def shifted_continuations(text: str) -> str:
    """Continuation lines inside parentheses (after a line that leaves a `(` open, other than an
    outcome's) pulled back to the depth of the line they continue."""
    out: list[str] = []
    for line in text.split("\n"):
        prev = out[-1] if out else ""
        opened = prev.count("(") > prev.count(")") and not prev.lstrip().startswith("outcome ")
        if line.strip() and opened and not _COMMENT.match(prev) and not line.lstrip().startswith(")"):
            line = prev[: len(prev) - len(prev.lstrip())] + line.lstrip()
        out.append(line)
    return "\n".join(out)


def joined_lines(text: str) -> str:
    """Lines that continue a logical line (after `,` `{` `(` or before `}` `)`) joined onto it."""
    lines = text.split("\n")
    out: list[str] = []
    for line in lines:
        stripped = line.strip()
        if (
            out
            and stripped
            and not _COMMENT.match(line)
            and not _COMMENT.match(out[-1])
            and "//" not in out[-1]
            and (out[-1].rstrip().endswith((",", "{", "(")) or stripped.startswith(("}", ")")))
            and '"""' not in out[-1]
        ):
            out[-1] = out[-1].rstrip() + " " + stripped
            continue
        out.append(line)
    return "\n".join(out)


PERTURBATIONS: dict[str, Callable[[str], str]] = {
    "collapsed": collapse_spaces,
    "extra-spaces": extra_spaces,
    "broken-alignment": broken_alignment,
    "wrong-indentation": wrong_indentation,
    "shifted-continuations": shifted_continuations,
    "joined": joined_lines,
}


_INSERTS = ["", "// a note", "  // a note", "/// a doc line", "   ", "    // deeper note"]


def mutate(text: str, rng: random.Random) -> str:
    """One seeded single-line change: delete, duplicate, swap, re-indent, join or split a line, drop a
    character, add a comment or blank line. Most results still parse; the reference decides."""
    lines = text.split("\n")
    j = rng.randrange(len(lines))
    line = lines[j]
    kind = rng.randrange(10)
    if kind == 0:
        del lines[j]
    elif kind == 1:
        lines.insert(j, lines[rng.randrange(len(lines))])
    elif kind == 2:
        lines[j] = " " * rng.randrange(5) + line.lstrip()
    elif kind == 3 and line:
        cut = rng.randrange(len(line))
        lines[j] = line[:cut] + line[cut + 1 :]
    elif kind == 4:
        lines[j] = line + rng.choice([" // x", "//", ",", " "])
    elif kind == 5:
        lines.insert(j, rng.choice(_INSERTS))
    elif kind == 6:
        k = rng.randrange(len(lines))
        lines[k], lines[j] = lines[j], lines[k]
    elif kind == 7 and j + 1 < len(lines):
        lines[j : j + 2] = [line + " " + lines[j + 1].strip()]
    elif kind in (8, 9):
        mark = ", " if kind == 8 else "("
        if mark in line:
            indent = len(line) - len(line.lstrip())
            cut = line.index(mark) + len(mark)
            lines[j : j + 1] = [line[:cut].rstrip(), " " * (indent + 2) + line[cut:]]
    return "\n".join(lines)
