"""The AWL tree-sitter language and parser construction (one parser per document)."""

from __future__ import annotations

import tree_sitter_awl
from tree_sitter import Language, Parser, Tree

LANGUAGE = Language(tree_sitter_awl.language())


def new_parser() -> Parser:
    """A fresh parser for AWL (parsers keep state, so each document owns one)."""
    return Parser(LANGUAGE)


def parse(source: bytes, old_tree: Tree | None = None, parser: Parser | None = None) -> Tree:
    """Parse UTF-8 `source`; with `old_tree` (already edited), reuse what did not change."""
    p = parser or new_parser()
    return p.parse(source, old_tree) if old_tree is not None else p.parse(source)
