"""Editor features, one module each, as pure functions of a `Snapshot` (tree + semantic model)."""
