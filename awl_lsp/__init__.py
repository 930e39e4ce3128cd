"""awl-lsp: editor tooling for AWL — syntax, semantic model, features, language server and CLI."""

__version__ = "0.1.0"
