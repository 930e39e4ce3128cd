;;; awl-eglot-smoke.el --- Emacs + eglot + `awl lsp' smoke test -*- lexical-binding: t; -*-

;; emacs --batch -l editors/emacs/test/awl-eglot-smoke.el
;;
;; Environment: AWL_REPO (the clone; default: three folders above this file), AWL_SERVER (the
;; `awl' executable; default $AWL_REPO/.venv/bin/awl), AWL_E2E_WAIT (seconds per wait, 30).
;; Prints PASS/FAIL per assertion and "e2e-emacs: N passed, M failed"; exits 0 only when
;; nothing failed.  Every wait is bounded.

;;; Code:

(require 'cl-lib)
(defvar awl-lsp-command)

(defvar awl-smoke--dir (file-name-directory (or load-file-name buffer-file-name)))
(defvar awl-smoke--repo
  (file-name-as-directory
   (or (getenv "AWL_REPO") (expand-file-name "../../.." awl-smoke--dir))))
(defvar awl-smoke--server
  (or (getenv "AWL_SERVER") (expand-file-name ".venv/bin/awl" awl-smoke--repo)))
(defvar awl-smoke--wait (string-to-number (or (getenv "AWL_E2E_WAIT") "30")))
(defvar awl-smoke--passed 0)
(defvar awl-smoke--failed 0)

(defun awl-smoke--out (fmt &rest args)
  (princ (concat (apply #'format fmt args) "\n")))

(defun awl-smoke--check (name ok &optional detail)
  (if ok
      (progn (cl-incf awl-smoke--passed) (awl-smoke--out "PASS %s%s" name (if detail (format "  (%s)" detail) "")))
    (cl-incf awl-smoke--failed)
    (awl-smoke--out "FAIL %s%s" name (if detail (format "  -- %s" detail) ""))))

(defun awl-smoke--finish ()
  (ignore-errors (eglot-shutdown-all))
  (awl-smoke--out "e2e-emacs: %d passed, %d failed" awl-smoke--passed awl-smoke--failed)
  (kill-emacs (if (zerop awl-smoke--failed) 0 1)))

(defun awl-smoke--wait-until (pred)
  "Run the event loop until PRED is non-nil or `awl-smoke--wait' seconds pass."
  (let ((deadline (+ (float-time) awl-smoke--wait)) value)
    (while (and (not (setq value (funcall pred))) (< (float-time) deadline))
      (accept-process-output nil 0.1))
    value))

(defun awl-smoke--goto (regexp &optional group)
  "Put point at REGEXP's GROUP (or its start); return the 0-based line."
  (goto-char (point-min))
  (re-search-forward regexp)
  (goto-char (match-beginning (or group 0)))
  (1- (line-number-at-pos)))

(condition-case err
    (progn
      (require 'eglot)
      (load (expand-file-name "editors/emacs/awl-mode.el" awl-smoke--repo) nil t)
      (setq awl-lsp-command (list awl-smoke--server "lsp"))
      (awl-smoke--out "e2e-emacs: Emacs %s, eglot %s, server %s" emacs-version
                      (locate-library "eglot") awl-smoke--server)
      (let* ((tmp (make-temp-file "awl-e2e-emacs" t))
             (file (expand-file-name "inbox_watch.awl" tmp)))
        (copy-file (expand-file-name "tests/e2e/nvim/fixtures/inbox_watch.awl" awl-smoke--repo) file)
        (find-file file)
        (awl-smoke--check "*.awl opens in awl-mode" (eq major-mode 'awl-mode) (symbol-name major-mode))
        ;; Highlighting and indentation of the mode itself.
        (font-lock-ensure)
        (dolist (at '(("^\\(workloop\\) " . font-lock-keyword-face)
                      ("^    \\(hatch\\) " . font-lock-keyword-face)
                      ("^    \\(tolerance\\) " . font-lock-keyword-face)
                      ("^step \\(look\\)" . font-lock-function-name-face)
                      ("type \\(Tally\\)" . font-lock-type-face)))
          (awl-smoke--goto (car at) 1)
          (let ((face (get-text-property (point) 'face)))
            (awl-smoke--check (format "face of `%s'" (thing-at-point 'symbol t))
                              (if (listp face) (memq (cdr at) face) (eq face (cdr at)))
                              (format "%S" face))))
        (with-temp-buffer
          (awl-mode)
          (insert "step look\n  scan(inbox: inbox) -> found\n  fork letter in found.letters\n")
          (awl-indent-line)
          (let ((after-fork (current-indentation)))
            (goto-char (point-min))
            (end-of-line)
            (insert "\n")
            (awl-indent-line)
            (awl-smoke--check "indentation: 2 after `step', 4 after a nested `fork'"
                              (and (= (current-indentation) 2) (= after-fork 4))
                              (format "%d, %d" (current-indentation) after-fork))))
        (awl-smoke--check "eglot-server-programs has awl-mode"
                          (assq 'awl-mode eglot-server-programs))
        ;; `eglot-ensure' waits for a command loop; batch mode has none, so connect directly.
        (let* ((eglot-connect-timeout awl-smoke--wait)
               (connect-error (condition-case e (progn (apply #'eglot (eglot--guess-contact)) nil)
                                (error (error-message-string e)))))
          (awl-smoke--check "eglot connects to awl lsp"
                            (and (not connect-error)
                                 (awl-smoke--wait-until (lambda () (eglot-current-server))))
                            connect-error))
        (let ((server (eglot-current-server)))
          (when server
            ;; Diagnostics through flymake.
            (let* ((hatch-line (awl-smoke--goto "^    hatch "))
                   (diag (awl-smoke--wait-until
                          (lambda ()
                            (ignore-errors (flymake-start))
                            (cl-find-if (lambda (d) (string-match-p "key" (flymake-diagnostic-text d)))
                                        (flymake-diagnostics))))))
              (awl-smoke--check "flymake diagnostic mentions `key'" diag
                                (if diag (flymake-diagnostic-text diag)
                                  (format "diagnostics: %S" (mapcar #'flymake-diagnostic-text (flymake-diagnostics)))))
              (when diag
                (let ((line (save-excursion (goto-char (flymake-diagnostic-beg diag))
                                            (1- (line-number-at-pos)))))
                  (awl-smoke--check "diagnostic is on the hatch line" (= line hatch-line)
                                    (format "line %d, hatch on %d" (1+ line) (1+ hatch-line))))))
            ;; Hover on `tolerance'.
            (awl-smoke--goto "^    \\(tolerance\\) " 1)
            (forward-char 2)
            (let* ((hover (ignore-errors
                            (jsonrpc-request server :textDocument/hover
                                             (eglot--TextDocumentPositionParams)
                                             :timeout awl-smoke--wait)))
                   (contents (plist-get hover :contents))
                   (text (cond ((stringp contents) contents)
                               ((plist-get contents :value))
                               (t (format "%S" contents))))
                   (flat (replace-regexp-in-string "[ \t\n]+" " " (or text ""))))
              (awl-smoke--check "hover on `tolerance' shows the reference text"
                                (string-match-p "unconfirmed invariant alarms" flat)
                                (substring flat 0 (min 80 (length flat)))))
            ;; Definition of a routed step.
            (let* ((target (awl-smoke--goto "^step sort_out"))
                   (_ (awl-smoke--goto "route \\(sort_out\\)" 1))
                   (def (ignore-errors
                          (jsonrpc-request server :textDocument/definition
                                           (eglot--TextDocumentPositionParams)
                                           :timeout awl-smoke--wait)))
                   (loc (if (and (vectorp def) (> (length def) 0)) (aref def 0) def))
                   (range (or (plist-get loc :targetSelectionRange) (plist-get loc :range)))
                   (line (plist-get (plist-get range :start) :line)))
              (awl-smoke--check "definition of `sort_out' goes to its step"
                                (and line (= line target))
                                (format "got %S, expected line %d" line (1+ target))))
            ;; Completion after `route ': the steps are offered.
            (awl-smoke--goto "route \\(sort_out\\)" 1)
            (let* ((result (ignore-errors
                             (jsonrpc-request server :textDocument/completion
                                              (eglot--TextDocumentPositionParams)
                                              :timeout awl-smoke--wait)))
                   (items (if (vectorp result) result (plist-get result :items)))
                   (labels (mapcar (lambda (it) (plist-get it :label)) items)))
              (awl-smoke--check "completion after `route ' offers the steps"
                                (and (member "sort_out" labels) (member "look" labels))
                                (format "%S" labels)))))))
  (error (awl-smoke--check "smoke test ran without a Lisp error" nil (format "%S" err))))

(awl-smoke--finish)

;;; awl-eglot-smoke.el ends here
