;;; awl-init-check.el --- checks an interactive `emacs -q -l init.el' session -*- lexical-binding: t; -*-

;; Loaded after the README's init.el snippet by init-snippet.sh, in a real (terminal) Emacs
;; started with -q, because `eglot-ensure' only connects from a command loop, which --batch
;; lacks.  It opens $AWL_CHECK_FILE, waits (bounded) for eglot to connect and for a flymake
;; diagnostic, writes PASS/FAIL lines to $AWL_CHECK_OUT and exits 0 only when all passed.

;;; Code:

(require 'cl-lib)

(defvar awl-init-check--out (getenv "AWL_CHECK_OUT"))
(defvar awl-init-check--deadline
  (+ (float-time) (string-to-number (or (getenv "AWL_E2E_WAIT") "30"))))
(defvar awl-init-check--buffer nil)

(defun awl-init-check--finish (lines ok)
  (with-temp-file awl-init-check--out
    (insert (mapconcat #'identity lines "\n") "\n"))
  (kill-emacs (if ok 0 1)))

(defun awl-init-check--diagnostics (server)
  "Flymake's diagnostic texts once SERVER manages the buffer (nil before)."
  (when (and server (bound-and-true-p flymake-mode))
    ;; Flymake starts its backends after a command; a session without keystrokes has none.
    (ignore-errors (flymake-start nil t))
    (mapcar #'flymake-diagnostic-text (flymake-diagnostics))))

(defun awl-init-check--poll ()
  (with-current-buffer awl-init-check--buffer
    (let* ((server (and (fboundp 'eglot-current-server) (eglot-current-server)))
           (diags (awl-init-check--diagnostics server))
           (mode-ok (eq major-mode 'awl-mode)))
      (cond
       (diags
        (awl-init-check--finish
         (list (format "%s *.awl opens in %s" (if mode-ok "PASS" "FAIL") major-mode)
               (format "PASS eglot connected to %s" (plist-get (eglot--server-info server) :name))
               (format "PASS flymake shows %d diagnostic(s), e.g. %s" (length diags) (car diags)))
         mode-ok))
       ((> (float-time) awl-init-check--deadline)
        (awl-init-check--finish
         (list (format "%s *.awl opens in %s" (if mode-ok "PASS" "FAIL") major-mode)
               (format "%s eglot-ensure is defined" (if (fboundp 'eglot-ensure) "PASS" "FAIL"))
               (format "%s eglot connected" (if server "PASS" "FAIL"))
               "FAIL no flymake diagnostic before the deadline"
               (with-current-buffer "*Messages*" (buffer-string)))
         nil))
       (t (run-at-time 0.2 nil #'awl-init-check--poll))))))

(add-hook 'emacs-startup-hook
          (lambda ()
            (setq awl-init-check--buffer (find-file (getenv "AWL_CHECK_FILE")))
            (run-at-time 0.2 nil #'awl-init-check--poll)))

;;; awl-init-check.el ends here
