-- Neovim 0.11+: the `awl lsp` language server for vim.lsp.config / vim.lsp.enable.
--
--   vim.lsp.enable("awl")                                        -- with editors/nvim on 'runtimepath'
--   vim.lsp.config("awl", { cmd = { "/path/to/awl", "lsp" } })   -- optional overrides
--
-- Buffer-local keymaps come from the plugin's LspAttach autocommand (plugin/awl.lua);
-- tree-sitter highlighting and folds from require("awl").setup({ lsp = false }).
---@type vim.lsp.Config
return {
  cmd = { "awl", "lsp" },
  -- the C allocator, which the server needs to give memory back after documents close: set here,
  -- the server does not re-execute itself to get it (a second interpreter start)
  cmd_env = { PYTHONMALLOC = vim.env.PYTHONMALLOC or "malloc" },
  filetypes = { "awl" },
  -- The nearest folder upwards with a .git, else the file's own folder (as setup() does).
  root_dir = function(bufnr, on_dir)
    local name = vim.api.nvim_buf_get_name(bufnr)
    if name == "" then
      return on_dir(vim.fn.getcwd())
    end
    on_dir(vim.fs.root(bufnr, { ".git" }) or vim.fs.dirname(vim.fs.normalize(name)))
  end,
  -- Neovim 0.12 answers a refresh by pulling the workspace only: open buffers are pulled again too
  handlers = {
    ["workspace/diagnostic/refresh"] = function(...)
      return require("awl.lsp").on_diagnostic_refresh(...)
    end,
  },
  -- what the server reported for documents nobody opened goes with it
  on_exit = function(...)
    return require("awl.lsp").on_exit(...)
  end,
}
