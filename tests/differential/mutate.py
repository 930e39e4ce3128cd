"""Seeded single-line mutations of AWL workflows, for differential testing against the engine.

A mutant differs from its seed document in one line (or one pair of lines, for a move): a line
deleted, duplicated, moved, re-indented; a name use renamed; a type swapped for another; one token
dropped. The structural set makes faults of another kind: two tokens swapped, a keyword changed for
another of its place, a declaration renamed but not its uses, a literal of another type, a whole step
written twice, a `->` dropped. Everything is driven by a `random.Random`, so a seed number
reproduces the same mutants.
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


_LITERAL = re.compile(r'"(?:\\.|[^"\\])*"|\b\d+(?:\.\d+)?[smhd]?\b|\btrue\b|\bfalse\b')
# keywords that stand in the same places, so one can be mistaken for another
_KEYWORD_SWAPS = (
    ("when", "otherwise"),
    ("route", "outcome"),
    ("fork", "loop"),
    ("join", "collect"),
    ("until", "max"),
    ("distribute", "sequence"),
    ("success", "failure"),
    ("input", "signal"),
    ("child", "detached"),
    ("worker", "subflow"),
    ("and", "or"),
    ("is empty", "is present"),
    ("every", "backoff"),
    ("spawn", "wait"),
    ("type", "const"),
)
_DECLARES = re.compile(
    r"^\s*(?:step|worker|subflow|child|detached|const|input|signal|outcome|type|action)\s+([A-Za-z_]\w*)"
    r"|->\s*([a-z_]\w*)\s*$"
)


def _swap_tokens(rng: random.Random, lines: list[str], i: int) -> list[str] | None:
    """Two neighbouring tokens of a line change places (`-> x` becomes `x ->`, `a: T` becomes `: a T`)."""
    s = lines[i]
    tokens = list(_TOKEN.finditer(s))
    if len(tokens) < 2:
        return None
    k = rng.randrange(len(tokens) - 1)
    a, b = tokens[k], tokens[k + 1]
    new = s[: a.start()] + b.group() + s[a.end() : b.start()] + a.group() + s[b.end() :]
    return None if new == s else lines[:i] + [new] + lines[i + 1 :]


def _change_keyword(rng: random.Random, lines: list[str], i: int) -> list[str] | None:
    """A keyword replaced by another that stands in the same kind of place."""
    s = lines[i]
    found = [
        (m, b if m.group() == a else a)
        for a, b in _KEYWORD_SWAPS
        for m in re.finditer(rf"\b(?:{re.escape(a)}|{re.escape(b)})\b", s)
    ]
    if not found:
        return None
    m, other = rng.choice(found)
    return lines[:i] + [s[: m.start()] + other + s[m.end() :]] + lines[i + 1 :]


def _rename_declaration(rng: random.Random, lines: list[str], i: int) -> list[str] | None:
    """The name a line declares (a step, an input, a type, a binding, …) renamed there, its uses not."""
    m = _DECLARES.search(lines[i])
    if m is None:
        return None
    group = 1 if m.group(1) else 2
    name = m.group(group)
    if name in _KEYWORDS or not any(name in line for j, line in enumerate(lines) if j != i):
        return None  # a name nothing else uses is not a rename of anything
    new = name + "_v2" if rng.random() < 0.5 else name[:-1] or name + "x"
    s = lines[i]
    return lines[:i] + [s[: m.start(group)] + new + s[m.end(group) :]] + lines[i + 1 :]


def _retype_literal(rng: random.Random, lines: list[str], i: int) -> list[str] | None:
    """A literal changed to one of another type: a string to a number, a number to a string, a
    duration to a bare number, a Bool to a string."""
    s = lines[i]
    found = list(_LITERAL.finditer(s))
    if not found:
        return None
    m = rng.choice(found)
    text = m.group()
    if text.startswith('"'):
        new = rng.choice(["3", "true", "1.5"])
    elif text in ("true", "false"):
        new = rng.choice(['"yes"', "1"])
    elif text[-1] in "smhd":
        new = text[:-1]
    else:
        new = rng.choice([f'"{text}"', "true"])
    return lines[:i] + [s[: m.start()] + new + s[m.end() :]] + lines[i + 1 :]


def _duplicate_step(rng: random.Random, lines: list[str], i: int) -> list[str] | None:
    """A whole step (its header and indented body) written twice."""
    s = lines[i]
    if not re.match(r"^\s*step\s", s):
        return None
    indent = len(s) - len(s.lstrip(" "))
    end = i + 1
    while end < len(lines) and (
        not lines[end].strip() or len(lines[end]) - len(lines[end].lstrip(" ")) > indent
    ):
        end += 1
    while end > i + 1 and not lines[end - 1].strip():
        end -= 1
    block = lines[i:end]
    return lines[:end] + [""] + block + lines[end:]


def _drop_arrow(rng: random.Random, lines: list[str], i: int) -> list[str] | None:
    """A `->` dropped: the binding name left dangling, or the binding dropped with it."""
    s = lines[i]
    found = list(re.finditer(r"\s*->\s*", s))
    if not found:
        return None
    m = rng.choice(found)
    if rng.random() < 0.5:
        new = s[: m.start()] + " " + s[m.end() :]
    else:
        tail = re.match(r"\s*->\s*[A-Za-z_]\w*", s[m.start() :])
        new = s[: m.start()] + s[m.start() + (tail.end() if tail else m.end() - m.start()) :]
    return None if new.rstrip() == s.rstrip() else lines[:i] + [new.rstrip()] + lines[i + 1 :]


# structural mutations: faults the single-line edits above rarely make (their agreement is reported
# separately, so the floors of the single-line run stay comparable across versions)
STRUCTURAL: dict[str, Callable[[random.Random, list[str], int], list[str] | None]] = {
    "swap-tokens": _swap_tokens,
    "change-keyword": _change_keyword,
    "rename-declaration": _rename_declaration,
    "retype-literal": _retype_literal,
    "duplicate-step": _duplicate_step,
    "drop-arrow": _drop_arrow,
}

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


def mutants(
    seeds: list[tuple[str, str]], count: int, seed: int, structural: bool = False, nesting: bool = False
) -> list[Mutant]:
    """`count` distinct mutants of the seed documents (name, text), reproducible from `seed`: made
    by the single-line `MUTATIONS`, with `structural` by the `STRUCTURAL` ones, with `nesting` by
    `mutate_nesting.NESTING` (steps moved between blocks, routes and `after` re-pointed)."""
    from differential.mutate_nesting import NESTING, nesting_mutant

    rng = random.Random(seed)
    seen: set[str] = {text for _, text in seeds}
    out: list[Mutant] = []
    table = STRUCTURAL if structural else MUTATIONS
    kinds = sorted(NESTING if nesting else table)
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
        if nesting:
            made = nesting_mutant(rng, kind, lines)
            if made is None:
                continue
            new, i = made
        else:
            i = rng.choice(candidates)
            new = table[kind](rng, lines, i)
        if new is None:
            continue
        mutated = "\n".join(new)
        if mutated in seen or not in_reference_language(mutated):
            continue
        seen.add(mutated)
        out.append(Mutant(name, kind, i + 1, mutated))
    return out
