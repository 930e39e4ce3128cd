"""The grammar's field ids by name: `node.child_by_field_id(fields.VALUE)` is `child_by_field_name("value")`
without looking the name up in the language on every call (the hot paths of the model and the
per-item rules ask tens of thousands of times per document).

Every field of `tree-sitter-awl/grammar.js` is here; importing this module fails if the grammar
loses one (a renamed field must be renamed here too, not silently never found).
"""

from __future__ import annotations

from awl_lsp.syntax.parser import LANGUAGE


def field_id(name: str) -> int:
    """The id of the grammar field `name` (a KeyError for a name the grammar does not have)."""
    found = LANGUAGE.field_id_for_name(name)
    if not found:
        raise KeyError(f"the AWL grammar has no field `{name}`")
    return found


IDS: dict[str, int] = {
    name: i for i in range(1, LANGUAGE.field_count + 1) if (name := LANGUAGE.field_name_for_id(i)) is not None
}

AFTER = field_id("after")
ARGUMENT = field_id("argument")
ARGUMENTS = field_id("arguments")
ATTEMPTS = field_id("attempts")
BINDING = field_id("binding")
BODY = field_id("body")
CALL = field_id("call")
COLLECTION = field_id("collection")
CONDITION = field_id("condition")
CONFIG = field_id("config")
COUNT = field_id("count")
COUNTER = field_id("counter")
DEFAULT = field_id("default")
DURATION = field_id("duration")
ELEMENT = field_id("element")
FIELD = field_id("field")
FROM = field_id("from")
FUNCTION = field_id("function")
GUARD = field_id("guard")
HEADER = field_id("header")
INDEX = field_id("index")
INNER = field_id("inner")
INPUT = field_id("input")
INTERVAL = field_id("interval")
ITEM = field_id("item")
JOIN = field_id("join")
JSON = field_id("json")
KEY = field_id("key")
KEYWORD = field_id("keyword")
LEFT = field_id("left")
LIMIT = field_id("limit")
MODE = field_id("mode")
NAME = field_id("name")
OPERAND = field_id("operand")
OPERATOR = field_id("operator")
PARAMETERS = field_id("parameters")
PATH = field_id("path")
PAYLOAD = field_id("payload")
RETURN_TYPE = field_id("return_type")
RIGHT = field_id("right")
ROUTE = field_id("route")
SEED = field_id("seed")
SEQUENTIAL = field_id("sequential")
SIGNAL = field_id("signal")
STAGE = field_id("stage")
STEP = field_id("step")
TARGET = field_id("target")
TEST = field_id("test")
TIMEOUT = field_id("timeout")
TO = field_id("to")
TOLERANT = field_id("tolerant")
TYPE = field_id("type")
UNCONFIRMED = field_id("unconfirmed")
UNEXPECTED_BLOCK = field_id("unexpected_block")
UNKNOWN = field_id("unknown")
VALUE = field_id("value")
VARIANT = field_id("variant")
WINDOWS = field_id("windows")
WORD = field_id("word")

__all__ = [
    "IDS",
    "field_id",
    "AFTER",
    "ARGUMENT",
    "ARGUMENTS",
    "ATTEMPTS",
    "BINDING",
    "BODY",
    "CALL",
    "COLLECTION",
    "CONDITION",
    "CONFIG",
    "COUNT",
    "COUNTER",
    "DEFAULT",
    "DURATION",
    "ELEMENT",
    "FIELD",
    "FROM",
    "FUNCTION",
    "GUARD",
    "HEADER",
    "INDEX",
    "INNER",
    "INPUT",
    "INTERVAL",
    "ITEM",
    "JOIN",
    "JSON",
    "KEY",
    "KEYWORD",
    "LEFT",
    "LIMIT",
    "MODE",
    "NAME",
    "OPERAND",
    "OPERATOR",
    "PARAMETERS",
    "PATH",
    "PAYLOAD",
    "RETURN_TYPE",
    "RIGHT",
    "ROUTE",
    "SEED",
    "SEQUENTIAL",
    "SIGNAL",
    "STAGE",
    "STEP",
    "TARGET",
    "TEST",
    "TIMEOUT",
    "TO",
    "TOLERANT",
    "TYPE",
    "UNCONFIRMED",
    "UNEXPECTED_BLOCK",
    "UNKNOWN",
    "VALUE",
    "VARIANT",
    "WINDOWS",
    "WORD",
]
