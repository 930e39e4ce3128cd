-- 'indentexpr' for AWL: indentation is structure (two spaces per level). A new line goes one
-- level in after a line that opens a block (workloop/workflow header, worker, step, fork, loop,
-- `on failure`, retire, invariant, an action with a config line, an outcome broken after its
-- comma, an open bracket), else it keeps the indentation of the line above. Dedenting at the end
-- of a block is the writer's choice, as in any indentation-structured language.
local M = {}

-- The block-opening words are the keyword table's (awl_lsp/reference/keywords.py).
-- BEGIN generated block openers: `make keywords` writes this from awl_lsp/reference/keywords.py; edit the table
local openers = {
  "workflow", "workloop", "worker", "subflow", "step", "fork", "loop", "invariant", "retire",
  "distribute", "sequence",
}
-- END generated block openers

local function opens_block(line)
  local code = line:gsub("%s+//.*$", "")
  local word = code:match("^%s*([%a_]+)")
  if word then
    for _, w in ipairs(openers) do
      if word == w then
        return true
      end
    end
    if word == "on" and code:match("^%s*on%s+failure%s*$") then
      return true
    end
  end
  return code:match("[,%(%[{]%s*$") ~= nil
end

--- The indentation of line `lnum` (1-based; default v:lnum).
function M.get(lnum)
  lnum = lnum or vim.v.lnum
  local prev = vim.fn.prevnonblank(lnum - 1)
  if prev == 0 then
    return 0
  end
  local sw = vim.fn.shiftwidth()
  local prev_line = vim.fn.getline(prev)
  local indent = vim.fn.indent(prev)
  if not prev_line:match("^%s*//") and opens_block(prev_line) then
    indent = indent + sw
  end
  if vim.fn.getline(lnum):match("^%s*[%)%]}]") then
    indent = math.max(0, indent - sw)
  end
  return indent
end

return M
