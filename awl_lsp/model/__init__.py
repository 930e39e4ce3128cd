"""Semantic model: one index per document version — declarations, scopes, resolved references.

`ModelBuilder` keeps per-item facts between versions and builds a new `SemanticModel` from the items
an edit touched (`builder`, `facts`, `resolve`); `index` answers the questions every layer above
asks (what a name means here, who reads it); `types` is AWL's type algebra.

May import: `syntax`, `reference`.
"""

from awl_lsp.model.builder import ModelBuilder
from awl_lsp.model.index import BUILTIN_TYPES, SemanticModel
from awl_lsp.model.symbols import Kind, Range, Reference, RefKind, Symbol

__all__ = [
    "BUILTIN_TYPES",
    "Kind",
    "ModelBuilder",
    "Range",
    "RefKind",
    "Reference",
    "SemanticModel",
    "Symbol",
]
