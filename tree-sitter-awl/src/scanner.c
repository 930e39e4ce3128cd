/*
 * External scanner for AWL: turns indentation into structure, and reads `json {…}` bodies.
 *
 * Tokens (all zero-width except JSON_BODY):
 *   NEWLINE  the end of a logical line (never inside brackets: there the grammar does not ask)
 *   INDENT   the next code line is deeper than the current block
 *   DEDENT   one block closes (emitted once per level, at the end of the last line of the block)
 *   JSON_BODY a balanced `{ … }` after `json` or `schema`, strings and escapes respected
 *
 * The indentation of a line is the indentation of the next line that has code: blank lines and
 * comment-only lines never open or close a block. A line that starts with `|` continues the
 * previous line (pipe chains `|> …`, enum variants `| B`). A tab counts as one level (two
 * columns); the language server reports tabs as an error of their own.
 *
 * ERROR_SENTINEL is never used by the grammar, so it is valid only while the parser is
 * recovering from an error; then no NEWLINE is produced and JSON bodies are not read.
 */

#include "tree_sitter/parser.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum TokenType {
  NEWLINE,
  INDENT,
  DEDENT,
  JSON_BODY,
  LINE_SCAN,
  ERROR_SENTINEL,
  CLOSE_PAREN,
  CLOSE_BRACKET,
  CLOSE_BRACE,
};

#define MAX_DEPTH 200

typedef struct {
  uint16_t depth;
  uint16_t indents[MAX_DEPTH];
} Scanner;

static inline void skip(TSLexer *lexer) { lexer->advance(lexer, true); }
static inline void consume(TSLexer *lexer) { lexer->advance(lexer, false); }

static uint16_t current_indent(const Scanner *s) { return s->depth == 0 ? 0 : s->indents[s->depth - 1]; }

static bool scan_json_body(TSLexer *lexer) {
  uint32_t depth = 0;
  for (;;) {
    if (lexer->eof(lexer)) return false;
    int32_t c = lexer->lookahead;
    if (c == '"') {
      consume(lexer);
      while (!lexer->eof(lexer) && lexer->lookahead != '"') {
        if (lexer->lookahead == '\\') consume(lexer);
        if (!lexer->eof(lexer)) consume(lexer);
      }
      if (lexer->eof(lexer)) return false;
      consume(lexer);
      continue;
    }
    consume(lexer);
    if (c == '{') {
      depth++;
    } else if (c == '}') {
      if (depth == 0) return false;
      depth--;
      if (depth == 0) {
        lexer->mark_end(lexer);
        lexer->result_symbol = JSON_BODY;
        return true;
      }
    }
  }
}

static bool is_closer(int32_t c) { return c == ')' || c == ']' || c == '}'; }

static bool is_word_char(int32_t c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

// Reads the word at the lookahead (the token end is already marked, so this only looks ahead) and
// says whether it opens a line of code rather than continuing a bracket: any word but a `name:`
// (an argument or field name), so `f(a: 1,` + `b: 2)` continues while `f(a: "x` + `g()` does not.
static bool starts_line_word(TSLexer *lexer) {
  unsigned n = 0;
  while (is_word_char(lexer->lookahead) && !lexer->eof(lexer)) {
    n++;
    consume(lexer);
  }
  if (n == 0) return false;
  while (lexer->lookahead == ' ' && !lexer->eof(lexer)) consume(lexer);
  return lexer->lookahead != ':';
}

static bool scan(Scanner *s, TSLexer *lexer, const bool *valid) {
  bool recovering = valid[ERROR_SENTINEL];
  bool in_brackets = valid[CLOSE_PAREN] || valid[CLOSE_BRACKET] || valid[CLOSE_BRACE];
  bool structural = valid[NEWLINE] || valid[INDENT] || valid[DEDENT];

  if (valid[JSON_BODY] && !recovering) {
    while (lexer->lookahead == ' ' || lexer->lookahead == '\t') skip(lexer);
    if (lexer->lookahead == '{') return scan_json_body(lexer);
  }

  lexer->mark_end(lexer);
  bool end_of_line = false;  // a line break (or the start of a line) has been passed
  bool mid_line = false;     // this scan started after code on its line
  bool asked_column = false;
  uint32_t before_newline = 0;
  uint32_t indent = 0;
  for (;;) {
    int32_t c = lexer->lookahead;
    if (lexer->eof(lexer)) {
      if (!end_of_line) mid_line = lexer->get_column(lexer) > before_newline;
      end_of_line = true;
      indent = 0;
      break;
    }
    if (!end_of_line && !asked_column && (structural || recovering || c == '\n') && c != ' ' && c != '\t' && c != '\r' && c != '\f' && c != 0xFEFF) {
      // First thing that is not blank: did the scan start at the beginning of a line? Then this
      // line's own indentation (or, for a comment line, the next code line's) is what counts.
      asked_column = true;
      mid_line = lexer->get_column(lexer) > before_newline;
      if (!mid_line && (structural || recovering) && c != '\n') {
        end_of_line = true;
        continue;
      }
    }
    if (c == '\n') {
      if (!end_of_line) {
        // The first line break is part of the token (also a blank line's, so a block's range runs
        // to the next code line and a new line typed after a block's last line stays inside it).
        consume(lexer);
        lexer->mark_end(lexer);
      } else {
        skip(lexer);
      }
      end_of_line = true;
      indent = 0;
    } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == 0xFEFF) {
      if (c == ' ') indent++;
      if (c == '\t') indent += 2;
      if (!end_of_line) before_newline++;
      skip(lexer);
    } else if (c == '/' && end_of_line) {
      skip(lexer);
      if (lexer->lookahead != '/') break;
      while (!lexer->eof(lexer) && lexer->lookahead != '\n') skip(lexer);
    } else {
      break;
    }
  }
  if (!end_of_line) return false;

  uint16_t current = current_indent(s);
  if (!structural && !recovering) {
    // Nothing here may end the line. Inside brackets, or before a `|…` continuation, the line
    // break is plain white space. Otherwise the line stopped short (`x ->`, `f(a:`): a line token
    // the grammar did not ask for makes the error local to this line instead of swallowing the next.
    if (!mid_line || lexer->eof(lexer)) return false;
    int32_t next = lexer->lookahead;
    if (next == '|') return false;
    if (in_brackets && (indent > current || is_closer(next) || !starts_line_word(lexer))) return false;
    lexer->result_symbol = NEWLINE;
    return true;
  }
  if (lexer->lookahead == '|' && !lexer->eof(lexer) && !recovering) return false;

  if (indent > current && valid[INDENT] && s->depth < MAX_DEPTH) {
    s->indents[s->depth++] = (uint16_t)(indent > 0xFFFF ? 0xFFFF : indent);
    lexer->result_symbol = INDENT;
    return true;
  }
  if (indent < current && valid[DEDENT] && s->depth > 0 && !(valid[NEWLINE] && !recovering)) {
    s->depth--;
    lexer->result_symbol = DEDENT;
    return true;
  }
  if (valid[NEWLINE] && !(recovering && lexer->eof(lexer))) {
    lexer->result_symbol = NEWLINE;
    return true;
  }
  if (indent < current && valid[DEDENT] && s->depth > 0) {
    s->depth--;
    lexer->result_symbol = DEDENT;
    return true;
  }
  return false;
}

void *tree_sitter_awl_external_scanner_create(void) { return calloc(1, sizeof(Scanner)); }

void tree_sitter_awl_external_scanner_destroy(void *payload) { free(payload); }

unsigned tree_sitter_awl_external_scanner_serialize(void *payload, char *buffer) {
  Scanner *s = (Scanner *)payload;
  unsigned depth = s->depth;
  unsigned max = (TREE_SITTER_SERIALIZATION_BUFFER_SIZE - 1) / sizeof(uint16_t);
  if (depth > max) depth = max;
  buffer[0] = (char)depth;
  memcpy(buffer + 1, s->indents, depth * sizeof(uint16_t));
  return 1 + depth * sizeof(uint16_t);
}

void tree_sitter_awl_external_scanner_deserialize(void *payload, const char *buffer, unsigned length) {
  Scanner *s = (Scanner *)payload;
  s->depth = 0;
  if (length == 0) return;
  unsigned depth = (unsigned char)buffer[0];
  if (1 + depth * sizeof(uint16_t) > length) depth = (length - 1) / sizeof(uint16_t);
  memcpy(s->indents, buffer + 1, depth * sizeof(uint16_t));
  s->depth = (uint16_t)depth;
}

bool tree_sitter_awl_external_scanner_scan(void *payload, TSLexer *lexer, const bool *valid_symbols) {
  return scan((Scanner *)payload, lexer, valid_symbols);
}
