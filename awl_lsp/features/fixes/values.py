"""What a fix is: a title and edits in the snapshot's own coordinates, with how far it may be trusted.

A `Fix` is a value, computed from one snapshot and one problem; the editor shows it as a quick fix
and `awl check --fix` applies it, both from the same value. Its `Edit`s replace a range of the
snapshot's text — (start row, start byte column, end row, end byte column), the coordinates every
`Problem` carries — by new text. `safe` says whether the result is certainly what the author
meant (`awl check --fix` applies only safe, preferred fixes unless asked for unsafe ones); a fix
that guesses a name, a value or an intent is unsafe, however likely the guess. `preferred` marks
the one fix an editor may apply on its own ("fix all", auto-fix on save): at most one per problem.

When `snippet` is set, the edits' text is snippet syntax (`${1:value}` placeholders the editor lets
the user tab through, `$0` where the cursor ends): `tabstop` and `escape` write it, and
`plain_text` gives the text without the markers — what a client without snippet edits and the
command line insert.
"""

from __future__ import annotations

from dataclasses import dataclass

Range = tuple[int, int, int, int]  # start row, start byte column, end row, end byte column


@dataclass(frozen=True)
class Edit:
    range: Range
    text: str  # plain text, or snippet syntax when the fix's `snippet` is set


@dataclass(frozen=True)
class Fix:
    title: str
    edits: tuple[Edit, ...]
    safe: bool  # the result is certainly what was meant: `awl check --fix` may apply it unasked
    preferred: bool = False  # the fix to apply when only one is (at most one per problem)
    snippet: bool = False  # the edits' text is snippet syntax (see `tabstop`)

    def plain_edits(self) -> tuple[Edit, ...]:
        """The edits with their snippet markers removed (as they are, when not a snippet)."""
        if not self.snippet:
            return self.edits
        return tuple(Edit(e.range, plain_text(e.text)) for e in self.edits)


def edit(start: tuple[int, int], end: tuple[int, int] | None, text: str) -> Edit:
    """An edit from `start` to `end` (an insertion at `start` when `end` is None)."""
    stop = start if end is None else end
    return Edit((start[0], start[1], stop[0], stop[1]), text)


# ---------------------------------------------------------------------- snippet syntax
def escape(text: str) -> str:
    """`text` as literal snippet text (`$`, `}` and `\\` escaped)."""
    return text.replace("\\", "\\\\").replace("$", "\\$").replace("}", "\\}")


def tabstop(number: int, default: str = "") -> str:
    """A placeholder the user tabs to, holding `default` (plain text) until overwritten; 0 is the
    final cursor position."""
    return f"${{{number}:{escape(default)}}}" if default else f"${number}"


def plain_text(snippet: str) -> str:
    """The text a snippet inserts when nobody edits it: placeholders give their default text,
    tab stops nothing, escapes their character."""
    out: list[str] = []
    i, n = 0, len(snippet)
    depth = 0  # inside how many `${n:` placeholders
    while i < n:
        ch = snippet[i]
        if ch == "\\" and i + 1 < n and snippet[i + 1] in "\\$}":
            out.append(snippet[i + 1])
            i += 2
        elif ch == "$" and i + 1 < n and snippet[i + 1].isdigit():
            i += 1
            while i < n and snippet[i].isdigit():
                i += 1
        elif ch == "$" and snippet.startswith("{", i + 1):
            j = i + 2
            while j < n and snippet[j].isdigit():
                j += 1
            if j < n and snippet[j] == "}":
                i = j + 1  # `${1}`
            else:
                i = j + 1 if j < n and snippet[j] == ":" else j
                depth += 1
        elif ch == "}" and depth:
            depth -= 1
            i += 1
        else:
            out.append(ch)
            i += 1
    return "".join(out)
