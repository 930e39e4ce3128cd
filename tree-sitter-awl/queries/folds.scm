; Folding ranges for AWL: every indented block, every bracketed body that spans lines.

[
  (header)
  (invariant_clause)
  (worker_declaration)
  (subflow_declaration)
  (step_body)
  (block)
  (loop_body)
  (record_body)
  (parameters)
  (arguments)
  (list)
  (json_body)
  (raw_string)
] @fold
