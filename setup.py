"""Builds the tree_sitter_awl C extension from the committed grammar sources (no CLI, no network)."""
from setuptools import Extension, setup

setup(
    packages=["awl_lsp", "awl_lsp.syntax", "awl_lsp.model", "awl_lsp.features", "awl_lsp.reference",
              "awl_lsp.checks", "tree_sitter_awl"],
    ext_modules=[
        Extension(
            name="tree_sitter_awl._binding",
            sources=[
                "tree-sitter-awl/bindings/python/tree_sitter_awl/binding.c",
                "tree-sitter-awl/src/parser.c",
                "tree-sitter-awl/src/scanner.c",
            ],
            include_dirs=["tree-sitter-awl/src"],
            extra_compile_args=["-std=c11", "-O2"],
            define_macros=[("Py_LIMITED_API", "0x030B0000"), ("PY_SSIZE_T_CLEAN", None)],
            py_limited_api=True,
        )
    ],
)
