-- :checkhealth awl
local M = {}

function M.check()
  local health = vim.health
  local awl = require("awl")
  health.start("awl.nvim")

  if vim.fn.has("nvim-0.10") == 1 then
    health.ok("Neovim " .. tostring(vim.version()))
  else
    health.error("Neovim 0.10 or newer is required, this is " .. tostring(vim.version()))
  end

  local native = require("awl.lsp").enabled_natively()
  local cmd = native and vim.lsp.config.awl.cmd or awl.config.cmd
  cmd = type(cmd) == "string" and { cmd } or cmd
  if type(cmd) == "table" then
    if vim.fn.executable(cmd[1]) == 1 then
      health.ok("language server: " .. table.concat(cmd, " ") .. " (" .. vim.fn.exepath(cmd[1]) .. ")")
    else
      health.error("language server executable not found: " .. cmd[1], {
        "`pipx install /path/to/awl-lsp` (the clone), which puts `awl` on PATH",
        "or run `make .venv/.installed` in the awl-lsp clone and put .venv/bin on PATH",
        "or setup({ cmd = { '/path/to/awl-lsp/.venv/bin/awl', 'lsp' } })",
      })
    end
  end

  -- The server as it runs now: which clients, attached to which awl buffers.
  local how = native and "vim.lsp.enable('awl')" or "require('awl').setup()"
  local clients = vim.lsp.get_clients({ name = "awl" })
  local bufs, attached = {}, 0
  awl.each_awl_buffer(function(buf)
    table.insert(bufs, buf)
    if #vim.lsp.get_clients({ name = "awl", bufnr = buf }) > 0 then
      attached = attached + 1
    end
  end)
  if #clients == 0 then
    if #bufs == 0 then
      health.info("language server: not running (no awl buffer is open; it starts with the first)")
    else
      health.error(
        string.format("language server: not attached to any of the %d open awl buffer(s)", #bufs),
        { "see :LspLog and `:lua vim.print(require('awl').config.cmd)`", ":AwlRestart" }
      )
    end
  else
    local ids = {}
    for _, c in ipairs(clients) do
      table.insert(ids, tostring(c.id))
    end
    local msg = string.format(
      "language server: attached to %d of %d open awl buffer(s) (client %s, started by %s)",
      attached,
      #bufs,
      table.concat(ids, ", "),
      how
    )
    if attached == #bufs then
      health.ok(msg)
    else
      health.warn(msg, { ":AwlRestart" })
    end
  end
  local keymaps = vim.g.awl_keymaps ~= false and awl.config.keymaps ~= false
  health.info("buffer-local LSP keymaps: " .. (keymaps and "on (gd; K/grn/grr/gra on 0.10)" or "off"))

  local so = awl.parser_path()
  if vim.uv.fs_stat(so) then
    local ok, err = pcall(vim.treesitter.language.add, "awl", { path = so })
    if ok then
      health.ok("tree-sitter parser: " .. so)
    else
      health.error("tree-sitter parser does not load: " .. tostring(err), { ":AwlBuildParser" })
    end
    if awl.parser_stale() then
      health.warn("parser is older than " .. awl.grammar_dir() .. "/src", { ":AwlBuildParser" })
    end
  else
    health.warn("no tree-sitter parser at " .. so, { ":AwlBuildParser" })
  end

  local cc = awl.find_compiler()
  if cc then
    health.ok("C compiler: " .. vim.fn.exepath(cc))
  else
    health.warn("no C compiler (cc, gcc, clang): the parser cannot be built here")
  end

  for _, name in ipairs({ "highlights", "folds" }) do
    local files = vim.treesitter.query.get_files("awl", name)
    if #files > 0 then
      health.ok(name .. " query: " .. table.concat(files, ", "))
    else
      health.warn("no " .. name .. ".scm for awl on 'runtimepath'", {
        "the plugin's queries/awl should link to tree-sitter-awl/queries",
      })
    end
  end
end

return M
