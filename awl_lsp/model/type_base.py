"""The type representation of AWL inference: `AwlType`, the builtins, and types read from text or nodes."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from tree_sitter import Node

from awl_lsp.model.index import BUILTIN_TYPES
from awl_lsp.syntax import fields as F


@dataclass(frozen=True)
class AwlType:
    """`kind` is builtin | named | list | optional | duration | unknown; `element` for list/optional.

    `unknown`, `is_list` and `is_optional` are plain attributes, set once when the type is made:
    inference reads them at every step (a property would be a call each time)."""

    kind: str
    name: str = ""
    element: AwlType | None = None
    unknown: bool = field(init=False, compare=False, repr=False)
    is_list: bool = field(init=False, compare=False, repr=False)
    is_optional: bool = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        kind = self.kind
        derived = self.__dict__
        derived["unknown"] = kind == "unknown"
        derived["is_list"] = kind == "list"
        derived["is_optional"] = kind == "optional"

    def __str__(self) -> str:
        if self.kind == "list":
            return f"[{self.element}]"
        if self.kind == "optional":
            return f"{self.element}?"
        if self.kind == "duration":
            return "a duration"
        if self.kind == "unknown":
            return "unknown"
        return self.name

    def strip(self) -> AwlType:
        """The type without its outer `?`."""
        return self.element if self.kind == "optional" and self.element is not None else self


UNKNOWN = AwlType("unknown")
DURATION = AwlType("duration")
BOOL, INT, FLOAT, STRING, NIL, DIR = (
    AwlType("builtin", n) for n in ("Bool", "Int", "Float", "String", "Nil", "Dir")
)


_BUILTINS = {t.name: t for t in (BOOL, INT, FLOAT, STRING, NIL, DIR)}

# The makers below hand out one object per type (up to their caches' sizes), so that equal types
# are usually the same object: the checks compare types at every value, and `is` answers first.


@lru_cache(maxsize=4096)
def list_of(t: AwlType) -> AwlType:
    return AwlType("list", element=t)


@lru_cache(maxsize=4096)
def optional_of(t: AwlType) -> AwlType:
    return t if t.is_optional or t.unknown else AwlType("optional", element=t)


@lru_cache(maxsize=4096)
def named(name: str) -> AwlType:
    if name in BUILTIN_TYPES:
        return _BUILTINS.get(name) or AwlType("builtin", name)
    return AwlType("named", name)


@lru_cache(maxsize=4096)
def parse_type_text(text: str | None) -> AwlType:
    """`[T]`, `T?`, `Name` as written; empty text is UNKNOWN."""
    text = (text or "").strip()
    if not text:
        return UNKNOWN
    if text.endswith("?"):
        return optional_of(parse_type_text(text[:-1]))
    if text.startswith("[") and text.endswith("]"):
        return list_of(parse_type_text(text[1:-1]))
    if not text.replace("_", "").isalnum():
        return UNKNOWN
    return named(text)


def parse_type_node(node: Node | None, source: bytes) -> AwlType:
    if node is None:
        return UNKNOWN
    if node.type == "list_type":
        return list_of(parse_type_node(node.child_by_field_id(F.ELEMENT), source))
    if node.type == "optional_type":
        return optional_of(parse_type_node(node.child_by_field_id(F.INNER), source))
    if node.type == "type_identifier":
        return named(source[node.start_byte : node.end_byte].decode("utf-8", errors="replace"))
    return UNKNOWN


def element_of(t: AwlType) -> AwlType | None:
    t = t.strip()
    return t.element if t.is_list else None
