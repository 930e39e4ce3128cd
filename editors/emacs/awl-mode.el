;;; awl-mode.el --- Major mode for AWL workflow documents, with eglot -*- lexical-binding: t; -*-

;; Author: awl-lsp contributors
;; Version: 0.1.0
;; Package-Requires: ((emacs "27.1"))
;; Keywords: languages
;; URL: see editors/README.md of awl-lsp
;; SPDX-License-Identifier: MIT

;;; Commentary:

;; `awl-mode' edits AWL documents (*.awl): comments, keyword/name/type highlighting,
;; two-space indentation.  Diagnostics, hover, go-to-definition and completion come from
;; the `awl lsp' language server through eglot:
;;
;;   (package-activate-all)   ; Emacs 28 with eglot as a package, under `emacs -q'
;;   (add-to-list 'load-path "/path/to/awl-lsp/editors/emacs")
;;   (require 'awl-mode)
;;   (add-hook 'awl-mode-hook #'eglot-ensure)
;;
;; Loading this file registers `awl-mode' for *.awl and adds an `eglot-server-programs'
;; entry that runs `awl-lsp-command' (default: "awl" "lsp").

;;; Code:

(defgroup awl nil
  "AWL workflow documents."
  :group 'languages
  :prefix "awl-")

(defcustom awl-lsp-command '("awl" "lsp")
  "Command line of the AWL language server, as a list of strings.
When `awl' is not on PATH, use the absolute path of .venv/bin/awl
in an awl-lsp clone."
  :type '(repeat string))

(defcustom awl-indent-offset 2
  "Indentation of one AWL block level.  AWL fixes it at two spaces."
  :type 'integer
  :safe #'integerp)

;; The word lists are the keyword table's (awl_lsp/reference/keywords.py).
;; BEGIN generated keywords: `make keywords` writes this from awl_lsp/reference/keywords.py; edit the table
(defconst awl--line-keywords
  '("workflow" "workloop" "input" "signal" "outcome" "worker" "action" "child" "detached"
    "subflow" "step" "const" "fork" "join" "loop" "until" "max" "spawn" "hatch" "answer" "wait"
    "sleep" "retry" "node" "on" "carry" "report" "invariant" "tolerance" "confirms" "retention"
    "retire" "distribute" "sequence" "collect")
  "Keywords where they open a line: declarations, header clauses, statements.")

(defconst awl--inner-keywords
  '("type" "schema" "after" "counting" "sequential" "key" "timeout" "every" "backoff" "if"
    "else" "when" "otherwise" "route" "windows" "unconfirmed" "for" "is" "empty" "present"
    "absent" "not" "and" "or" "in" "of" "json" "visits")
  "Keywords where they continue a construct (not as a `.field').")

(defconst awl--constants
  '("failure" "success" "start" "true" "false")
  "Literal words and route targets.")

(defconst awl--builtin-types
  '("Bool" "Int" "Float" "String" "Nil" "Dir")
  "Builtin type names.")

(defconst awl--combinators
  '("filter" "map" "sort" "count" "any" "all")
  "Pipe combinators.")

(defconst awl--block-openers
  '("workflow" "workloop" "worker" "subflow" "step" "fork" "loop" "invariant" "retire"
    "distribute" "sequence")
  "Words that, opening a line, open an indented block.")
;; END generated keywords

(defconst awl--inner-keyword-re (regexp-opt awl--inner-keywords 'symbols))

(defun awl--match-inner-keyword (limit)
  "Next continuing keyword before LIMIT that is no `.field' and no `name:'."
  (let (found)
    (while (and (not found) (re-search-forward awl--inner-keyword-re limit t))
      (setq found (not (or (eq (char-before (match-beginning 0)) ?.)
                           (save-match-data (looking-at "[ \t]*:"))))))
    found))

(defvar awl-font-lock-keywords
  `(;; `///' doc lines and `//!' narration.
    ("//[/!].*$" 0 font-lock-doc-face t)
    ;; A keyword opening a line.
    (,(concat "^[ \t]*" (regexp-opt awl--line-keywords 'symbols)) 1 font-lock-keyword-face)
    ;; `on failure'.
    ("^[ \t]*on[ \t]+\\(failure\\)\\_>" 1 font-lock-keyword-face)
    ;; Continuing keywords, but not as a field (`task.key') or a name (`key: …').
    (awl--match-inner-keyword 0 font-lock-keyword-face)
    ;; Declared names.
    ("^[ \t]*\\(?:workflow\\|workloop\\|subflow\\)[ \t]+\\(\\(?:\\sw\\|\\s_\\)+\\)"
     1 font-lock-function-name-face)
    ("^[ \t]*\\(?:step\\|action\\|child\\|detached\\|worker\\)[ \t]+\\(\\(?:\\sw\\|\\s_\\)+\\)"
     1 font-lock-function-name-face)
    ("^[ \t]*const[ \t]+\\(\\(?:\\sw\\|\\s_\\)+\\)" 1 font-lock-constant-face)
    ("^[ \t]*\\(?:input\\|signal\\|carry\\|report\\|invariant\\)[ \t]+\\(\\(?:\\sw\\|\\s_\\)+\\)"
     1 font-lock-variable-name-face)
    ;; Route targets and outcome names.
    ("\\_<route[ \t]+\\(\\(?:\\sw\\|\\s_\\)+\\)" 1 font-lock-constant-face)
    ("^[ \t]*outcome[ \t]+\\(\\(?:\\sw\\|\\s_\\)+\\)" 1 font-lock-constant-face)
    ;; Types.
    (,(regexp-opt awl--builtin-types 'symbols) . font-lock-builtin-face)
    ("\\_<[A-Z][A-Za-z0-9]*\\_>" . font-lock-type-face)
    ;; Pipe combinators, literals.
    (,(concat "|>[ \t]*" (regexp-opt awl--combinators 'symbols)) 1 font-lock-builtin-face)
    (,(regexp-opt awl--constants 'symbols) . font-lock-constant-face)
    ("\\_<[0-9]+\\(?:\\.[0-9]+\\)?[smhd]?\\_>" . font-lock-constant-face)
    ("->\\||>" . font-lock-keyword-face))
  "Highlighting for `awl-mode'.")

(defvar awl-mode-syntax-table
  (let ((st (make-syntax-table)))
    (modify-syntax-entry ?/ ". 12" st)
    (modify-syntax-entry ?\n ">" st)
    (modify-syntax-entry ?_ "_" st)
    (modify-syntax-entry ?\" "\"" st)
    (modify-syntax-entry ?\\ "\\" st)
    (modify-syntax-entry ?' "." st)
    st)
  "Syntax table for `awl-mode'.")

(defconst awl--block-opener-re
  (concat "^[ \t]*\\(?:"
          (regexp-opt awl--block-openers 'symbols)
          "\\|on[ \t]+failure\\_>\\|action\\_>.*->\\)")
  "A line that opens an indented block.")

(defun awl--previous-line-indentation ()
  "Indentation the current line gets from the line before it, or nil at the top."
  (save-excursion
    (beginning-of-line)
    (when (re-search-backward "^[ \t]*[^ \t\n]" nil t)
      (let ((prev (current-indentation))
            (line (buffer-substring-no-properties (line-beginning-position) (line-end-position))))
        (cond ((string-match-p "^[ \t]*//" line) prev)
              ((or (string-match-p awl--block-opener-re line)
                   (string-match-p "[,([{][ \t]*\\(?://.*\\)?$" line))
               (+ prev awl-indent-offset))
              (t prev))))))

(defun awl-indent-line ()
  "Indent the current line: a level in after a block opener, else as above.
Pressing TAB again on an indented line steps it out by one level."
  (interactive)
  (let* ((wanted (or (awl--previous-line-indentation) 0))
         (current (current-indentation))
         (target (if (and (eq last-command this-command) (memq this-command '(indent-for-tab-command))
                          (> current 0) (<= current wanted))
                     (max 0 (- current awl-indent-offset))
                   wanted))
         (offset (- (current-column) current)))
    (indent-line-to target)
    (when (> offset 0)
      (move-to-column (+ target offset)))))

;;;###autoload
(define-derived-mode awl-mode prog-mode "AWL"
  "Major mode for AWL workflow documents (*.awl)."
  :syntax-table awl-mode-syntax-table
  (setq-local comment-start "// ")
  (setq-local comment-end "")
  (setq-local comment-start-skip "//+!?[ \t]*")
  (setq-local indent-tabs-mode nil)
  (setq-local tab-width awl-indent-offset)
  (setq-local indent-line-function #'awl-indent-line)
  (setq-local electric-indent-inhibit t)
  (setq-local font-lock-defaults '(awl-font-lock-keywords)))

;;;###autoload
(add-to-list 'auto-mode-alist '("\\.awl\\'" . awl-mode))

(defvar eglot-server-programs)

(defun awl-lsp-contact (&optional _interactive)
  "The `eglot-server-programs' contact for `awl-mode': `awl-lsp-command'.
On POSIX systems it runs under env(1) with PYTHONMALLOC=malloc (unless the
environment names an allocator already): the server needs the C allocator to
give memory back after documents close, and given it, does not re-execute
itself to get it."
  (if (and (not (memq system-type '(windows-nt ms-dos)))
           (not (getenv "PYTHONMALLOC"))
           (executable-find "env"))
      (append '("env" "PYTHONMALLOC=malloc") awl-lsp-command)
    awl-lsp-command))

;;;###autoload
(with-eval-after-load 'eglot
  (add-to-list 'eglot-server-programs '(awl-mode . awl-lsp-contact)))

(provide 'awl-mode)
;;; awl-mode.el ends here
