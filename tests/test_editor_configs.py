"""Editor support files in editors/: Helix's languages.toml and installer, the Neovim plugin's
layout, the queries each editor loads, and the Emacs mode (byte-compiled when emacs exists).

The editors themselves are driven by `make e2e` (tests/e2e/nvim, editors/emacs/test); this file
checks what can be checked without them.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest
from helpers import require_program

ROOT = Path(__file__).resolve().parents[1]
EDITORS = ROOT / "editors"
GRAMMAR = ROOT / "tree-sitter-awl"
HELIX = EDITORS / "helix"
NVIM = EDITORS / "nvim"
EMACS = EDITORS / "emacs"

# Capture names Neovim knows but Helix's themes do not (install.sh maps them).
NVIM_ONLY_CAPTURES = {
    "@number",
    "@boolean",
    "@module",
    "@property",
    "@type.definition",
    "@function.call",
    "@keyword.conditional",
    "@keyword.repeat",
    "@comment.documentation",
}


def awl_language():
    ts = pytest.importorskip("tree_sitter")
    tsa = pytest.importorskip("tree_sitter_awl")
    return ts, ts.Language(tsa.language())


def compile_query(path: Path):
    ts, lang = awl_language()
    return ts.Query(lang, path.read_text())


def captures_in(text: str) -> set[str]:
    return set(re.findall(r"@[A-Za-z0-9._-]+", re.sub(r";.*", "", text)))


# ---------------------------------------------------------------- Helix


def test_helix_languages_toml_fields():
    config = tomllib.loads((HELIX / "languages.toml").read_text())

    (language,) = [lang for lang in config["language"] if lang["name"] == "awl"]
    assert language["scope"] == "source.awl"
    assert language["file-types"] == ["awl"]
    assert language["comment-token"] == "//"
    assert language["indent"] == {"tab-width": 2, "unit": "  "}
    assert language["language-servers"] == ["awl"]
    assert language.get("grammar", "awl") == "awl"

    server = config["language-server"]["awl"]
    assert server["command"] == "awl"
    assert server["args"] == ["lsp"]

    (grammar,) = [g for g in config["grammar"] if g["name"] == "awl"]
    assert grammar["source"]["path"].endswith("/tree-sitter-awl")


def run_helix_install(config_dir: Path, home: Path) -> subprocess.CompletedProcess[str]:
    env = {"HOME": str(home), "PATH": os.environ.get("PATH", "/usr/bin:/bin")}
    return subprocess.run(
        ["sh", str(HELIX / "install.sh"), str(config_dir)],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )


def test_helix_install_script(tmp_path: Path):
    config_dir = tmp_path / "helix"
    config_dir.mkdir()
    # A user's existing languages.toml is kept and extended.
    (config_dir / "languages.toml").write_text('[[language]]\nname = "python"\nauto-format = true\n')

    first = run_helix_install(config_dir, tmp_path)
    assert "added awl" in first.stdout
    config = tomllib.loads((config_dir / "languages.toml").read_text())
    names = [lang["name"] for lang in config["language"]]
    assert names == ["python", "awl"]
    (grammar,) = config["grammar"]
    grammar_dir = Path(grammar["source"]["path"])
    assert grammar_dir.is_absolute()
    assert grammar_dir.resolve() == GRAMMAR.resolve()
    assert (grammar_dir / "src" / "parser.c").is_file()
    command = config["language-server"]["awl"]["command"]
    assert command == "awl" or Path(command).name == "awl"

    # Running it again leaves languages.toml alone and refreshes the queries.
    second = run_helix_install(config_dir, tmp_path)
    assert "already defines awl" in second.stdout
    config = tomllib.loads((config_dir / "languages.toml").read_text())
    assert [lang["name"] for lang in config["language"]] == ["python", "awl"]

    queries = config_dir / "runtime" / "queries" / "awl"
    assert (queries / "highlights.scm").is_file()
    assert (queries / "indents.scm").read_text() == (HELIX / "queries" / "indents.scm").read_text()


def test_helix_queries_use_helix_names_and_compile(tmp_path: Path):
    run_helix_install(tmp_path / "helix", tmp_path)
    queries = tmp_path / "helix" / "runtime" / "queries" / "awl"
    highlights = (queries / "highlights.scm").read_text()
    used = captures_in(highlights)
    assert "@keyword" in used
    assert not used & NVIM_ONLY_CAPTURES, used & NVIM_ONLY_CAPTURES
    assert compile_query(queries / "highlights.scm").pattern_count > 0
    indents = compile_query(queries / "indents.scm")
    assert indents.pattern_count > 0
    assert captures_in((queries / "indents.scm").read_text()) <= {"@indent", "@extend", "@outdent"}


# ---------------------------------------------------------------- Neovim


def test_nvim_plugin_layout():
    for rel in (
        "ftdetect/awl.lua",
        "ftplugin/awl.lua",
        "plugin/awl.lua",
        "lua/awl/init.lua",
        "lua/awl/lsp.lua",
        "lua/awl/health.lua",
        "lsp/awl.lua",
    ):
        assert (NVIM / rel).is_file(), rel
    assert 'awl = "awl"' in (NVIM / "ftdetect" / "awl.lua").read_text()
    init = (NVIM / "lua" / "awl" / "init.lua").read_text()
    for needle in ('{ "awl", "lsp" }', "vim.treesitter.language.add", "AwlBuildParser"):
        assert needle in init
    assert "vim.lsp.start" in (NVIM / "lua" / "awl" / "lsp.lua").read_text()
    # Neovim 0.11's vim.lsp.enable("awl") reads lsp/awl.lua: the server command and the filetype.
    native = (NVIM / "lsp" / "awl.lua").read_text()
    assert 'cmd = { "awl", "lsp" }' in native and 'filetypes = { "awl" }' in native


def test_nvim_queries_link_to_the_grammar():
    link = NVIM / "queries" / "awl"
    assert link.is_symlink(), "editors/nvim/queries/awl must link to tree-sitter-awl/queries"
    assert not os.path.isabs(os.readlink(link)), "the link must be relative to work from any clone"
    assert link.resolve() == (GRAMMAR / "queries").resolve()
    assert (link / "highlights.scm").is_file()
    for name in ("highlights.scm", "folds.scm"):
        if (link / name).is_file():
            assert compile_query(link / name).pattern_count > 0


# ---------------------------------------------------------------- Emacs


def test_emacs_mode_registers_eglot_and_awl_mode():
    text = (EMACS / "awl-mode.el").read_text()
    assert "(define-derived-mode awl-mode prog-mode" in text
    assert "eglot-server-programs" in text
    assert '("awl" "lsp")' in text
    assert '"\\\\.awl\\\\\'"' in text


def test_emacs_mode_byte_compiles_cleanly(tmp_path: Path):
    require_program("emacs", "apt-get install emacs-nox elpa-eglot")
    source = tmp_path / "awl-mode.el"
    shutil.copy(EMACS / "awl-mode.el", source)
    result = subprocess.run(
        [
            "emacs",
            "--batch",
            "-Q",
            "--eval",
            "(setq byte-compile-error-on-warn t)",
            "-f",
            "batch-byte-compile",
            str(source),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "awl-mode.elc").is_file()


EMACS_FACES = """\
workflow hold_for_go
  timeout 2h
  signal go: Go
  outcome done: type Go, route success

type Go { key: String }

worker w
  action ask(key: String) -> Go
    retry 3 every 10s

step hold
  wait go timeout 30m -> reply
  ask(key: reply.key) -> answer
  outcome ok: if reply is present, route done(answer)
  outcome late: else, route failure
"""

# (line, the word's occurrence on it, the face the generated word lists give it)
EMACS_EXPECTED = [
    (1, "workflow", "font-lock-keyword-face"),
    (2, "timeout", "font-lock-keyword-face"),
    (4, "type", "font-lock-keyword-face"),
    (4, "success", "font-lock-constant-face"),
    (10, "every", "font-lock-keyword-face"),  # inside a line, after `retry N`
    (13, "timeout", "font-lock-keyword-face"),  # `wait go timeout 30m`
    (14, "key", "nil"),  # `key:` names an argument
    (15, "if", "font-lock-keyword-face"),
    (15, "present", "font-lock-keyword-face"),
    (16, "failure", "font-lock-constant-face"),
]


def test_emacs_colours_words_as_the_keyword_table_says(tmp_path: Path):
    require_program("emacs", "apt-get install emacs-nox elpa-eglot")
    doc = tmp_path / "hold.awl"
    doc.write_text(EMACS_FACES)
    probes = " ".join(f'({line} "{word}")' for line, word, _ in EMACS_EXPECTED)
    program = f"""
(progn
  (load "{EMACS / "awl-mode.el"}" nil t)
  (find-file "{doc}")
  (font-lock-ensure)
  (dolist (probe '({probes}))
    (goto-char (point-min))
    (forward-line (1- (car probe)))
    (re-search-forward (concat "\\\\_<" (regexp-quote (cadr probe)) "\\\\_>") (line-end-position))
    (let ((face (get-text-property (match-beginning 0) 'face)))
      (princ (format "%d %s %s\\n" (car probe) (cadr probe) (if (consp face) (car face) face))))))
"""
    result = subprocess.run(
        ["emacs", "--batch", "-Q", "--eval", program], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    got = [line.split() for line in result.stdout.splitlines()]
    assert got == [[str(line), word, face] for line, word, face in EMACS_EXPECTED]
