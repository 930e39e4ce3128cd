"""``python -m awl_lsp …`` is the ``awl`` command."""

from awl_lsp.cli.main import main

if __name__ == "__main__":  # (a spawned worker process imports this module again: `file_jobs`)
    raise SystemExit(main())
