#!/usr/bin/env bash
# The Emacs snippet of editors/README.md, as a new user runs it: `emacs -q -l init.el`, in a real
# terminal Emacs (under `script`, which gives it a pty), opening a broken .awl document; passes
# when the buffer is in awl-mode, eglot has connected to `awl lsp` and flymake shows a diagnostic.
#   usage: init-snippet.sh EMACS REPO AWL_SERVER
set -euo pipefail
emacs="$1"; repo="$2"; server="$3"
tmp="$(mktemp -d "${TMPDIR:-/tmp}/awl-emacs-init.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT
# The elisp block right after the "tested by `make e2e-emacs`" marker, with the clone's path.
awk '/init.el: tested by `make e2e-emacs`/ {m=1; next} m && /^```elisp/ {on=1; next} on && /^```/ {exit} on {print}' \
  "$repo/editors/README.md" | sed "s|~/src/awl-lsp|$repo|g" > "$tmp/init.el"
grep -q "eglot-ensure" "$tmp/init.el" || { echo "init-snippet: no snippet found in editors/README.md" >&2; exit 1; }
cat > "$tmp/broken.awl" <<'AWL'
workflow ping
  input who: String
  outcome done: type Pong, route success

type Pong { who: String }

worker echo
  action pong(who: String) -> Pong

step greet
  pong(who: who) -> reply
  reply |> route nowhere
AWL
# `awl` on PATH, as the snippet assumes (the folder of the given server executable).
export PATH="$(dirname "$server"):$PATH"
export AWL_CHECK_FILE="$tmp/broken.awl" AWL_CHECK_OUT="$tmp/result.txt" HOME="$tmp" TERM=xterm
cmd="$(printf '%q ' "$emacs" -q -nw -l "$tmp/init.el" -l "$repo/editors/emacs/test/awl-init-check.el")"
set +e
timeout 120 script -qfec "$cmd" /dev/null >"$tmp/tty.log" 2>&1 </dev/null
rc=$?
set -e
if [ -f "$tmp/result.txt" ]; then sed 's/^/e2e-emacs (emacs -q -l init.el): /' "$tmp/result.txt"; fi
if [ "$rc" != 0 ]; then echo "e2e-emacs: the README snippet under emacs -q failed (status $rc)" >&2; exit 1; fi
echo "e2e-emacs: README snippet under emacs -q: OK"
