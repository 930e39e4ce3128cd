"""Write the editor clients' keyword lists from the keyword table (`awl_lsp/reference/keywords.py`).

    python tools/gen_keywords.py           rewrite the generated regions (what `make keywords` runs)
    python tools/gen_keywords.py --check   exit 1, naming the stale files, when one is not current

Only the generated regions change: in text files the lines between `BEGIN generated NAME` and
`END generated NAME` comment markers, in the JSON files the values named in `JSON_REGIONS`. The
rest of each file is hand-written (the patterns that need context: `route start`, `is empty`,
`on failure`, the names declarations introduce). This is a development tool: nothing in the server
or the CLI imports it.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:  # (run as a script from a clone: the package is the clone's)
    sys.path.insert(0, str(REPO))

from awl_lsp.reference.keywords import TABLE, Keyword  # noqa: E402

COMMAND = "make keywords"
SOURCE = "awl_lsp/reference/keywords.py"

# --- which words each editor colours how -----------------------------------------------------

# The roles a highlight query captures through their nodes, never through a word list.
BY_NODE_ROLES = frozenset({"literal", "target", "combinator", "builtin-type"})

TREE_SITTER_CAPTURES: tuple[tuple[str, frozenset[str]], ...] = (
    ("keyword", frozenset({"declaration", "clause", "control"})),
    ("keyword.repeat", frozenset({"repeat"})),
    ("keyword.conditional", frozenset({"conditional"})),
    ("keyword.operator", frozenset({"logical", "operator-word"})),
)
"""highlights.scm: the capture of each word list, and the roles that go into it."""

TEXTMATE_SCOPES: tuple[tuple[str, frozenset[str]], ...] = (
    ("storage.type.$1.awl", frozenset({"declaration"})),
    ("keyword.control.$1.awl", frozenset({"control", "repeat", "conditional"})),
    ("keyword.other.$1.awl", frozenset({"clause"})),
    ("keyword.operator.logical.$1.awl", frozenset({"logical"})),
    ("keyword.operator.word.$1.awl", frozenset({"operator-word"})),
)
"""awl.tmLanguage.json: the scope of each bare-word pattern, and the roles that go into it."""

KEYWORD_ROLES = frozenset(role for _, roles in TREE_SITTER_CAPTURES for role in roles)


def _words(rows: Iterable[Keyword]) -> list[str]:
    return [k.word for k in rows]


def query_words(roles: frozenset[str]) -> list[str]:
    """The words a highlights.scm word list holds: of these roles, and not captured by their node."""
    return _words(k for k in TABLE if k.role in roles and not k.node)


def textmate_words(roles: frozenset[str]) -> list[str]:
    """The words a bare TextMate pattern holds: of these roles, not only keywords in a context."""
    return _words(k for k in TABLE if k.role in roles and k.place != "context")


def emacs_lists() -> dict[str, tuple[list[str], str]]:
    """The Emacs mode's lists: name -> (words, docstring)."""
    keywordish = [k for k in TABLE if k.role in KEYWORD_ROLES]
    return {
        "awl--line-keywords": (
            _words(k for k in keywordish if k.place == "line"),
            "Keywords where they open a line: declarations, header clauses, statements.",
        ),
        "awl--inner-keywords": (
            _words(k for k in keywordish if k.place != "line"),
            "Keywords where they continue a construct (not as a `.field').",
        ),
        "awl--constants": (
            _words(k for k in TABLE if k.role in ("literal", "target")),
            "Literal words and route targets.",
        ),
        "awl--builtin-types": (_words(k for k in TABLE if k.role == "builtin-type"), "Builtin type names."),
        "awl--combinators": (_words(k for k in TABLE if k.role == "combinator"), "Pipe combinators."),
        "awl--block-openers": (
            block_openers(),
            "Words that, opening a line, open an indented block.",
        ),
    }


def block_openers() -> list[str]:
    return _words(k for k in TABLE if k.opens_block)


# --- the generated text, per file ------------------------------------------------------------


def _marker_line(prefix: str, edge: str, name: str) -> str:
    if edge == "BEGIN":
        return f"{prefix} BEGIN generated {name}: `{COMMAND}` writes this from {SOURCE}; edit the table"
    return f"{prefix} END generated {name}"


def _query_list(words: list[str], capture: str) -> str:
    return "[\n" + "".join(f'  "{w}"\n' for w in words) + f"] @{capture}"


def highlights_keywords() -> str:
    return "\n\n".join(_query_list(query_words(roles), capture) for capture, roles in TREE_SITTER_CAPTURES)


def highlights_builtin_types() -> str:
    alternation = "|".join(_words(k for k in TABLE if k.role == "builtin-type"))
    return (
        f'((type_identifier) @type.builtin\n  (#match? @type.builtin "^({alternation})$"))\n\n'
        f'((type_identifier) @type\n  (#not-match? @type "^({alternation})$"))'
    )


def _elisp_strings(words: list[str], indent: str, width: int = 96) -> str:
    lines: list[str] = []
    line = ""
    for w in words:
        item = f'"{w}"'
        if line and len(indent) + len(line) + 1 + len(item) > width:
            lines.append(line)
            line = item
        else:
            line = f"{line} {item}" if line else item
    lines.append(line)
    return f"\n{indent}".join(lines)


def emacs_region() -> str:
    out = []
    for name, (words, doc) in emacs_lists().items():
        out.append(f'(defconst {name}\n  \'({_elisp_strings(words, "    ")})\n  "{doc}")')
    return "\n\n".join(out)


def nvim_openers() -> str:
    body = _lua_strings(block_openers(), "  ")
    return "local openers = {\n  " + body + ",\n}"


def _lua_strings(words: list[str], indent: str, width: int = 100) -> str:
    lines: list[str] = []
    line = ""
    for w in words:
        item = f'"{w}"'
        if line and len(indent) + len(line) + 2 + len(item) > width:
            lines.append(line + ",")
            line = item
        else:
            line = f"{line}, {item}" if line else item
    lines.append(line)
    return f"\n{indent}".join(lines)


def _alternation(words: list[str]) -> str:
    return "|".join(words)


GENERATED_COMMENT = f"generated by `{COMMAND}` from {SOURCE}: edit the table, not this entry"


def textmate_keywords() -> dict:
    patterns: list[dict[str, str]] = [
        {
            "name": "constant.language.boolean.awl",
            "match": rf"\b(?:{_alternation(_words(k for k in TABLE if k.role == 'literal'))})\b",
        }
    ]
    for scope, roles in TEXTMATE_SCOPES:
        words = textmate_words(roles)
        if words:
            patterns.append({"name": scope, "match": rf"\b({_alternation(words)})\b"})
    return {"comment": GENERATED_COMMENT, "patterns": patterns}


def textmate_types() -> dict:
    builtins = _alternation(_words(k for k in TABLE if k.role == "builtin-type"))
    return {
        "comment": GENERATED_COMMENT,
        "patterns": [
            {"name": "support.type.builtin.awl", "match": rf"\b(?:{builtins})\b"},
            {"name": "entity.name.type.awl", "match": r"\b[A-Z][A-Za-z0-9_]*\b"},
        ],
    }


def increase_indent_pattern() -> str:
    """VS Code's increaseIndentPattern: a line opened by a block-opening word, and the shapes that
    open a block whatever their first word (`on failure`, an action with a config line, an outcome
    broken after its comma, `type T = schema {`, an open bracket)."""
    openers = _alternation(block_openers())
    return (
        rf"^\s*((?:{openers})\b.*|on\s+failure|action\s+\w+\s*\(.*\)(\s*->.*)?|outcome\b.*,"
        r"|type\s+\w+\s*=\s*schema\s*\{|.*[\(\[\{])(\s*//.*)?$"
    )


# --- regions ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class TextRegion:
    path: str
    prefix: str  # the line-comment leader
    name: str
    body: Callable[[], str]


@dataclass(frozen=True)
class JsonRegion:
    path: str
    keys: tuple[str, ...]  # the path to the generated value
    value: Callable[[], object]


TEXT_REGIONS: tuple[TextRegion, ...] = (
    TextRegion("tree-sitter-awl/queries/highlights.scm", ";", "keywords", highlights_keywords),
    TextRegion("tree-sitter-awl/queries/highlights.scm", ";", "builtin-types", highlights_builtin_types),
    TextRegion("editors/emacs/awl-mode.el", ";;", "keywords", emacs_region),
    TextRegion("editors/nvim/lua/awl/indent.lua", "--", "block openers", nvim_openers),
)

JSON_REGIONS: tuple[JsonRegion, ...] = (
    JsonRegion(
        "vscode-extension/syntaxes/awl.tmLanguage.json", ("repository", "keywords"), textmate_keywords
    ),
    JsonRegion("vscode-extension/syntaxes/awl.tmLanguage.json", ("repository", "types"), textmate_types),
    JsonRegion(
        "vscode-extension/language-configuration.json",
        ("indentationRules", "increaseIndentPattern"),
        increase_indent_pattern,
    ),
)


class MarkerError(ValueError):
    """A file lacks the markers (or the JSON key) of a generated region."""


def replace_region(text: str, region: TextRegion) -> str:
    begin = re.escape(f"{region.prefix} BEGIN generated {region.name}") + r"\b[^\n]*\n"
    end = re.escape(_marker_line(region.prefix, "END", region.name)) + r"\n"
    found = list(re.finditer(f"(?m)^{begin}(?:.*\n)*?{end}", text))
    if len(found) != 1:
        raise MarkerError(
            f"{region.path}: expected one region between `{region.prefix} BEGIN generated {region.name}` "
            f"and `{region.prefix} END generated {region.name}` lines, found {len(found)}"
        )
    m = found[0]
    lines = (
        _marker_line(region.prefix, "BEGIN", region.name),
        region.body(),
        _marker_line(region.prefix, "END", region.name),
    )
    return text[: m.start()] + "\n".join(lines) + "\n" + text[m.end() :]


def replace_json(text: str, region: JsonRegion) -> str:
    data = json.loads(text)
    holder = data
    for key in region.keys[:-1]:
        holder = holder.get(key) if isinstance(holder, dict) else None
    if not isinstance(holder, dict) or region.keys[-1] not in holder:
        raise MarkerError(f"{region.path}: no {'.'.join(region.keys)} to generate")
    holder[region.keys[-1]] = region.value()  # (the key keeps its place: dicts keep insertion order)
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def generated(root: Path = REPO) -> dict[Path, tuple[str, str]]:
    """Every generated file: path -> (its text now, the text the generator writes)."""
    out: dict[Path, tuple[str, str]] = {}
    for text_region in TEXT_REGIONS:
        path = root / text_region.path
        before, now = out.get(path) or (path.read_text(encoding="utf-8"),) * 2
        out[path] = (before, replace_region(now, text_region))
    for json_region in JSON_REGIONS:
        path = root / json_region.path
        before, now = out.get(path) or (path.read_text(encoding="utf-8"),) * 2
        out[path] = (before, replace_json(now, json_region))
    return out


def stale(root: Path = REPO) -> list[Path]:
    """The generated files whose text is not what the generator writes."""
    return [path for path, (before, after) in generated(root).items() if before != after]


def main(argv: list[str] | None = None, root: Path = REPO) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n", 1)[0])
    parser.add_argument("--check", action="store_true", help="only say which files are not current")
    args = parser.parse_args(argv)
    try:
        files = generated(root)
    except MarkerError as error:
        print(f"gen_keywords: {error}", file=sys.stderr)
        return 2
    changed = [path for path, (before, after) in files.items() if before != after]
    if args.check:
        for path in changed:
            print(f"{path.relative_to(root)} is not what the keyword table generates: run `{COMMAND}`")
        return 1 if changed else 0
    for path in changed:
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(files[path][1], encoding="utf-8")
        tmp.replace(path)
        print(f"wrote {path.relative_to(root)}")
    if not changed:
        print("the generated keyword lists are current")
    return 0


if __name__ == "__main__":
    sys.exit(main())
