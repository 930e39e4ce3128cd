-- The nvim-treesitter path of editors/README.md, in a real headless Neovim: a parser that a
-- parser manager compiled from the documented install_info (tree-sitter-awl, files
-- src/parser.c + src/scanner.c) into its own site folder on 'runtimepath' is the one the plugin
-- loads: it builds none of its own, highlights with it and finds the queries.
--
--   nvim --headless --clean -u NONE -i NONE -n -l tests/e2e/nvim/ts_register.lua
--
-- AWL_REPO: the clone (default: three folders above). Prints PASS/FAIL lines and
-- "e2e-nvim (nvim-treesitter parser): N passed, M failed"; exits 0 only when nothing failed.

local uv = vim.uv or vim.loop
local script = debug.getinfo(1, "S").source:sub(2)
local repo = vim.env.AWL_REPO and vim.env.AWL_REPO ~= "" and vim.env.AWL_REPO
  or vim.fs.normalize(vim.fs.dirname(uv.fs_realpath(script) or script) .. "/../../..")
local grammar = repo .. "/tree-sitter-awl"
local passed, failed = 0, 0
local function check(name, ok, detail)
  if ok then
    passed = passed + 1
  else
    failed = failed + 1
  end
  io.stdout:write(string.format("%s %s%s\n", ok and "PASS" or "FAIL", name, detail and ("  (" .. detail .. ")") or ""))
end
vim.notify = function(msg)
  io.stdout:write("notify: " .. tostring(msg) .. "\n")
end

-- What `:TSInstall awl` does with the documented install_info: compile the listed files into
-- <site>/parser/awl.so (nvim-treesitter's own folder on 'runtimepath').
local site = vim.fn.tempname() .. "-site"
vim.fn.mkdir(site .. "/parser", "p")
local so = site .. "/parser/awl.so"
local cc = vim.env.CC and vim.env.CC ~= "" and vim.env.CC or "cc"
local res = vim.system({ cc, "-o", so, "-I", grammar .. "/src", grammar .. "/src/parser.c", grammar .. "/src/scanner.c",
  "-shared", "-Os", "-fPIC" }, { text = true }):wait(180000)
check("the documented install_info files compile", res.code == 0 and uv.fs_stat(so) ~= nil, vim.trim(res.stderr or ""))

vim.opt.runtimepath:prepend(repo .. "/editors/nvim")
vim.opt.runtimepath:append(site)
vim.cmd("filetype plugin on")
vim.cmd("runtime! plugin/awl.lua")
local awl = require("awl")
local own = awl.plugin_dir() .. "/parser/awl.so"
local own_before = (uv.fs_stat(own) or {}).mtime
awl.setup({ lsp = false, auto_build = true })

local file = vim.fn.tempname() .. ".awl"
vim.fn.writefile({ "//! A check.", "workflow ping", "  input who: String", "" }, file)
vim.cmd("edit " .. vim.fn.fnameescape(file))
local buf = vim.api.nvim_get_current_buf()
check("the plugin picks the parser on 'runtimepath'", awl.parser_path() == vim.fs.normalize(uv.fs_realpath(so) or so),
  awl.parser_path())
local own_after = (uv.fs_stat(own) or {}).mtime
check("it built no parser of its own", vim.deep_equal(own_before, own_after))
check("tree-sitter highlighting runs on it", vim.treesitter.highlighter.active[buf] ~= nil)
local ok, parser = pcall(vim.treesitter.get_parser, buf, "awl")
local root = ok and parser:parse()[1]:root()
check("the buffer parses", root ~= nil and root:type() == "source_file" and not root:has_error(),
  root and root:type() or tostring(parser))
check("highlights.scm found for it", #vim.treesitter.query.get_files("awl", "highlights") > 0)
io.stdout:write(string.format("e2e-nvim (nvim-treesitter parser): %d passed, %d failed\n", passed, failed))
vim.fn.delete(site, "rf")
os.exit(failed == 0 and 0 or 1)
