"""Editor features, one module each, as pure functions of a `Snapshot` (tree + semantic model).

`documents` is where snapshots come from: an open document's text, its incremental tree, the model
built lazily for the newest version, and the caches that make the next version cheap — the server
and the command line both analyse through it. Each other module answers one kind of question about
a snapshot (hover, completion, diagnostics, semantic tokens, …) in the model's coordinates; the
conversion to LSP positions is `lsp_positions`. `fixes/` holds the quick fixes (the editor's and
`awl check --fix`'s one code path) and `printer/` the canonical form (`awl fmt`, formatting).

May import: `syntax`, `reference`, `model`, `checks`, `workspace`.
"""
