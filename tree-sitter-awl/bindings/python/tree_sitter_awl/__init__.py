"""The AWL grammar for py-tree-sitter: ``Language(tree_sitter_awl.language())``."""

from ._binding import language

__all__ = ["language", "query_source"]


def query_source(name: str) -> str:
    """Text of one of the grammar's queries (``highlights``, ``folds``, ``indents``, ``injections``,
    ``locals``, ``tags``)."""
    from importlib.resources import files  # (loading the grammar alone does not need it)

    return (files(__package__) / "queries" / f"{name}.scm").read_text(encoding="utf-8")
