"""Lines that stand where the construct above already had theirs: a second settings line under a
call, a second `route` in an outcome arm, an `outcome` arm indented under the arm above.

Error recovery keeps the later of two such lines and wraps the earlier one in an ERROR, or invents a
line token after it; the parse really failed where the second line began, so these name that line
and say, in words, why only one is allowed (facts of LANGUAGE.md).
"""

from __future__ import annotations

from tree_sitter import Node

from awl_lsp.syntax.leaves import first_leaf as _first_leaf
from awl_lsp.syntax.leaves import snippet as _snippet
from awl_lsp.syntax.problems import Problem as SyntaxProblem


def next_code_row(source: bytes, byte: int) -> int:
    """The row of the first non-blank line after the line holding `byte`."""
    return next_code_line(source, byte)[0]


def next_code_line(source: bytes, byte: int) -> tuple[int, bytes]:
    """The row and text of the first non-blank line after the line holding `byte` (else of the
    last line). The lines are read from `byte` on, one at a time: a key typed high in a long
    document does not split the rest of it."""
    row = source.count(b"\n", 0, byte)
    end = source.find(b"\n", byte)
    line = source[source.rfind(b"\n", 0, byte) + 1 : end if end >= 0 else len(source)]
    while end >= 0:
        start, end = end + 1, source.find(b"\n", end + 1)
        line = source[start : end if end >= 0 else len(source)]
        row += 1
        if line.strip():
            break
    return row, line


def arm_indented_after(last: Node, source: bytes) -> SyntaxProblem | None:
    """An `outcome` line indented deeper than the outcome arm `last` ends: the engine names it."""
    arm: Node | None = last
    while arm is not None and arm.type != "step_outcome":
        arm = arm.parent
    row, line = next_code_line(source, last.end_byte)
    if arm is None or row <= last.end_point.row:
        return None
    indent = len(line) - len(line.lstrip(b" "))
    if not line.lstrip(b" ").startswith(b"outcome ") or indent <= arm.start_point.column:
        return None
    return SyntaxProblem(
        (row, indent, row, len(line.rstrip())),
        "this `outcome` arm is indented under the arm above: every outcome arm of a step starts at the "
        "step's statement indentation (only an arm's `route` line goes one level deeper)",
        "syntax",
    )


# What a construct takes only one of, by the kind of the line repeated (facts of LANGUAGE.md).
_ONE_ONLY = {
    "call_config": "a call declaration takes one settings line: put every setting on that one line, "
    "separated by commas",
    "route_statement": "an outcome arm takes one `route`: give this route an `outcome` arm of its own, "
    "or move the work above the outcome clauses",
}


def second_of_a_kind(node: Node, children: list[Node], source: bytes) -> SyntaxProblem | None:
    """An ERROR holding only complete lines, followed by one more: the construct had its line already.

    Error recovery keeps the last of two lines where only one is allowed and wraps the first in the
    ERROR; the parse really failed where the second began, so that is the line to name.
    """
    if not children or any(not c.is_named or c.has_error or c.is_missing for c in children):
        return None
    after = node.next_named_sibling
    while after is not None and after.is_extra:
        after = after.next_named_sibling
    if after is None or after.has_error or after.start_point.row <= children[-1].start_point.row:
        return None
    if after.type != children[-1].type:
        return None
    first = _first_leaf(after)
    row, col = first.start_point.row, first.start_point.column
    line_end = source.find(b"\n", first.start_byte)
    stop = min(after.end_byte, line_end if line_end != -1 else len(source))
    typed = source[first.start_byte : stop].decode("utf-8", errors="replace").strip()
    reason = _ONE_ONLY.get(after.type, "the construct above already has this line")
    message = f"unexpected second `{_snippet(source, first)}` line `{typed}`: {reason}"
    return SyntaxProblem((row, col, row, max(col + len(typed), col + 1)), message, "syntax")


def line_after(node: Node, last: Node, source: bytes) -> SyntaxProblem | None:
    """A line token the parser invented after `last` because the next line repeats a one-only line.

    The parse failed where that next line began (a second `route` in an outcome arm, a second
    settings line under an action), so the problem is named there rather than after `last`.
    """
    row, line = next_code_line(source, last.end_byte)
    if row <= last.end_point.row:
        return None
    root = node
    while root.parent is not None:
        root = root.parent
    col = len(line) - len(line.lstrip(b" "))
    start = root.descendant_for_point_range((row, col), (row, col))
    while start is not None and start.type not in _ONE_ONLY and start.parent is not None:
        if start.parent.start_point != start.start_point:
            start = None
            break
        start = start.parent
    if start is None or start.type not in _ONE_ONLY:
        return None
    typed = line.decode("utf-8", errors="replace").strip()
    word = typed.split(" ", 1)[0].split("(", 1)[0]
    message = f"unexpected second `{word}` line `{typed}`: {_ONE_ONLY[start.type]}"
    return SyntaxProblem((row, col, row, max(col + len(typed), col + 1)), message, "syntax")
