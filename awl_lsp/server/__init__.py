"""The language server: pygls wiring, and the scheduling around it — protocol in, features out.

Owns the process that `awl lsp` runs: the base protocol and its framing (`protocol`, `dispatch`,
`framing`), the table of open documents and the session around them (`document_table`, `session`),
the editor's notifications (`document_sync`, `workspace_sync`), when diagnostics are published or
pulled (`publishing`, `pull`), the requests (`language_server` for the standard ones,
`navigation_requests`, `custom_requests`, `cancellable_requests`), and the process's own upkeep
(`memory`, `warm`). `demo` drives the real server through a scripted editor session (`make demo`).
Nothing here decides what AWL means: every answer is a feature's, computed from a snapshot.

This package imports nothing at its top, so `awl lsp` can answer `initialize` with pygls loaded only.

May import: `syntax`, `reference`, `model`, `checks`, `workspace`, `features`.
"""
