"""``python -m awl_lsp …`` is the ``awl`` command."""

from awl_lsp.cli import main

raise SystemExit(main())
