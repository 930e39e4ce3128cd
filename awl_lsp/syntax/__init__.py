"""Syntax layer: parsing AWL with tree-sitter, incremental edits, and position conversions.

Everything above this package sees AWL as a tree-sitter tree plus a `LineIndex`; nothing above it
parses text itself.

May import: nothing else of `awl_lsp` (tree-sitter and the grammar's binding).
"""

from awl_lsp.syntax.document import EditOutOfRange, SyntaxDocument, TextEdit
from awl_lsp.syntax.parser import LANGUAGE, new_parser, parse
from awl_lsp.syntax.positions import Encoding, LineIndex

__all__ = [
    "LANGUAGE",
    "EditOutOfRange",
    "Encoding",
    "LineIndex",
    "SyntaxDocument",
    "TextEdit",
    "new_parser",
    "parse",
]
