; Scopes, definitions and references for AWL.
;
; Names in AWL flow through a document: a binding made in one step (`sweep(…) -> found`) is read
; by the steps after it, and a loop's binding and counter are read by the outcomes after the
; loop. A step is therefore not a scope of its own. Scopes are where names really stop:
; the document, a subflow (its own parameters, steps and outcomes), the body of a fork (one
; branch per item, results leave through `join`), a loop body, an `on failure` handler and
; the `retire` block. A reference resolves to the nearest definition before it.
; (A header's `on SIGNAL` precedes its `signal SIGNAL: T`; resolvers that accept later
; definitions, like Neovim's, find it.)

; ------------------------------------------------------------------ scopes

(source_file) @local.scope

(subflow_declaration) @local.scope

(fork_statement
  body: (block) @local.scope)

(loop_body) @local.scope

(on_failure
  body: (block) @local.scope)

(retire_block) @local.scope

; The parameters of an action, a child or a detached workflow name the callee's inputs: they are
; not names of this document's flow.
(action_declaration
  parameters: (parameters) @local.scope)

(child_declaration
  parameters: (parameters) @local.scope)

(detached_declaration
  parameters: (parameters) @local.scope)

; ------------------------------------------------------------------ definitions

(input_clause
  name: (identifier) @local.definition)

(signal_clause
  name: (identifier) @local.definition)

(carry_clause
  name: (identifier) @local.definition)

(const_declaration
  name: (identifier) @local.definition)

(parameter
  name: (identifier) @local.definition)

; `f(…) -> name`, `wait s -> name`, `join -> name`, `collect b -> name`, `x |> stage -> name`
(binding
  name: (identifier) @local.definition)

(fork_statement
  item: (identifier) @local.definition)

(loop_statement
  binding: (identifier) @local.definition)

(loop_statement
  counter: (identifier) @local.definition)

(distribute_statement
  item: (identifier) @local.definition)

; ------------------------------------------------------------------ references

(_expression/identifier) @local.reference

(on_clause
  signal: (identifier) @local.reference)

(wait_statement
  signal: (identifier) @local.reference)

(collect_statement
  value: (identifier) @local.reference)
