-- :AwlGraph — the document's flow graph (steps, routes, outcomes, calls) from the awl server's
-- `awl/graph` request, shown as Mermaid or DOT text in a scratch buffer, or as SVG handed to a viewer.
local M = {}

local FORMATS = { mermaid = "mermaid", dot = "dot", svg = "svg" }

local function request(client, method, params, handler, bufnr)
  if vim.fn.has("nvim-0.11") == 1 then
    return client:request(method, params, handler, bufnr)
  end
  return client.request(method, params, handler, bufnr)
end

--- Put `text` in a scratch buffer in a vertical split (reusing the graph buffer of `source`).
local function show_text(source, text, filetype)
  local name = "awl-graph://" .. vim.api.nvim_buf_get_name(source) .. "." .. filetype
  local buf = vim.fn.bufnr(name)
  if buf == -1 then
    buf = vim.api.nvim_create_buf(false, true)
    vim.api.nvim_buf_set_name(buf, name)
    vim.bo[buf].buftype = "nofile"
    vim.bo[buf].bufhidden = "hide"
    vim.bo[buf].swapfile = false
  end
  vim.bo[buf].modifiable = true
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, vim.split(text, "\n", { trimempty = true }))
  vim.bo[buf].modifiable = false
  vim.bo[buf].filetype = filetype
  local win = vim.fn.bufwinid(buf)
  if win == -1 then
    vim.cmd("vsplit")
    vim.api.nvim_win_set_buf(0, buf)
  end
  return buf
end

--- Ask the server for the graph of `bufnr` and show it in `format` (mermaid, dot or svg).
---@param bufnr? integer
---@param format? string
---@param viewer? string|string[] a program that opens an SVG file (for format svg)
---@param done? fun(buf: integer|nil, err: string|nil)
function M.show(bufnr, format, viewer, done)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  format = FORMATS[format or "mermaid"]
  local finish = function(buf, err)
    if err then
      vim.notify("awl: " .. err, vim.log.levels.WARN)
    end
    if done then
      done(buf, err)
    end
  end
  if not format then
    return finish(nil, "graph formats are mermaid, dot and svg")
  end
  local client = vim.lsp.get_clients({ bufnr = bufnr, name = "awl" })[1]
  if not client then
    return finish(nil, "the awl server is not attached to this buffer")
  end
  local row = vim.api.nvim_win_get_cursor(0)[1] - 1
  local params = { textDocument = { uri = vim.uri_from_bufnr(bufnr) }, position = { line = row, character = 0 } }
  request(client, "awl/graph", params, function(err, result)
    if err or not result then
      return finish(nil, "no graph: " .. (err and err.message or "the server has not seen this document"))
    end
    if format == "svg" then
      local file = vim.fn.tempname() .. ".svg"
      vim.fn.writefile(vim.split(result.svg, "\n"), file)
      if viewer and viewer ~= "" then
        local cmd = type(viewer) == "table" and vim.list_extend(vim.deepcopy(viewer), { file }) or { viewer, file }
        vim.fn.jobstart(cmd, { detach = true })
      end
      return finish(show_text(bufnr, result.svg, "svg"), nil)
    end
    finish(show_text(bufnr, result[format], format), nil)
  end, bufnr)
end

return M
