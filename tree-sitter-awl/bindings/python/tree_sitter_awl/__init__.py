"""The AWL grammar for py-tree-sitter: ``Language(tree_sitter_awl.language())``."""

from importlib.resources import files as _files

from ._binding import language

__all__ = ["language", "query_source"]


def query_source(name: str) -> str:
    """Text of one of the grammar's queries (``highlights``, ``folds``, ``indents``, ``injections``,
    ``locals``, ``tags``)."""
    return (_files(__package__) / "queries" / f"{name}.scm").read_text(encoding="utf-8")
