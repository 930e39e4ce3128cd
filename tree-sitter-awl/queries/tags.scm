; Symbols for code navigation (`tree-sitter tags`, GitHub, editors' symbol pickers).
; `///` doc lines right above a declaration become its documentation.

; ------------------------------------------------------------------ modules

(workflow_declaration
  name: (identifier) @name) @definition.module

(workloop_declaration
  name: (identifier) @name) @definition.module

; ------------------------------------------------------------------ types and workers

(
  (doc_comment)* @doc
  .
  (type_declaration
    name: (identifier) @name) @definition.class
  (#strip! @doc "^///[ \t]?|\r?\n$")
  (#select-adjacent! @doc @definition.class)
)

(
  (doc_comment)* @doc
  .
  (worker_declaration
    name: (identifier) @name) @definition.class
  (#strip! @doc "^///[ \t]?|\r?\n$")
  (#select-adjacent! @doc @definition.class)
)

; ------------------------------------------------------------------ callables

(
  (doc_comment)* @doc
  .
  (action_declaration
    name: (identifier) @name) @definition.function
  (#strip! @doc "^///[ \t]?|\r?\n$")
  (#select-adjacent! @doc @definition.function)
)

(
  (doc_comment)* @doc
  .
  (child_declaration
    name: (identifier) @name) @definition.function
  (#strip! @doc "^///[ \t]?|\r?\n$")
  (#select-adjacent! @doc @definition.function)
)

(
  (doc_comment)* @doc
  .
  (detached_declaration
    name: (identifier) @name) @definition.function
  (#strip! @doc "^///[ \t]?|\r?\n$")
  (#select-adjacent! @doc @definition.function)
)

(
  (doc_comment)* @doc
  .
  (subflow_declaration
    name: (identifier) @name) @definition.function
  (#strip! @doc "^///[ \t]?|\r?\n$")
  (#select-adjacent! @doc @definition.function)
)

(
  (doc_comment)* @doc
  .
  (step_declaration
    name: (identifier) @name) @definition.function
  (#strip! @doc "^///[ \t]?|\r?\n$")
  (#select-adjacent! @doc @definition.function)
)

(const_declaration
  name: (identifier) @name) @definition.constant

; ------------------------------------------------------------------ references

((call_expression
  function: (identifier) @name) @reference.call
  (#not-match? @name "^[A-Z]"))

; Record construction `Type(field: …)`.
((call_expression
  function: (identifier) @name) @reference.class
  (#match? @name "^[A-Z]"))

(pipe_expression
  stage: (identifier) @name) @reference.call

(after_clause
  step: (identifier) @name @reference.call)

(route_target
  (identifier) @name) @reference.call

((type_identifier) @name @reference.type
  (#not-match? @name "^(Bool|Int|Float|String|Nil|Dir)$"))
