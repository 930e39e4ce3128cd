-- Buffer settings for AWL: indentation is structure, two spaces per level; `//` comments.
if vim.b.did_ftplugin then
  return
end
vim.b.did_ftplugin = 1

vim.bo.commentstring = "// %s"
vim.bo.comments = "b:///,b://!,b://"
vim.bo.expandtab = true
vim.bo.shiftwidth = 2
vim.bo.softtabstop = 2
vim.bo.tabstop = 2
vim.bo.autoindent = true
vim.bo.indentexpr = "v:lua.require'awl.indent'.get()"
vim.bo.indentkeys = "0),0],0},!^F,o,O"
vim.bo.formatoptions = vim.bo.formatoptions:gsub("t", "") .. "croql"

vim.b.undo_ftplugin = "setlocal commentstring< comments< expandtab< shiftwidth< softtabstop< tabstop<"
  .. " autoindent< indentexpr< indentkeys< formatoptions<"
