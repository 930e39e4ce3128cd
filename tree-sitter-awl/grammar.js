/**
 * tree-sitter grammar for AWL — the workflow language of a durable-execution engine.
 *
 * Structure comes from indentation: src/scanner.c emits `_newline`, `_indent` and `_dedent`
 * tokens, so blocks (header clauses, step bodies, fork/loop/on-failure/retire bodies) nest in the
 * tree the way they nest on the page. Inside brackets and `json {…}` / `schema {…}` bodies
 * newlines carry no structure. Most keywords are contextual (tree-sitter's `word` extraction):
 * `count`, `report`, `key`, `retry`, … stay names wherever a keyword is not expected.
 *
 * The grammar is deliberately a little more permissive than the language (optional parts such
 * as a missing `key`, a missing return type or a missing `windows`): the checker then reports
 * what is missing in words, instead of the parser giving up on the whole line.
 */

const PREC = {
  or: 2,
  and: 3,
  not: 4,
  compare: 5,
  is: 6,
  pipe: 7,
  plus: 8,
  postfix: 10,
};

const commaSep1 = (rule) => seq(rule, repeat(seq(',', rule)));
const commaSep = (rule) => optional(commaSep1(rule));
const trailingCommaSep = (rule) => optional(seq(commaSep1(rule), optional(',')));

module.exports = grammar({
  name: 'awl',

  word: $ => $.identifier,

  externals: $ => [
    $._newline,
    $._indent,
    $._dedent,
    $.json_body,
    $._line_scan,
    $._error_sentinel,
    ')',
    ']',
    '}',
    $.comment,
    $.doc_comment,
    $.narration,
  ],

  extras: $ => [
    /[ \t\r\f\uFEFF]/,
    /\n/,
    $._line_scan,
    $.comment,
    $.doc_comment,
    $.narration,
  ],

  supertypes: $ => [
    $._expression,
    $._statement,
    $._type,
  ],

  conflicts: $ => [],

  rules: {
    source_file: $ => repeat($._item),

    _item: $ => choice(
      $.workflow_declaration,
      $.workloop_declaration,
      $.const_declaration,
      $.type_declaration,
      $.worker_declaration,
      $.child_declaration,
      $.detached_declaration,
      $.subflow_declaration,
      $.step_declaration,
      $.retire_block,
      $.unknown_declaration,
    ),

    // ---------------------------------------------------------------- trivia
    // `comment`, `doc_comment` and `narration` are read by src/scanner.c (a comment owns its line
    // break, so the line after it starts a fresh scan, and the scanner knows where lines start).

    // ---------------------------------------------------------------- documents
    workflow_declaration: $ => seq(
      'workflow',
      optional(field('name', $.identifier)),
      $._header_tail,
    ),

    workloop_declaration: $ => seq(
      'workloop',
      optional(field('name', $.identifier)),
      $._header_tail,
    ),

    _header_tail: $ => choice($._newline, field('header', $.header)),

    header: $ => seq($._indent, repeat1(choice($._header_clause, $.unknown_clause)), $._dedent),

    // A line in a block that starts with a word no clause starts with (often a half-typed
    // keyword): kept as its own node so the rest of the block parses and completion has context.
    unknown_clause: $ => seq(
      field('word', $.identifier),
      choice(
        $._newline,
        seq($._indent, repeat1(choice($.tolerance_clause, $.confirms_clause, $.unknown_clause)), $._dedent),
      ),
    ),

    // A top-level line that starts with a word no declaration starts with (a half-typed
    // `workloop`, `worker`, …); its indented header/actions still parse.
    unknown_declaration: $ => seq(
      field('word', $.identifier),
      optional(field('name', $.identifier)),
      choice($._newline, field('header', $.header)),
    ),

    _header_clause: $ => choice(
      $.timeout_clause,
      $.input_clause,
      $.signal_clause,
      $.outcome_clause,
      $.every_clause,
      $.on_clause,
      $.carry_clause,
      $.report_clause,
      $.invariant_clause,
      $.retention_clause,
    ),

    timeout_clause: $ => seq('timeout', field('duration', $._expression), $._newline),

    input_clause: $ => seq(
      'input',
      field('name', $.identifier),
      optional(seq(':', field('type', $._type))),
      $._newline,
    ),

    signal_clause: $ => seq(
      'signal',
      field('name', $.identifier),
      optional(seq(':', field('type', $._type))),
      $._newline,
    ),

    // `outcome n: type T, route success|failure` in a header; in a subflow the route is absent.
    outcome_clause: $ => seq(
      'outcome',
      field('name', $.identifier),
      ':',
      optional(seq('type', field('type', $._type))),
      // the comma and a misspelt route kind are tolerated here and reported by the checker
      optional(seq(optional(','), 'route', field('route', choice($.outcome_kind, $.identifier)))),
      $._newline,
    ),

    outcome_kind: $ => choice('success', 'failure'),

    every_clause: $ => seq('every', field('duration', $._expression), $._newline),

    on_clause: $ => seq('on', field('signal', $.identifier), $._newline),

    carry_clause: $ => seq(
      'carry',
      field('name', $.identifier),
      optional(seq(':', field('type', $._type))),
      optional(seq('=', field('default', $._expression))),
      $._newline,
    ),

    report_clause: $ => seq(
      'report',
      field('name', $.identifier),
      ':',
      optional('type'),
      field('type', $._type),
      $._newline,
    ),

    invariant_clause: $ => seq(
      'invariant',
      optional(field('name', $.identifier)),
      optional(seq(':', optional('type'), field('type', $._type))),
      choice(
        $._newline,
        seq(
          $._indent,
          repeat1(choice($.tolerance_clause, $.confirms_clause, $.unknown_clause)),
          $._dedent,
        ),
      ),
    ),

    // `tolerance N windows` or `tolerance unconfirmed for D`; missing tails are reported by the checker.
    tolerance_clause: $ => seq(
      'tolerance',
      optional(choice(
        seq(field('count', $._expression), optional(field('windows', choice('windows', $.identifier)))),
        seq(
          field('unconfirmed', 'unconfirmed'),
          optional(seq('for', optional(field('duration', $._expression)))),
        ),
      )),
      $._newline,
    ),

    confirms_clause: $ => seq('confirms', optional(field('target', $.route_target)), $._newline),

    retention_clause: $ => seq('retention', field('duration', $._expression), $._newline),

    // ---------------------------------------------------------------- declarations
    const_declaration: $ => seq(
      'const',
      field('name', $.identifier),
      '=',
      field('value', $._expression),
      $._newline,
    ),

    type_declaration: $ => seq(
      'type',
      field('name', $.identifier),
      choice(
        field('body', $.record_body),
        seq('=', field('body', choice($.schema_body, $.schema_import, $.enum_body))),
      ),
      $._newline,
    ),

    record_body: $ => seq('{', repeat(seq($.field_declaration, optional(','))), '}'),

    field_declaration: $ => seq(
      field('name', $.identifier),
      ':',
      field('type', $._type),
    ),

    schema_body: $ => seq('schema', field('json', $.json_body)),

    // the path is optional here so that `(` may end its line (the checker asks for the path)
    schema_import: $ => seq('schema', '(', optional(field('path', $.string)), ')'),

    enum_body: $ => seq(
      field('variant', $.enum_variant),
      repeat(seq('|', field('variant', $.enum_variant))),
    ),

    enum_variant: $ => seq(field('name', $.identifier), optional(field('payload', $.parameters))),

    worker_declaration: $ => seq(
      'worker',
      field('name', $.identifier),
      choice($._newline, seq($._indent, repeat(choice($.action_declaration, $.unknown_clause)), $._dedent)),
    ),

    action_declaration: $ => seq(
      'action',
      optional(field('name', $.identifier)),
      optional(field('parameters', $.parameters)),
      optional(seq('->', field('return_type', $._type))),
      choice(
        $._config_tail,
        // actions or declarations indented under an action (the syntax layer reports the line):
        // kept whole, so the worker and the lines after it still parse
        seq($._indent, repeat1($._misplaced_under_action), $._dedent),
      ),
    ),

    _misplaced_under_action: $ => choice(
      $.action_declaration,
      $.const_declaration,
      $.type_declaration,
      $.worker_declaration,
      $.child_declaration,
      $.detached_declaration,
      $.subflow_declaration,
      $.step_declaration,
      $.retire_block,
    ),

    _config_tail: $ => choice(
      $._newline,
      seq($._indent, field('config', $.call_config), $._dedent),
    ),

    _statement_tail: $ => choice(
      $._config_tail,
      field('unexpected_block', $.unexpected_block),
    ),

    // Indented lines under a statement that opens no block (usually a half-typed `fork` or
    // `loop`): kept together so the step around them survives; the checker reports them.
    unexpected_block: $ => seq(
      $._indent,
      repeat1(choice($._statement, $.until_clause, $.loop_max, $.step_outcome)),
      $._dedent,
    ),

    call_config: $ => seq(commaSep1($._config_item), $._newline),

    _config_item: $ => choice($.node_setting, $.timeout_setting, $.retry_setting, $.unknown_setting),

    unknown_setting: $ => prec(-1, field('word', $.identifier)),

    node_setting: $ => seq('node', field('value', $.identifier)),

    timeout_setting: $ => seq('timeout', optional(field('duration', $._expression))),

    retry_setting: $ => seq(
      'retry',
      optional(field('attempts', $._expression)),
      optional(choice(
        seq('every', field('interval', $._expression)),
        seq('backoff', field('from', $._expression), optional(seq('..', field('to', $._expression)))),
      )),
    ),

    parameters: $ => seq('(', trailingCommaSep($.parameter), ')'),

    parameter: $ => seq(
      field('name', $.identifier),
      optional(seq(':', optional(field('type', $._type)))),
    ),

    child_declaration: $ => seq(
      'child',
      field('name', $.identifier),
      field('parameters', $.parameters),
      optional(seq('->', field('return_type', $._type))),
      $._newline,
    ),

    detached_declaration: $ => seq(
      'detached',
      field('name', $.identifier),
      field('parameters', $.parameters),
      optional(seq('->', field('return_type', $._type))),
      $._newline,
    ),

    subflow_declaration: $ => seq(
      'subflow',
      field('name', $.identifier),
      field('parameters', $.parameters),
      choice(
        $._newline,
        seq($._indent, repeat(choice($.outcome_clause, $.step_declaration)), $._dedent),
      ),
    ),

    step_declaration: $ => seq(
      'step',
      field('name', $.identifier),
      optional(field('after', $.after_clause)),
      choice($._newline, field('body', $.step_body)),
    ),

    after_clause: $ => seq('after', commaSep1(field('step', $.identifier))),

    step_body: $ => seq($._indent, repeat1($._step_item), $._dedent),

    _step_item: $ => choice(
      $._statement,
      $.step_declaration,
      $.on_failure,
      $.step_outcome,
      $.visits_bound,
    ),

    retire_block: $ => seq(
      'retire',
      choice($._newline, field('body', $.block)),
    ),

    // A statement block (fork branches, `on failure`, `retire`): statements and substeps.
    block: $ => seq($._indent, repeat1(choice($._statement, $.step_declaration)), $._dedent),

    // ---------------------------------------------------------------- step body
    _statement: $ => choice(
      $.expression_statement,
      $.route_statement,
      $.spawn_statement,
      $.hatch_statement,
      $.answer_statement,
      $.wait_statement,
      $.sleep_statement,
      $.fork_statement,
      $.loop_statement,
      $.distribute_statement,
      $.collect_statement,
    ),

    binding: $ => seq('->', optional(field('name', $.identifier))),

    // A call, a pipe or any value, optionally bound: `f(a: x) -> y`, `x |> g -> y`, `"a" + b -> s`.
    expression_statement: $ => seq(
      field('value', $._expression),
      optional(field('binding', $.binding)),
      $._statement_tail,
    ),

    route_statement: $ => seq(
      optional(seq(field('input', $._expression), '|>')),
      'route',
      optional(seq(field('target', $.route_target), optional(field('payload', $.arguments)))),
      $._newline,
    ),

    route_target: $ => choice(alias('start', $.start), $.identifier),

    spawn_statement: $ => seq(
      'spawn',
      field('call', $._expression),
      optional(field('binding', $.binding)),
      $._newline,
    ),

    hatch_statement: $ => seq(
      'hatch',
      field('call', $._expression),
      optional(seq('key', field('key', $._expression))),
      optional(field('binding', $.binding)), // refused by the checker: a hatch binds nothing
      $._newline,
    ),

    answer_statement: $ => seq('answer', field('call', $._expression), $._newline),

    wait_statement: $ => seq(
      'wait',
      field('signal', $.identifier),
      optional(seq('timeout', field('timeout', $._expression))),
      optional(field('binding', $.binding)),
      $._newline,
    ),

    sleep_statement: $ => seq('sleep', field('duration', $._expression), $._newline),

    fork_statement: $ => seq(
      'fork',
      optional(seq(
        field('item', $.identifier),
        'in',
        field('collection', $._expression),
        optional(field('sequential', 'sequential')),
      )),
      choice(
        seq(field('body', $.block), optional(field('join', $.join_clause))),
        seq($._newline, optional(field('join', $.join_clause))),
      ),
    ),

    join_clause: $ => seq('join', optional(field('binding', $.binding)), $._newline),

    loop_statement: $ => seq(
      'loop',
      field('binding', $.identifier),
      optional(seq('=', field('seed', $._expression))),
      optional(seq('counting', field('counter', $.identifier))),
      choice($._newline, field('body', $.loop_body)),
    ),

    loop_body: $ => seq(
      $._indent,
      repeat1(choice($._statement, $.step_declaration, $.until_clause, $.loop_max)),
      $._dedent,
    ),

    until_clause: $ => seq('until', field('condition', $._expression), $._newline),

    loop_max: $ => seq('max', field('limit', $._expression), $._newline),

    distribute_statement: $ => seq(
      field('mode', choice('distribute', 'sequence')),
      field('item', $.identifier),
      'in',
      field('collection', $._expression),
      $._newline,
    ),

    collect_statement: $ => seq(
      'collect',
      field('value', $.identifier),
      optional(field('tolerant', '?')),
      optional(field('binding', $.binding)),
      $._newline,
    ),

    on_failure: $ => seq('on', 'failure', choice($._newline, field('body', $.block))),

    // `outcome n: if EXPR, route …` / `outcome n: else, route …` (and `when` / `otherwise`).
    // The colon, guard, comma and route may be missing while the line is typed: the checker
    // names what is missing, and the route broken onto the next line still belongs here.
    step_outcome: $ => seq(
      'outcome',
      field('name', $.identifier),
      optional(seq(':', optional(field('guard', $.guard)))),
      optional(','),
      choice(
        field('route', $.route_statement),
        seq($._indent, field('route', $.route_statement), $._dedent),
        $._newline,
      ),
    ),

    guard: $ => choice(
      seq(field('keyword', choice('if', 'when')), field('condition', $._expression)),
      field('keyword', choice('else', 'otherwise')),
      // a misspelt or half-typed guard word, reported by the checker
      prec(1, field('unknown', $.identifier)),
    ),

    visits_bound: $ => seq('max', field('limit', $._expression), 'visits', $._newline),

    // ---------------------------------------------------------------- types
    _type: $ => choice(alias($.identifier, $.type_identifier), $.list_type, $.optional_type),

    list_type: $ => seq('[', field('element', $._type), ']'),

    optional_type: $ => seq(field('inner', $._type), '?'),

    // ---------------------------------------------------------------- expressions
    _expression: $ => choice(
      $.identifier,
      $.field_expression,
      $.relative_field,
      $.index_expression,
      $.call_expression,
      $.pipe_expression,
      $.binary_expression,
      $.not_expression,
      $.is_expression,
      $.parenthesized_expression,
      $.workflow_builtin,
      $.schema_of,
      $.json_literal,
      $.list,
      $.string,
      $.raw_string,
      $.integer,
      $.float,
      $.duration,
      $.boolean,
    ),

    field_expression: $ => prec(PREC.postfix, seq(
      field('value', $._expression),
      '.',
      field('field', $.identifier),
    )),

    relative_field: $ => prec(PREC.postfix, seq('.', field('field', $.identifier))),

    index_expression: $ => prec(PREC.postfix, seq(
      field('value', $._expression),
      '[',
      field('index', $._expression),
      ']',
    )),

    call_expression: $ => prec(PREC.postfix, seq(
      field('function', $.identifier),
      field('arguments', $.arguments),
    )),

    arguments: $ => seq('(', trailingCommaSep($.argument), ')'),

    // `name: value`, or a bare value (route payloads); a name whose value is not typed yet still
    // closes the argument (the checker reports it), so a half-typed call stays on its line.
    argument: $ => choice(
      seq(field('name', $.identifier), ':', optional(field('value', $._expression))),
      field('value', $._expression),
    ),

    pipe_expression: $ => prec.left(PREC.pipe, seq(
      field('input', $._expression),
      '|>',
      field('stage', $._stage),
    )),

    _stage: $ => choice($.identifier, $.relative_field, $.combinator),

    combinator: $ => prec.right(seq(
      field('name', choice('filter', 'map', 'sort', 'any', 'all', 'count')),
      optional(seq('(', optional(field('argument', $._expression)), ')')),
    )),

    binary_expression: $ => choice(
      ...[
        ['or', PREC.or],
        ['and', PREC.and],
        ['==', PREC.compare],
        ['!=', PREC.compare],
        ['<', PREC.compare],
        ['<=', PREC.compare],
        ['>', PREC.compare],
        ['>=', PREC.compare],
        ['+', PREC.plus],
      ].map(([op, p]) => prec.left(p, seq(
        field('left', $._expression),
        field('operator', op),
        field('right', $._expression),
      ))),
    ),

    not_expression: $ => prec(PREC.not, seq('not', field('operand', $._expression))),

    is_expression: $ => prec.left(PREC.is, seq(
      field('value', $._expression),
      'is',
      field('test', choice('empty', 'present', 'absent')),
    )),

    parenthesized_expression: $ => seq('(', $._expression, ')'),

    workflow_builtin: $ => prec.right(seq('workflow', optional(seq('.', field('field', $.identifier))))),

    schema_of: $ => seq('schema', 'of', field('type', $._type)),

    json_literal: $ => seq('json', field('json', $.json_body)),

    list: $ => seq('[', trailingCommaSep($._expression), ']'),

    // An unterminated string ends at the end of its line (the checker reports it), so one
    // missing quote never swallows the rest of the document.
    string: _ => token(seq('"', repeat(choice(/[^"\\\n]/, /\\[^\n]/)), optional('"'))),

    raw_string: _ => token(seq('"""', repeat(choice(/[^"]/, /"[^"]/, /""[^"]/)), '"""')),

    duration: _ => token(seq(/[0-9]+/, choice('ms', 's', 'm', 'h', 'd'))),

    integer: _ => /[0-9]+/,

    float: _ => /[0-9]+\.[0-9]+/,

    boolean: _ => choice('true', 'false'),

    identifier: _ => /[A-Za-z_][A-Za-z0-9_]*/,
  },
});
