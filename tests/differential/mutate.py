"""Seeded single-line mutations of AWL workflows, for differential testing against the engine.

A mutant differs from its seed document in one line (or one pair of lines, for a move): a line
deleted, duplicated, moved, re-indented; a name use renamed; a type swapped for another; one token
dropped. Everything is driven by a `random.Random`, so a seed number reproduces the same mutants.
Mutants that would leave the engine reference's language (workloops, `if`/`else` outcomes) are
refused by `in_reference_language`.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_TOKEN = re.compile(r'"""|"(?:\\.|[^"\\])*"|[A-Za-z_][A-Za-z0-9_]*|\d+[smhd]?|\|>|->|==|!=|<=|>=|\S')
_TYPE = re.compile(r"\b[A-Z][A-Za-z0-9]*\b")
_BUILTIN_TYPES = ("Bool", "Int", "Float", "String", "Nil", "Dir")
# words a rename never touches: the language's own words stay, so a rename is a renamed *use*
_KEYWORDS = frozenset(
    """workflow workloop input signal outcome type schema worker action child detached subflow step const
    after fork join loop counting until max sequential spawn hatch key answer wait sleep timeout retry every
    backoff node on failure if else when otherwise route success failure start carry report invariant
    tolerance windows unconfirmed for confirms retention retire filter map sort count any all is empty
    present absent not and or true false in of json visits distribute sequence collect workflow""".split()
)


@dataclass(frozen=True)
class Mutant:
    seed_name: str
    kind: str  # which mutation made it
    line: int  # 1-based line of the seed the mutation touched
    text: str


def _content_lines(lines: list[str]) -> list[int]:
    """Indexes of lines worth mutating: not blank, not a comment or narration line."""
    return [i for i, s in enumerate(lines) if s.strip() and not s.lstrip().startswith("//")]


def _in_raw(lines: list[str]) -> set[int]:
    """Lines inside a `\"\"\"…\"\"\"` string or a `json { … }` / `schema { … }` body (not mutated)."""
    inside: set[int] = set()
    raw = False
    depth = 0
    for i, s in enumerate(lines):
        if raw or depth:
            inside.add(i)
        if s.count('"""') % 2:
            raw = not raw
        if depth or re.search(r"\b(json|schema)\s*\{", s):
            depth += s.count("{") - s.count("}")
            depth = max(depth, 0)
    return inside


def _delete(rng: random.Random, lines: list[str], i: int) -> list[str] | None:
    return lines[:i] + lines[i + 1 :]


def _duplicate(rng: random.Random, lines: list[str], i: int) -> list[str] | None:
    return lines[: i + 1] + [lines[i]] + lines[i + 1 :]


def _move(rng: random.Random, lines: list[str], i: int) -> list[str] | None:
    rest = lines[:i] + lines[i + 1 :]
    j = rng.choice([max(0, i - 1), min(len(rest), i + 1), rng.randrange(len(rest) + 1)])
    if j == i:
        return None
    return rest[:j] + [lines[i]] + rest[j:]


def _reindent(rng: random.Random, lines: list[str], i: int) -> list[str] | None:
    s = lines[i]
    indent = len(s) - len(s.lstrip(" "))
    new = max(0, indent + rng.choice([-2, 2, 4, -1, 1]))
    if new == indent:
        return None
    return lines[:i] + [" " * new + s.lstrip(" ")] + lines[i + 1 :]


def _rename(rng: random.Random, lines: list[str], i: int) -> list[str] | None:
    s = lines[i]
    words = [m for m in _WORD.finditer(s) if m.group() not in _KEYWORDS and m.group()[0].islower()]
    if not words:
        return None
    m = rng.choice(words)
    used = {w for line in lines for w in _WORD.findall(line) if w[0].islower()}
    names = sorted(used - _KEYWORDS - {m.group()})
    new = rng.choice(names) if names and rng.random() < 0.7 else m.group() + "_x"
    return lines[:i] + [s[: m.start()] + new + s[m.end() :]] + lines[i + 1 :]


def _swap_type(rng: random.Random, lines: list[str], i: int) -> list[str] | None:
    s = lines[i]
    types = list(_TYPE.finditer(s))
    if not types:
        return None
    m = rng.choice(types)
    declared = {t for line in lines for t in _TYPE.findall(line)}
    choices = sorted((declared | set(_BUILTIN_TYPES)) - {m.group()})
    if not choices:
        return None
    new = rng.choice(choices)
    if rng.random() < 0.2:
        new = f"[{new}]" if rng.random() < 0.5 else f"{new}?"
    return lines[:i] + [s[: m.start()] + new + s[m.end() :]] + lines[i + 1 :]


def _drop_token(rng: random.Random, lines: list[str], i: int) -> list[str] | None:
    s = lines[i]
    tokens = list(_TOKEN.finditer(s))
    if len(tokens) < 2:
        return None
    m = rng.choice(tokens)
    new = (s[: m.start()] + s[m.end() :]).rstrip()
    new = re.sub(r"(?<=\S)  +", " ", new) if "  " not in s.strip() else new
    return lines[:i] + [new] + lines[i + 1 :]


MUTATIONS: dict[str, Callable[[random.Random, list[str], int], list[str] | None]] = {
    "delete": _delete,
    "duplicate": _duplicate,
    "move": _move,
    "reindent": _reindent,
    "rename": _rename,
    "swap-type": _swap_type,
    "drop-token": _drop_token,
}

_OUTSIDE = re.compile(r"^\s*workloop\b|^\s*outcome\b[^:]*:\s*(if|else)\b|^\s*retire\b", re.M)


def in_reference_language(text: str) -> bool:
    """Whether the engine's rev-2 front end knows this document's constructs (no workloop, no if/else)."""
    return _OUTSIDE.search(text) is None


def mutants(seeds: list[tuple[str, str]], count: int, seed: int) -> list[Mutant]:
    """`count` distinct mutants of the seed documents (name, text), reproducible from `seed`."""
    rng = random.Random(seed)
    seen: set[str] = {text for _, text in seeds}
    out: list[Mutant] = []
    kinds = sorted(MUTATIONS)
    usable = [(name, text) for name, text in seeds if in_reference_language(text)]
    attempts = 0
    while len(out) < count and usable and attempts < count * 50:
        attempts += 1
        name, text = rng.choice(usable)
        lines = text.split("\n")
        raw = _in_raw(lines)
        candidates = [i for i in _content_lines(lines) if i not in raw]
        if not candidates:
            continue
        kind = rng.choice(kinds)
        i = rng.choice(candidates)
        new = MUTATIONS[kind](rng, lines, i)
        if new is None:
            continue
        mutated = "\n".join(new)
        if mutated in seen or not in_reference_language(mutated):
            continue
        seen.add(mutated)
        out.append(Mutant(name, kind, i + 1, mutated))
    return out
