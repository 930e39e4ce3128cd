"""Snippet text for completion: each keyword's form with tab stops, and the two document templates.

`form(word, slot)` is what accepting a keyword inserts (`every ${1:10m}`), `TEMPLATES` the
whole documents offered only at the top of an empty document, and `plain(snippet)` the same
text for clients without snippet support (tab stops replaced by their placeholder text).
"""

from __future__ import annotations

import re

_FORMS = {
    "every": "every ${1:10m}",
    "retention": "retention ${1:7d}",
    "timeout": "timeout ${1:30m}",
    "input": "input ${1:name}: ${2:String}",
    "signal": "signal ${1:name}: ${2:String}",
    "carry": "carry ${1:name}: ${2:Int} = ${3:0}",
    "report": "report ${1:name}: type ${2:Type}",
    "invariant": "invariant ${1:name}: type ${2:Type}",
    "tolerance": "tolerance ${1:3} windows",
    "confirms": "confirms ${1:start}",
    "const": "const ${1:name} = ${2:value}",
    "type": "type ${1:Name} { ${2:field}: ${3:String} }",
    "worker": "worker ${1:name}",
    "action": "action ${1:name}(${2:param}: ${3:String}) -> ${4:Type}",
    "child": "child ${1:name}(${2:param}: ${3:String}) -> ${4:Type}",
    "detached": "detached ${1:name}(${2:param}: ${3:String})",
    "subflow": "subflow ${1:name}(${2:param}: ${3:String})",
    "step": "step ${1:name}",
    "after": "after ${1:step}",
    "fork": "fork ${1:item} in ${2:items}",
    "loop": "loop ${1:value} = ${2:seed}",
    "distribute": "distribute ${1:item} in ${2:items}",
    "sequence": "sequence ${1:item} in ${2:items}",
    "collect": "collect ${1:name} -> ${2:all}",
    "spawn": "spawn ${1:child}($2)",
    "hatch": "hatch ${1:detached}($2) key ${3:id}",
    "answer": "answer ${1:report}($2)",
    "wait": "wait ${1:signal} -> ${2:name}",
    "sleep": "sleep ${1:5m}",
    "route": "route ${1:target}",
    "node": "node ${1:pool}",
    "retry": "retry ${1:3} every ${2:30s}",
    "backoff": "backoff ${1:1s}..${2:1m}",
    "until": "until ${1:condition}",
    "max": "max ${1:3}",
    "counting": "counting ${1:rounds}",
    "key": "key ${1:id}",
}
_BY_SLOT = {
    ("on", "workloop-header"): "on ${1:signal}",
    ("on", "step-body"): "on failure",
    ("outcome", "workflow-header"): "outcome ${1:name}: type ${2:Type}, route ${3|success,failure|}",
    ("outcome", "step-body"): "outcome ${1:name}: if ${2:condition}, route ${3:target}",
    ("max", "step-body"): "max ${1:3} visits",
}
_LINE_SLOTS = frozenset(
    {
        "top-level",
        "workflow-header",
        "workloop-header",
        "invariant-body",
        "worker-body",
        "action-config",
        "step-body",
        "loop-body",
        "fork-body",
        "step-header",
        "wait-tail",
        "retry-schedule",
    }
)

TEMPLATES = {
    "workloop": "\n".join(
        [
            "//! ${1:What this loop keeps doing.}",
            "workloop ${2:name}",
            "  every ${3:10m}",
            "  input ${4:dir}: String",
            "  report ${5:board}: type ${6:Board}",
            "  invariant ${7:healthy}: type ${6:Board}",
            "    tolerance ${8:3} windows",
            "    confirms start",
            "  retention ${9:7d}",
            "",
            "type ${6:Board} { handled: Int }",
            "",
            "worker ${10:workers}",
            "  action ${11:poll}(${4:dir}: String) -> ${6:Board}",
            "",
            "step ${12:poll_once}",
            "  ${11:poll}(${4:dir}: ${4:dir}) -> found",
            "  answer ${5:board}(handled: found.handled)",
            "  route start",
            "",
            "retire",
            "  ${11:poll}(${4:dir}: ${4:dir})",
            "$0",
        ]
    ),
    "workflow": "\n".join(
        [
            "//! ${1:What this workflow does.}",
            "workflow ${2:name}",
            "  input ${3:request}: String",
            "  outcome ${4:done}: type ${5:Result}, route success",
            "",
            "type ${5:Result} { text: String }",
            "",
            "worker ${6:workers}",
            "  action ${7:work}(${3:request}: String) -> ${5:Result}",
            "",
            "step ${8:run}",
            "  ${7:work}(${3:request}: ${3:request}) |> route ${4:done}",
            "$0",
        ]
    ),
}


def form(word: str, slot: str) -> str | None:
    """The snippet a keyword inserts where `slot` allows it (None: the bare word)."""
    if slot not in _LINE_SLOTS:
        return None
    return _BY_SLOT.get((word, slot)) or _FORMS.get(word)


_TABSTOP = re.compile(r"\$\{\d+:([^}]*)\}|\$\{\d+\|([^,|]*)[^}]*\}|\$\{\d+\}|\$\d+")


def plain(snippet: str) -> str:
    """The snippet as plain text: each tab stop becomes its placeholder (or nothing)."""
    return _TABSTOP.sub(lambda m: m.group(1) or m.group(2) or "", snippet)


def escape(text: str) -> str:
    """Literal text inside a snippet (`$`, `}` and `\\` escaped)."""
    return text.replace("\\", "\\\\").replace("$", "\\$").replace("}", "\\}")
