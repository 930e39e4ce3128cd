"""Semantic model: one index per document version — declarations, scopes, resolved references."""

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
