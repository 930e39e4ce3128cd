"""Keyword reference data for AWL: hover text, completion slots and the `awl guide` text.

This package owns what the editor features say about each AWL keyword. `keywords.py` is the
table of the words themselves (class, document kinds; the editors' word lists are generated
from it by `make keywords`). The workloop words' text comes from the user's keyword reference
(`keyword-reference.txt`, packaged verbatim and parsed lazily on first use); every other
keyword and builtin type is documented by this project in `entries_structure.py` and
`entries_body.py`. `slots.py` owns the completion contexts where each word may be typed next.

May import: nothing else of `awl_lsp` (the reference text is data).
"""

from awl_lsp.reference.catalog import entries, entry, keywords_for_slot, read_reference_text
from awl_lsp.reference.guide import UnknownKeywordError, render_guide
from awl_lsp.reference.keywords import BUILTIN_TYPES, KEYWORDS, TABLE, Keyword
from awl_lsp.reference.model import SOURCE_OWN, SOURCE_REFERENCE, KeywordEntry
from awl_lsp.reference.parser import REFERENCE_KEYWORDS, ReferenceFormatError, parse_keyword_reference
from awl_lsp.reference.slots import SLOTS, Slot

__all__ = [
    "BUILTIN_TYPES",
    "KEYWORDS",
    "REFERENCE_KEYWORDS",
    "SLOTS",
    "SOURCE_OWN",
    "SOURCE_REFERENCE",
    "TABLE",
    "Keyword",
    "KeywordEntry",
    "ReferenceFormatError",
    "Slot",
    "UnknownKeywordError",
    "entries",
    "entry",
    "keywords_for_slot",
    "parse_keyword_reference",
    "read_reference_text",
    "render_guide",
]
