"""Fixes for the settings of a call or an action (`node …, timeout …, retry …`).

- `config-key-twice` (`data.key`): keep one of the settings given twice — "Keep the first
  `retry`" (preferred) or "Keep the last `retry`", each removing the others with their commas.
  Safe when the settings are the same text (nothing is lost); otherwise unsafe, since which value
  was meant is the author's call.
- `call-override` (`data.setting == "retry"`, a call site setting `retry`): move the setting to
  the action the call reaches — appended to its config line, or on a config line of its own under
  the action — and off the call site. Unsafe: every call of the action then retries so. Not
  offered when the action already declares a retry (two schedules: the author must choose).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tree_sitter import Node

from awl_lsp.features.fixes.places import ancestor, end, node_at, start
from awl_lsp.features.fixes.trial import mends
from awl_lsp.features.fixes.values import Edit, Fix, edit
from awl_lsp.syntax.problems import Problem

if TYPE_CHECKING:
    from awl_lsp.features.snapshot import Snapshot

_SETTING = {"node": "node_setting", "timeout": "timeout_setting", "retry": "retry_setting"}


def _without(config: Node, drop: list[Node]) -> list[Edit]:
    """Edits removing the settings `drop` of a config line with the comma that parts each from the
    setting kept before it (or, for the first setting, after it)."""
    settings = [s for s in config.named_children if s.type != "comment"]
    edits = []
    for s in drop:
        i = next(j for j, t in enumerate(settings) if t.id == s.id)
        if i > 0:
            edits.append(edit(end(settings[i - 1]), end(s), ""))
        elif i + 1 < len(settings):
            edits.append(edit(start(s), start(settings[i + 1]), ""))
    return edits


def keep_one_setting(snap: Snapshot, problem: Problem) -> list[Fix]:
    key = (problem.data or {}).get("key")
    config = ancestor(node_at(snap, problem.range), "call_config")
    if config is None or key not in _SETTING or config.has_error:
        return []
    same = [s for s in config.named_children if s.type == _SETTING[key]]
    if len(same) < 2:
        return []
    identical = len({" ".join(snap.text(s).split()) for s in same}) == 1
    out = []
    for keep, which in ((same[0], "first"), (same[-1], "last")):
        drop = [s for s in same if s.id != keep.id]
        title = f"Keep the {which} `{key}` (`{snap.text(keep)}`)"
        out.append(Fix(title, tuple(_without(config, drop)), safe=identical, preferred=which == "first"))
        if identical:
            break  # (keeping either is the same text)
    return out


def move_retry_to_action(snap: Snapshot, problem: Problem) -> list[Fix]:
    setting = ancestor(node_at(snap, problem.range), "retry_setting")
    config = setting.parent if setting is not None else None
    statement = config.parent if config is not None else None
    call = statement.child_by_field_name("value") if statement is not None else None
    if setting is None or config is None or call is None or call.type != "call_expression":
        return []
    action = snap.model.callable(snap.text(call.child_by_field_name("function")))
    decl = ancestor(node_at(snap, action.selection), "action_declaration") if action is not None else None
    if decl is None or decl.has_error:
        return []
    text = snap.text(setting)
    declared = decl.child_by_field_name("config")
    if declared is None:
        signature = decl.child_by_field_name("return_type") or decl.child_by_field_name("parameters")
        if signature is None:
            return []
        indent = " " * (decl.start_point.column + 2)
        add = edit(end(signature), None, f"\n{indent}{text}")
    elif any(s.type == "retry_setting" for s in declared.named_children):
        return []
    else:
        settings = [s for s in declared.named_children if s.type != "comment"]
        add = edit(end(settings[-1]), None, f", {text}")
    others = [s for s in config.named_children if s.type != "comment" and s.id != setting.id]
    if others:
        remove = _without(config, [setting])
    else:  # the config line held only the retry: the line goes
        before = config.prev_sibling
        if before is None:
            return []
        remove = [edit(end(before), end(setting), "")]
    edits = [add, *remove]
    if not mends(snap, problem, edits):
        return []
    title = f"Move `{text}` to action `{action.name if action is not None else ''}`"
    return [Fix(title, tuple(edits), safe=False, preferred=True)]
