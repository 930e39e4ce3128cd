/*
 * External scanner for AWL: turns indentation into structure, and reads `json {…}` bodies and
 * comments.
 *
 * Tokens (NEWLINE, INDENT and DEDENT are zero-width or hold the line break that ends their line):
 *   NEWLINE  the end of a logical line (never inside brackets: there the grammar does not ask)
 *   INDENT   the next code line is deeper than the current block
 *   DEDENT   one block closes (emitted once per level, at the end of the last line of the block)
 *   JSON_BODY a balanced `{ … }` after `json` or `schema`, strings and escapes respected
 *   LINE_SCAN an invisible extra that only carries state (see "Line starts" below)
 *   COMMENT, DOC_COMMENT, NARRATION  `//`, `///`, `//!` to the end of the line, line break included
 *
 * The indentation of a line is the indentation of the next line that has code: blank lines and
 * comment-only lines never open or close a block. A line that starts with `|` continues the
 * previous line (pipe chains `|> …`, enum variants `| B`). A tab counts as one level (two
 * columns); the language server reports tabs as an error of their own.
 *
 * Line starts, in linear time: the scanner must know whether a scan starts at the beginning of a
 * line, but `get_column` re-reads the line from its start, so asking at every token made a long
 * line quadratic. The state records whether the last token the scanner produced ended at a line
 * start (`line_start`); only then is the column asked, and it is 0 (free) unless the internal
 * lexer has read tokens on the line since. A token that ends at a line start also looks ahead at
 * the next code line (`long_line`); on a long one the first scan after code produces an empty
 * LINE_SCAN that records "mid-line", so no later scan on that line asks again. Incremental parses
 * equal fresh ones only if no "no token" answer depends on the column's value (tree-sitter marks
 * only the scanner's own tokens as depending on the column): so only "column 0 or not" is ever
 * decided on it, and "long" comes from text a token's lookahead covers. Every token that can end
 * at a line start is the scanner's own (the structure tokens and the comments, which is why
 * comments are external), so a state that says "mid-line" is never wrong. `settled` says that the structure at
 * this line start is decided and only comment lines lie before the code line it was decided for.
 *
 * Depth: at most MAX_DEPTH nested blocks. A line deeper than that gets no INDENT and no NEWLINE,
 * so it is a syntax error where it stands (the language server says "too deeply nested") rather
 * than silently parsed as a sibling of the line above.
 *
 * ERROR_SENTINEL is never used by the grammar, so it is valid only while the parser is
 * recovering from an error; then no NEWLINE is produced and JSON bodies are not read.
 */

#include "tree_sitter/alloc.h"
#include "tree_sitter/parser.h"

#include <stdint.h>
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
  COMMENT,
  DOC_COMMENT,
  NARRATION,
};

// The deepest block nesting the scanner tracks; the state serializes in 3 + 2 * MAX_DEPTH bytes,
// well inside TREE_SITTER_SERIALIZATION_BUFFER_SIZE.
#define MAX_DEPTH 200

// A line this long (in columns) records "mid-line" at its first scan after code (see "Line starts").
#define LONG_LINE 64

typedef struct {
  uint16_t depth;
  bool line_start;  // the last token this scanner produced ended at the start of a line
  bool settled;     // ... and the structure of that line start is already decided
  bool long_line;   // ... and the line there is long (see long_line_ahead)
  // Per scan, never serialized: no token of ours precedes (the start of the input); `long_line`
  // is already decided for the token being produced; a scan that still asks for the column
  // crossed into a line that continues the one before (brackets, `|`): its indentation + 1.
  bool initial;
  bool classified;
  uint32_t continuation;
  uint16_t indents[MAX_DEPTH];
} Scanner;

static inline void skip(TSLexer *lexer) { lexer->advance(lexer, true); }
static inline void consume(TSLexer *lexer) { lexer->advance(lexer, false); }

static uint16_t current_indent(const Scanner *s) { return s->depth == 0 ? 0 : s->indents[s->depth - 1]; }

static bool is_blank(int32_t c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == 0xFEFF; }

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

// A comment from the `/` at the lookahead to the end of its line, the line break included.
static bool scan_comment(Scanner *s, TSLexer *lexer) {
  consume(lexer);
  if (lexer->lookahead != '/') return false;
  consume(lexer);
  lexer->result_symbol = lexer->lookahead == '/' ? DOC_COMMENT : lexer->lookahead == '!' ? NARRATION : COMMENT;
  while (!lexer->eof(lexer) && lexer->lookahead != '\n') consume(lexer);
  bool line_break = !lexer->eof(lexer);
  if (line_break) consume(lexer);
  lexer->mark_end(lexer);
  s->line_start = line_break;
  return true;
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
  // `name:`, `x,`, `x]`, `x)` continue what the brackets hold; `x.f …`, `x |> …`, `f(…` start a line
  switch (lexer->lookahead) {
    case ':': case ',': case ')': case ']': case '}':
      return false;
    default:
      return true;
  }
}

// Looks past the end of a token that ends at a line start (its end is marked, so this only extends
// its lookahead, and an edit there re-scans it) at the next line with code: is it LONG_LINE columns
// or more? Then the first scan after code on it records "mid-line" with a LINE_SCAN. This depends
// on nothing but the text it reads, so an edit can never leave it stale.
static bool long_rest(TSLexer *lexer, uint32_t column) {
  while (!lexer->eof(lexer) && lexer->lookahead != '\n') {
    if (++column >= LONG_LINE) return true;
    consume(lexer);
  }
  return false;
}

static bool long_line_ahead(TSLexer *lexer) {
  uint32_t column = lexer->get_column(lexer);
  while ((is_blank(lexer->lookahead) || lexer->lookahead == '\n') && !lexer->eof(lexer)) {
    column = lexer->lookahead == '\n' ? 0 : column + 1;
    consume(lexer);
  }
  return long_rest(lexer, column);
}

static bool emit(Scanner *s, TSLexer *lexer, enum TokenType token, bool ends_at_line_start) {
  s->line_start = ends_at_line_start;
  s->settled = false;
  lexer->result_symbol = token;
  return true;
}

// No structure token here. Before comment lines the scanner has looked past, it still has to
// produce a token (the comments are its own, see "Line starts" in the header); otherwise the
// internal lexer goes on.
static bool no_structure(Scanner *s, TSLexer *lexer, bool passed_comment, bool ends_at_line_start) {
  if (!passed_comment) {
    // The line goes on over the next, whose columns would still be asked for: if that line is
    // long, an extra over the line break says "mid-line" now (decided on its text, not a column).
    if (s->continuation == 0 || !long_rest(lexer, s->continuation - 1)) return false;
    s->line_start = false;
    s->settled = false;
    s->classified = true;
    lexer->result_symbol = LINE_SCAN;
    return true;
  }
  s->line_start = ends_at_line_start;
  s->settled = true;
  lexer->result_symbol = LINE_SCAN;
  return true;
}

static bool scan(Scanner *s, TSLexer *lexer, const bool *valid) {
  bool recovering = valid[ERROR_SENTINEL];
  bool in_brackets = valid[CLOSE_PAREN] || valid[CLOSE_BRACKET] || valid[CLOSE_BRACE];
  bool structural = valid[NEWLINE] || valid[INDENT] || valid[DEDENT];

  // Where does this scan start? Mid-line unless the last token of ours ended at a line start and
  // no token has been read since (then the column is 0, and asking for it costs nothing).
  bool mid_line = true;
  bool asked_column = s->line_start;
  s->continuation = 0;
  if (s->initial) {
    // No token of ours yet: an empty one at the start of the input looks at the first line, as the
    // tokens that end at a line start look at theirs (see long_line_ahead).
    lexer->mark_end(lexer);
    lexer->result_symbol = LINE_SCAN;
    return true;
  }
  if (s->line_start) {
    uint32_t column = lexer->get_column(lexer);
    mid_line = column > 0;
    if (mid_line) {
      // The internal lexer has read tokens on this line: whatever token this scan produces, the
      // state after it says "mid-line" unless the token itself ends at a line start.
      s->line_start = false;
      s->settled = false;
      // On a long line, record that at once with an empty token of our own, so that later scans
      // on the line do not ask for the column again. Whether the line is long was decided by
      // looking ahead from the token that ended at its start, never by this column's value:
      // tree-sitter marks a token as depending on the column only when the scanner produced it,
      // so a "no token" decided on the column would go stale when an edit shifts the internal
      // token that followed (incremental parses then differed from fresh ones).
      if (s->long_line) {
        lexer->mark_end(lexer);
        lexer->result_symbol = LINE_SCAN;
        return true;
      }
    }
  }

  if (valid[JSON_BODY] && !recovering && mid_line) {
    while (is_blank(lexer->lookahead)) skip(lexer);
    if (lexer->lookahead == '{') return scan_json_body(lexer);
  }

  if (!mid_line && s->settled) {
    // Structure decided at this line start; comment lines come before the code line.
    while ((is_blank(lexer->lookahead) || lexer->lookahead == '\n') && !lexer->eof(lexer)) skip(lexer);
    if (!lexer->eof(lexer)) {
      if (lexer->lookahead == '/') return scan_comment(s, lexer);
      return false;
    }
    s->settled = false;  // end of input: decide again (blocks close at the end)
  }

  lexer->mark_end(lexer);
  bool end_of_line = false;        // a line break (or the start of a line) has been passed
  bool marked_line_break = false;  // the token holds the first line break
  bool passed_comment = false;     // comment lines were looked past
  uint32_t indent = 0;
  for (;;) {
    int32_t c = lexer->lookahead;
    if (lexer->eof(lexer)) {
      end_of_line = true;
      indent = 0;
      break;
    }
    if (!end_of_line && !mid_line && (structural || recovering) && !is_blank(c) && c != '\n') {
      // At the start of a line this line's own indentation (or, for a comment line, the next
      // code line's) is what counts.
      end_of_line = true;
      continue;
    }
    if (c == '\n') {
      if (!end_of_line) {
        // The first line break is part of the token (also a blank line's, so a block's range runs
        // to the next code line and a new line typed after a block's last line stays inside it).
        consume(lexer);
        lexer->mark_end(lexer);
        marked_line_break = true;
      } else {
        skip(lexer);
      }
      end_of_line = true;
      indent = 0;
    } else if (is_blank(c)) {
      if (c == ' ') indent++;
      if (c == '\t') indent += 2;
      skip(lexer);
    } else if (c == '/' && (!end_of_line || (recovering && !mid_line && !marked_line_break && !passed_comment))) {
      // A comment here is read now: mid-line, or (while recovering, where an empty structure token
      // may be dropped and the internal lexer cannot read comments) on the line this scan starts on.
      return scan_comment(s, lexer);
    } else if (c == '/') {
      // a comment line (looked past: its indentation does not count), or a stray `/`
      skip(lexer);
      if (lexer->lookahead != '/') break;
      while (!lexer->eof(lexer) && lexer->lookahead != '\n') skip(lexer);
      passed_comment = true;
    } else {
      break;
    }
  }
  if (!end_of_line) return false;
  bool at_line_start = marked_line_break || !mid_line;

  if (asked_column && mid_line && marked_line_break) s->continuation = indent + 1;
  uint16_t current = current_indent(s);
  if (!structural && !recovering) {
    // Nothing here may end the line. Inside brackets, or before a `|…` continuation, the line
    // break is plain white space. Otherwise the line stopped short (`x ->`, `f(a:`): a line token
    // the grammar did not ask for makes the error local to this line instead of swallowing the next.
    if (!mid_line || lexer->eof(lexer)) return no_structure(s, lexer, passed_comment, at_line_start);
    int32_t next = lexer->lookahead;
    if (next == '|') return no_structure(s, lexer, passed_comment, at_line_start);
    if (in_brackets && (indent > current || is_closer(next) || !starts_line_word(lexer))) {
      return no_structure(s, lexer, passed_comment, at_line_start);
    }
    return emit(s, lexer, NEWLINE, at_line_start);
  }
  if (lexer->lookahead == '|' && !lexer->eof(lexer) && !recovering) {
    return no_structure(s, lexer, passed_comment, at_line_start);
  }

  if (indent > current && s->depth >= MAX_DEPTH && !recovering) {
    // Too deep to track: neither a block nor a sibling line, so the parser reports it here.
    return no_structure(s, lexer, passed_comment, at_line_start);
  }
  if (indent > current && valid[INDENT] && s->depth < MAX_DEPTH) {
    s->indents[s->depth++] = (uint16_t)(indent > 0xFFFF ? 0xFFFF : indent);
    return emit(s, lexer, INDENT, at_line_start);
  }
  if (indent < current && valid[DEDENT] && s->depth > 0 && !(valid[NEWLINE] && !recovering)) {
    s->depth--;
    return emit(s, lexer, DEDENT, at_line_start);
  }
  if (valid[NEWLINE] && !(recovering && lexer->eof(lexer))) return emit(s, lexer, NEWLINE, at_line_start);
  if (indent < current && valid[DEDENT] && s->depth > 0) {
    s->depth--;
    return emit(s, lexer, DEDENT, at_line_start);
  }
  return no_structure(s, lexer, passed_comment, at_line_start);
}

void *tree_sitter_awl_external_scanner_create(void) {
  Scanner *s = (Scanner *)ts_calloc(1, sizeof(Scanner));
  if (s != NULL) {
    s->line_start = true;
    s->initial = true;
  }
  return s;
}

void tree_sitter_awl_external_scanner_destroy(void *payload) { ts_free(payload); }

// Layout: flags (bit 0 line_start, bit 1 settled, bit 2 long_line), depth (2 bytes), then `depth` indents.
unsigned tree_sitter_awl_external_scanner_serialize(void *payload, char *buffer) {
  Scanner *s = (Scanner *)payload;
  unsigned depth = s->depth;
  unsigned max = (TREE_SITTER_SERIALIZATION_BUFFER_SIZE - 3) / sizeof(uint16_t);
  if (depth > max) depth = max;
  buffer[0] = (char)((s->line_start ? 1 : 0) | (s->settled ? 2 : 0) | (s->long_line ? 4 : 0));
  buffer[1] = (char)(depth & 0xFF);
  buffer[2] = (char)(depth >> 8);
  memcpy(buffer + 3, s->indents, depth * sizeof(uint16_t));
  return 3 + depth * sizeof(uint16_t);
}

void tree_sitter_awl_external_scanner_deserialize(void *payload, const char *buffer, unsigned length) {
  Scanner *s = (Scanner *)payload;
  s->depth = 0;
  s->line_start = true;  // the start of the input
  s->settled = false;
  s->long_line = false;
  s->initial = length < 3;
  if (length < 3) return;
  s->line_start = (buffer[0] & 1) != 0;
  s->settled = (buffer[0] & 2) != 0;
  s->long_line = (buffer[0] & 4) != 0;
  unsigned depth = (unsigned)(unsigned char)buffer[1] | ((unsigned)(unsigned char)buffer[2] << 8);
  unsigned fits = (length - 3) / sizeof(uint16_t);
  if (depth > fits) depth = fits;            // a short buffer
  if (depth > MAX_DEPTH) depth = MAX_DEPTH;  // never past the array
  memcpy(s->indents, buffer + 3, depth * sizeof(uint16_t));
  s->depth = (uint16_t)depth;
}

bool tree_sitter_awl_external_scanner_scan(void *payload, TSLexer *lexer, const bool *valid_symbols) {
  Scanner *s = (Scanner *)payload;
  s->classified = false;
  if (!scan(s, lexer, valid_symbols)) return false;
  if (!s->classified) s->long_line = s->line_start && long_line_ahead(lexer);
  return true;
}
