"""The words the server tells the client in its `initialize` answer, before any feature is loaded.

The semantic token legend — the token types and modifiers `token_classes` classifies with, in the
order their indices are sent — and AWL's own code action kind, `source.fixAll.awl` (every safe fix
at once, `code_actions`). Plain data: the server answers `initialize` without importing the
features that use them.
"""

from __future__ import annotations

TOKEN_TYPES: list[str] = [
    "namespace",
    "type",
    "enumMember",
    "function",
    "parameter",
    "variable",
    "property",
    "event",
    "keyword",
    "comment",
    "string",
    "number",
    "operator",
]
TOKEN_MODIFIERS: list[str] = ["declaration", "readonly", "documentation", "defaultLibrary"]

FIX_ALL = "source.fixAll.awl"
