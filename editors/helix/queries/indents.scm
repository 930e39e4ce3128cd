; Helix indentation for AWL (Helix's captures: @indent / @extend / @outdent).
;
; Nodes that own an indented block indent the lines after their first line. Because AWL blocks
; end by dedenting, they also @extend: a new line typed right after the last line of a block
; stays inside it (Helix's Python queries do the same).

[
  (workflow_declaration)
  (workloop_declaration)
  (invariant_clause)
  (worker_declaration)
  (action_declaration)
  (subflow_declaration)
  (step_declaration)
  (retire_block)
  (fork_statement)
  (loop_statement)
  (on_failure)
  (parameters)
  (arguments)
  (list)
  (record_body)
] @indent

[
  (workflow_declaration)
  (workloop_declaration)
  (invariant_clause)
  (worker_declaration)
  (action_declaration)
  (subflow_declaration)
  (step_declaration)
  (retire_block)
  (fork_statement)
  (loop_statement)
  (on_failure)
] @extend

[
  ")"
  "]"
  "}"
] @outdent
