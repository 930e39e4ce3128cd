-- awl.nvim: the user commands (:AwlBuildParser, :AwlRestart) and the LspAttach keymaps exist
-- before setup();
-- setup() starts the language server and tree-sitter for `awl` buffers (lua/awl/init.lua).
if vim.g.loaded_awl or vim.fn.has("nvim-0.10") == 0 then
  return
end
vim.g.loaded_awl = true
require("awl").create_commands()
-- Buffer-local LSP keymaps on LspAttach, also when vim.lsp.enable("awl") starts the server.
require("awl.lsp").create_autocmds()
