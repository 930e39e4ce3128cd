"""Type stub for the C extension (binding.c): the language capsule for ``tree_sitter.Language``."""

from typing import Any

def language() -> Any: ...
