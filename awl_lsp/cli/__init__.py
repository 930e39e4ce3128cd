"""The `awl` command line: `check` (with `--fix`), `fmt`, `parse`, `graph`, `guide` and `lsp`.

Owns what a command does to the files a user names: which documents they are (`file_reads`), the
work spread over every core in the files' order (`file_jobs`), checking and fixing them
(`check_run`), how findings are printed — text, JSON, GitHub annotations, SARIF (`check_report`),
formatting (`fmt_run`), and writing a user's file atomically (`file_writes`). `main` parses the
arguments. The commands run the same analysis the server does (`features.documents`) and never load
a protocol library; `awl lsp` hands the process to the server.

May import: `syntax`, `reference`, `model`, `checks`, `workspace`, `features`;
`server` only to hand it the process (`awl lsp`).
"""
