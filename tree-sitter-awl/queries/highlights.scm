; Syntax highlighting for AWL.
;
; Capture names follow nvim-treesitter's conventions. Every node gets at most one capture
; (patterns are qualified by their parent instead of relying on "first match wins" or
; "last match wins"), so the result is the same in Neovim, Helix, Zed and `tree-sitter highlight`.

; ------------------------------------------------------------------ comments

(comment) @comment

[
  (doc_comment)
  (narration)
] @comment.documentation

; ------------------------------------------------------------------ keywords

; The word lists below are the keyword table's (awl_lsp/reference/keywords.py). The words it
; marks with a node (`workflow`, `failure`, `success`, `start`, `true`/`false`, the combinators,
; the builtin types) are captured through that node instead, by the hand-written patterns after
; the lists and further down: elsewhere the same words are a value, a target or a name.
; BEGIN generated keywords: `make keywords` writes this from awl_lsp/reference/keywords.py; edit the table
[
  "workloop"
  "input"
  "signal"
  "outcome"
  "type"
  "schema"
  "worker"
  "action"
  "child"
  "detached"
  "subflow"
  "step"
  "const"
  "after"
  "fork"
  "join"
  "max"
  "sequential"
  "spawn"
  "hatch"
  "key"
  "answer"
  "wait"
  "sleep"
  "timeout"
  "retry"
  "every"
  "backoff"
  "node"
  "on"
  "route"
  "carry"
  "report"
  "invariant"
  "tolerance"
  "windows"
  "unconfirmed"
  "for"
  "confirms"
  "retention"
  "retire"
  "in"
  "of"
  "json"
  "visits"
  "distribute"
  "sequence"
  "collect"
] @keyword

[
  "loop"
  "counting"
  "until"
] @keyword.repeat

[
  "if"
  "else"
  "when"
  "otherwise"
] @keyword.conditional

[
  "is"
  "empty"
  "present"
  "absent"
  "not"
  "and"
  "or"
] @keyword.operator
; END generated keywords

; `workflow` opens a document; `workflow.id` is a value (below).
(workflow_declaration
  "workflow" @keyword)

; `on failure` handler (`failure` is also an outcome route kind, see below).
(on_failure
  "failure" @keyword)

; ------------------------------------------------------------------ declarations

(workflow_declaration
  name: (identifier) @module)

(workloop_declaration
  name: (identifier) @module)

(type_declaration
  name: (identifier) @type.definition)

(enum_variant
  name: (identifier) @constant)

(field_declaration
  name: (identifier) @property)

(worker_declaration
  name: (identifier) @module)

(action_declaration
  name: (identifier) @function)

(child_declaration
  name: (identifier) @function)

(detached_declaration
  name: (identifier) @function)

(subflow_declaration
  name: (identifier) @function)

(step_declaration
  name: (identifier) @function)

(after_clause
  step: (identifier) @function)

(const_declaration
  name: (identifier) @constant)

(parameter
  name: (identifier) @variable.parameter)

(input_clause
  name: (identifier) @variable)

(signal_clause
  name: (identifier) @variable)

(on_clause
  signal: (identifier) @variable)

(wait_statement
  signal: (identifier) @variable)

(carry_clause
  name: (identifier) @variable)

(report_clause
  name: (identifier) @property)

(invariant_clause
  name: (identifier) @property)

(node_setting
  value: (identifier) @module)

; ------------------------------------------------------------------ outcomes and routes

(outcome_clause
  name: (identifier) @label)

(step_outcome
  name: (identifier) @label)

(route_target
  (identifier) @label)

(start) @constant.builtin

(outcome_kind) @constant.builtin

; ------------------------------------------------------------------ types

; BEGIN generated builtin-types: `make keywords` writes this from awl_lsp/reference/keywords.py; edit the table
((type_identifier) @type.builtin
  (#match? @type.builtin "^(Bool|Int|Float|String|Nil|Dir)$"))

((type_identifier) @type
  (#not-match? @type "^(Bool|Int|Float|String|Nil|Dir)$"))
; END generated builtin-types

; ------------------------------------------------------------------ bindings and values

(binding
  name: (identifier) @variable)

(fork_statement
  item: (identifier) @variable)

(loop_statement
  binding: (identifier) @variable)

(loop_statement
  counter: (identifier) @variable)

(distribute_statement
  item: (identifier) @variable)

(collect_statement
  value: (identifier) @variable)

; `visits` reads the visit count of a step bounded by `max N visits`.
((_expression/identifier) @variable.builtin
  (#eq? @variable.builtin "visits"))

; A TitleCase name in an expression is an enum variant.
((_expression/identifier) @constant
  (#match? @constant "^[A-Z]"))

((_expression/identifier) @variable
  (#not-eq? @variable "visits")
  (#not-match? @variable "^[A-Z]"))

(workflow_builtin
  "workflow" @variable.builtin)

(field_expression
  field: (identifier) @property)

(relative_field
  field: (identifier) @property)

(workflow_builtin
  field: (identifier) @property)

(argument
  name: (identifier) @variable.parameter)

; Record construction `Type(field: …)` vs. a call `action(arg: …)`.
((call_expression
  function: (identifier) @type)
  (#match? @type "^[A-Z]"))

((call_expression
  function: (identifier) @function.call)
  (#not-match? @function.call "^[A-Z]"))

(pipe_expression
  stage: (identifier) @function.call)

(combinator
  name: _ @function.builtin)

; ------------------------------------------------------------------ literals

[
  (string)
  (raw_string)
] @string

(json_body) @string.special

[
  (integer)
  (float)
  (duration)
] @number

(boolean) @boolean

; ------------------------------------------------------------------ operators and punctuation

[
  "=="
  "!="
  "<"
  "<="
  ">"
  ">="
  "+"
  "="
  "->"
  "|>"
  ".."
  "?"
] @operator

[
  ","
  ":"
  "."
  "|"
] @punctuation.delimiter

[
  "("
  ")"
  "["
  "]"
  "{"
  "}"
] @punctuation.bracket
