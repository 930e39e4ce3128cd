"""Builds the tree_sitter_awl C extension from the committed grammar sources (no CLI, no network).

Metadata lives in pyproject.toml; this file only adds what pyproject cannot say: the package list
spanning two source roots and the C extension, built against Python's limited API (abi3, 3.11+) so
one wheel per platform serves every CPython >= 3.11.
"""
import sys

from setuptools import Extension, find_packages, setup

# MSVC spells the C standard its own way; -O2 is its default for release builds anyway.
CFLAGS = ["/std:c11"] if sys.platform == "win32" else ["-std=c11", "-O2"]

setup(
    packages=[*find_packages(include=["awl_lsp", "awl_lsp.*"]), "tree_sitter_awl", "tree_sitter_awl.queries"],
    ext_modules=[
        Extension(
            name="tree_sitter_awl._binding",
            sources=[
                "tree-sitter-awl/bindings/python/tree_sitter_awl/binding.c",
                "tree-sitter-awl/src/parser.c",
                "tree-sitter-awl/src/scanner.c",
            ],
            include_dirs=["tree-sitter-awl/src"],
            extra_compile_args=CFLAGS,
            define_macros=[("Py_LIMITED_API", "0x030B0000"), ("PY_SSIZE_T_CLEAN", None)],
            py_limited_api=True,
        )
    ],
    options={"bdist_wheel": {"py_limited_api": "cp311"}},
)
