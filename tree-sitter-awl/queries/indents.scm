; Indentation for AWL (nvim-treesitter conventions: @indent.begin / @indent.end /
; @indent.branch / @indent.dedent / @indent.auto / @indent.zero).
;
; AWL structure is indentation, two spaces a level. A line that opens a block (the document
; header, a worker, a subflow, a step, a fork, a loop, `on failure`, `retire`, an invariant)
; indents the lines after it by one level; `indent.immediate` does so even while the block is
; still empty, i.e. right after typing `step name` and pressing Enter.
;
; Every line of AWL owns its line break, so a one-line node already ends on the next row. The
; patterns below therefore mark the *last token* of lines after which the indentation must not
; grow (@indent.end) and the *first token* of continuation lines that must (@indent.begin with
; `indent.start_at_same_line`).

; ------------------------------------------------------------------ blocks

((workflow_declaration) @indent.begin
  (#set! indent.immediate 1))

((workloop_declaration) @indent.begin
  (#set! indent.immediate 1))

((invariant_clause) @indent.begin
  (#set! indent.immediate 1))

((worker_declaration) @indent.begin
  (#set! indent.immediate 1))

((subflow_declaration) @indent.begin
  (#set! indent.immediate 1))

((step_declaration) @indent.begin
  (#set! indent.immediate 1))

((retire_block) @indent.begin
  (#set! indent.immediate 1))

((fork_statement) @indent.begin
  (#set! indent.immediate 1))

((loop_statement) @indent.begin
  (#set! indent.immediate 1))

((on_failure) @indent.begin
  (#set! indent.immediate 1))

; `join` sits at the level of its `fork`; the line after it continues the step body.
(join_clause) @indent.branch @indent.dedent

; `max N` is the last line of a loop body; the line after it continues the step body.
(loop_max) @indent.dedent

; `route` ends an `on failure` handler; the line after it continues the step body.
(on_failure
  body: (block
    (route_statement) @indent.dedent))

; ------------------------------------------------------------------ continuation lines

; A config line under an action or a call (`node X, timeout D`, `retry N every D`) sits one
; level deeper than the line it configures.
((node_setting
  "node" @indent.begin)
  (#set! indent.start_at_same_line 1)
  (#set! indent.immediate 1))

((timeout_setting
  "timeout" @indent.begin)
  (#set! indent.start_at_same_line 1)
  (#set! indent.immediate 1))

((retry_setting
  "retry" @indent.begin)
  (#set! indent.start_at_same_line 1)
  (#set! indent.immediate 1))

; An outcome broken after its comma: `outcome spent: else,` then `route …` one level deeper.
((step_outcome
  "," @indent.begin)
  (#set! indent.immediate 1))

((step_outcome
  route: (route_statement
    "route" @indent.begin))
  (#set! indent.start_at_same_line 1)
  (#set! indent.immediate 1))

; A pipe chain continued on lines that start with `|>`.
(pipe_expression
  "|>" @indent.begin
  (#set! indent.start_at_same_line 1)
  (#set! indent.immediate 1))

; An enum continued on lines that start with `|`.
(enum_body
  "|" @indent.begin
  (#set! indent.start_at_same_line 1)
  (#set! indent.immediate 1))

; ------------------------------------------------------------------ brackets

[
  (record_body)
  (parameters)
  (list)
  (list_type)
] @indent.begin

(call_expression
  arguments: (arguments) @indent.begin)

(step_body
  (route_statement
    payload: (arguments) @indent.begin))

(block
  (route_statement
    payload: (arguments) @indent.begin))

; A payload wrapped inside a broken outcome keeps the indentation it was given.
(step_outcome
  route: (route_statement
    payload: (arguments) @indent.auto))

(record_body
  "}" @indent.branch @indent.end)

; A subflow's parameter list is followed by its indented body, so its `)` does not end a block.
(subflow_declaration
  parameters: (parameters
    ")" @indent.branch))

(action_declaration
  parameters: (parameters
    ")" @indent.branch @indent.end))

(child_declaration
  parameters: (parameters
    ")" @indent.branch @indent.end))

(detached_declaration
  parameters: (parameters
    ")" @indent.branch @indent.end))

(enum_variant
  payload: (parameters
    ")" @indent.branch @indent.end))

(arguments
  ")" @indent.branch @indent.end)

(list
  "]" @indent.branch @indent.end)

(list_type
  "]" @indent.branch @indent.end)

; While a line is still being typed the tree has an ERROR: an open bracket, or an outcome
; that stops at its comma, still indents the next line.
((ERROR
  "(" @indent.begin)
  (#set! indent.immediate 1))

((ERROR
  "[" @indent.begin)
  (#set! indent.immediate 1))

((ERROR
  "{" @indent.begin)
  (#set! indent.immediate 1))

((ERROR
  "outcome"
  "," @indent.begin)
  (#set! indent.immediate 1))

; ------------------------------------------------------------------ the rest

; The narration opens the document in column 0.
(narration) @indent.zero

; Comments, `"""raw strings"""` and `json { … }` bodies keep the indentation they were given.
[
  (comment)
  (doc_comment)
  (raw_string)
  (json_body)
] @indent.auto
