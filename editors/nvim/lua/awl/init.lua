-- awl.nvim — Neovim client for AWL: the `awl lsp` language server plus the tree-sitter-awl
-- grammar (highlighting, folds) without nvim-treesitter. Neovim >= 0.10.
--
--   require("awl").setup({
--     cmd = { "awl", "lsp" },          -- how to start the server
--     on_attach = function(client, bufnr) end,
--     capabilities = nil,              -- e.g. require("cmp_nvim_lsp").default_capabilities()
--     parser_path = nil,               -- default: <plugin>/parser/awl.so (built on demand)
--     keymaps = true,                  -- buffer-local `gd` (and K/grn/grr/gra on 0.10)
--   })
--
-- Neovim 0.11+ may start the server with vim.lsp.enable("awl") instead (lsp/awl.lua), and
-- call setup({ lsp = false }) for the tree-sitter parts only.
--
-- The plugin directory is editors/nvim of an awl-lsp clone; the grammar sources it compiles
-- live beside it in ../../tree-sitter-awl (override with `grammar_dir`).

local M = {}

local uv = vim.uv or vim.loop

---@class awl.Config
local defaults = {
  --- Server command; the first word must be an executable on PATH (or an absolute path).
  cmd = { "awl", "lsp" },
  --- Called as on_attach(client, bufnr) when the server attaches to a buffer.
  on_attach = nil,
  --- LSP client capabilities (default: Neovim's own).
  capabilities = nil,
  --- Passed through to the server.
  settings = nil,
  init_options = nil,
  --- A buffer's workspace root is the nearest folder upwards holding one of these,
  --- else the folder of the file.
  root_markers = { ".git" },
  --- Compiled grammar. Default: <plugin>/parser/awl.so.
  parser_path = nil,
  --- tree-sitter-awl checkout holding src/parser.c, src/scanner.c and queries/.
  grammar_dir = nil,
  --- Compile the parser on first use when it is missing (or older than its sources).
  auto_build = true,
  --- C compiler for the parser; default $CC, then cc, gcc, clang.
  cc = nil,
  --- Buffer-local LSP keymaps when the server attaches (see awl.lsp.keymaps()).
  keymaps = true,
  --- Start the language server / tree-sitter highlighting / tree-sitter folds.
  lsp = true,
  highlight = true,
  folds = true,
  --- `:AwlGraph svg` opens the drawing with this program (a string or a list), e.g. "firefox".
  graph_viewer = nil,
}

---@type awl.Config
M.config = vim.deepcopy(defaults)

local state = {
  setup_done = false,
  parser_checked = false,
  parser_ok = false,
  warned = {},
}

local function notify(msg, level, once_key)
  -- (also M.notify, for awl.lsp)
  if once_key then
    if state.warned[once_key] then
      return
    end
    state.warned[once_key] = true
  end
  vim.notify("awl: " .. msg, level or vim.log.levels.INFO)
end

M.notify = function(...)
  return notify(...)
end

local function exists(path)
  return path ~= nil and uv.fs_stat(path) ~= nil
end

local function mtime(path)
  local st = path and uv.fs_stat(path)
  if not st then
    return nil
  end
  return st.mtime.sec + st.mtime.nsec / 1e9
end

--- The plugin's root folder (editors/nvim), symlinks resolved.
function M.plugin_dir()
  local src = debug.getinfo(1, "S").source
  src = src:sub(1, 1) == "@" and src:sub(2) or src
  src = uv.fs_realpath(src) or src
  -- <plugin>/lua/awl/init.lua
  return vim.fs.dirname(vim.fs.dirname(vim.fs.dirname(vim.fs.normalize(src))))
end

--- The tree-sitter-awl folder whose sources build the parser.
function M.grammar_dir()
  if M.config.grammar_dir then
    return vim.fs.normalize(M.config.grammar_dir)
  end
  local dir = M.plugin_dir() .. "/../../tree-sitter-awl"
  return vim.fs.normalize(uv.fs_realpath(dir) or dir)
end

--- A `parser/awl.so` on 'runtimepath' other than the plugin's own (nvim-treesitter's), or nil.
function M.runtime_parser()
  local own = M.plugin_dir() .. "/parser/awl.so"
  for _, p in ipairs(vim.api.nvim_get_runtime_file("parser/awl.so", true)) do
    local real = vim.fs.normalize(uv.fs_realpath(p) or p)
    if real ~= own and real ~= (uv.fs_realpath(own) or own) then
      return real
    end
  end
  return nil
end

--- Where the compiled parser is (or will be built): `parser_path`, else one another plugin
--- manager (nvim-treesitter) put on 'runtimepath', else <plugin>/parser/awl.so.
function M.parser_path()
  if M.config.parser_path then
    return vim.fs.normalize(M.config.parser_path)
  end
  return M.runtime_parser() or (M.plugin_dir() .. "/parser/awl.so")
end

--- The C compiler to use, or nil.
function M.find_compiler()
  local candidates = {}
  if M.config.cc then
    table.insert(candidates, M.config.cc)
  end
  if vim.env.CC and vim.env.CC ~= "" then
    table.insert(candidates, vim.env.CC)
  end
  vim.list_extend(candidates, { "cc", "gcc", "clang" })
  for _, c in ipairs(candidates) do
    if vim.fn.executable(c) == 1 then
      return c
    end
  end
  return nil
end

local function grammar_sources()
  local src = M.grammar_dir() .. "/src"
  local files = { src .. "/parser.c" }
  if exists(src .. "/scanner.c") then
    table.insert(files, src .. "/scanner.c")
  end
  return src, files
end

--- True when the parser is missing, or (for the default location) older than its sources.
function M.parser_stale()
  local so = M.parser_path()
  local built = mtime(so)
  if not built then
    return true
  end
  if M.config.parser_path or so ~= M.plugin_dir() .. "/parser/awl.so" then
    return false -- not ours to rebuild
  end
  local _, files = grammar_sources()
  for _, f in ipairs(files) do
    local t = mtime(f)
    if t and t > built then
      return true
    end
  end
  return false
end

--- Compile tree-sitter-awl/src/{parser,scanner}.c into parser_path() with
--- `cc -shared -fPIC -O2`. Returns ok, message.
---@param opts? { force?: boolean, quiet?: boolean, timeout?: integer }
function M.build_parser(opts)
  opts = opts or {}
  -- Never over another manager's parser: build into `parser_path` or the plugin's own folder.
  local so = M.config.parser_path and vim.fs.normalize(M.config.parser_path) or (M.plugin_dir() .. "/parser/awl.so")
  if not opts.force and not M.parser_stale() then
    return true, "parser up to date: " .. so
  end
  local src, files = grammar_sources()
  if not exists(files[1]) then
    local msg = "cannot build the parser: no " .. files[1] .. " (set grammar_dir)"
    if not opts.quiet then
      notify(msg, vim.log.levels.ERROR)
    end
    return false, msg
  end
  local cc = M.find_compiler()
  if not cc then
    local msg = "cannot build the parser: no C compiler (cc, gcc or clang; or set $CC)"
    if not opts.quiet then
      notify(msg, vim.log.levels.ERROR)
    end
    return false, msg
  end
  vim.fn.mkdir(vim.fs.dirname(so), "p")
  local tmp = string.format("%s.tmp%d", so, uv.os_getpid())
  local cmd = { cc, "-shared", "-fPIC", "-O2", "-I", src }
  vim.list_extend(cmd, files)
  vim.list_extend(cmd, { "-o", tmp })
  local ok, res = pcall(function()
    return vim.system(cmd, { text = true }):wait(opts.timeout or 180000)
  end)
  if not ok or res.code ~= 0 then
    os.remove(tmp)
    local detail = not ok and tostring(res)
      or (res.signal ~= 0 and ("killed (signal " .. res.signal .. ")") or vim.trim(res.stderr or ""))
    local msg = "parser build failed: " .. table.concat(cmd, " ") .. "\n" .. detail
    if not opts.quiet then
      notify(msg, vim.log.levels.ERROR)
    end
    return false, msg
  end
  local renamed, err = os.rename(tmp, so)
  if not renamed then
    os.remove(tmp)
    return false, "parser build: cannot move into place: " .. tostring(err)
  end
  if not opts.quiet then
    notify("built tree-sitter parser " .. so)
  end
  return true, "built " .. so
end

-- Queries: found on 'runtimepath' (the plugin's queries/awl links to tree-sitter-awl/queries).
-- When that link is missing (a copy without symlinks), read them from grammar_dir directly.
local function ensure_queries()
  for _, name in ipairs({ "highlights", "folds", "indents", "injections", "locals" }) do
    if #vim.treesitter.query.get_files("awl", name) == 0 then
      local file = M.grammar_dir() .. "/queries/" .. name .. ".scm"
      local fd = io.open(file, "r")
      if fd then
        local text = fd:read("*a")
        fd:close()
        pcall(vim.treesitter.query.set, "awl", name, text)
      end
    end
  end
end

--- Make the `awl` tree-sitter language available (building the parser when allowed).
--- Returns true when the parser is loaded.
function M.load_parser()
  if state.parser_checked then
    return state.parser_ok
  end
  state.parser_checked = true
  local so = M.parser_path()
  if M.config.auto_build and M.parser_stale() and M.find_compiler() then
    M.build_parser({ force = true })
  end
  if not exists(so) then
    notify(
      "no tree-sitter parser at " .. so .. " (run :AwlBuildParser); highlighting is off",
      vim.log.levels.WARN,
      "no-parser"
    )
    state.parser_ok = false
    return false
  end
  local ok, err = pcall(vim.treesitter.language.add, "awl", { path = so })
  if not ok then
    notify("cannot load " .. so .. ": " .. tostring(err), vim.log.levels.WARN, "bad-parser")
    state.parser_ok = false
    return false
  end
  ensure_queries()
  state.parser_ok = true
  return true
end

--- Start (or reuse) the `awl lsp` client for a buffer. Returns the client id or nil.
function M.start_lsp(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  return require("awl.lsp").start(bufnr)
end

--- Everything for one awl buffer: tree-sitter highlighting and folds, then the server.
function M.attach(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  if not vim.api.nvim_buf_is_valid(bufnr) then
    return
  end
  if (M.config.highlight or M.config.folds) and M.load_parser() then
    if M.config.highlight then
      local ok, err = pcall(vim.treesitter.start, bufnr, "awl")
      if not ok then
        notify("tree-sitter highlighting failed: " .. tostring(err), vim.log.levels.WARN, "ts-start")
      end
    end
    if M.config.folds and bufnr == vim.api.nvim_get_current_buf() then
      vim.opt_local.foldmethod = "expr"
      vim.opt_local.foldexpr = "v:lua.vim.treesitter.foldexpr()"
      vim.opt_local.foldlevel = 99
    end
  end
  if M.config.lsp and not require("awl.lsp").enabled_natively() then
    M.start_lsp(bufnr)
  end
end

--- Call `fn(buf)` for every loaded buffer whose filetype is awl.
local function each_awl_buffer(fn)
  for _, buf in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(buf) and vim.bo[buf].filetype == "awl" then
      fn(buf)
    end
  end
end

M.each_awl_buffer = each_awl_buffer

local function create_commands()
  vim.api.nvim_create_user_command("AwlBuildParser", function()
    local was_loaded = state.parser_ok
    local ok = M.build_parser({ force = true })
    if ok then
      if was_loaded then
        notify("restart Neovim to load the rebuilt parser (a loaded one cannot be replaced)")
      else
        state.parser_checked = false
        each_awl_buffer(function(buf)
          vim.api.nvim_buf_call(buf, function()
            M.attach(buf)
          end)
        end)
      end
    end
  end, { desc = "awl: compile tree-sitter-awl into the plugin's parser/awl.so" })
  vim.api.nvim_create_user_command("AwlRestart", function()
    require("awl.lsp").restart({
      done = function(ids)
        notify(string.format("language server restarted (%d client(s))", #ids))
      end,
    })
  end, { desc = "awl: restart the language server (waits for the old one to exit)" })
  vim.api.nvim_create_user_command("AwlGraph", function(cmd)
    require("awl.graph").show(0, cmd.args ~= "" and cmd.args or "mermaid", (M.config or {}).graph_viewer)
  end, {
    nargs = "?",
    complete = function()
      return { "mermaid", "dot", "svg" }
    end,
    desc = "awl: the flow graph as Mermaid, DOT or SVG (svg opens `graph_viewer` when configured)",
  })
end

M.create_commands = create_commands

--- Configure the plugin and hook it to the `awl` filetype.
---@param opts? awl.Config
function M.setup(opts)
  if vim.fn.has("nvim-0.10") == 0 then
    notify("needs Neovim 0.10 or newer", vim.log.levels.ERROR)
    return
  end
  M.config = vim.tbl_deep_extend("force", vim.deepcopy(defaults), opts or {})
  -- A new configuration may name another parser: check again on next use.
  state.parser_checked = false
  state.setup_done = true

  vim.filetype.add({ extension = { awl = "awl" } })
  create_commands()

  local group = vim.api.nvim_create_augroup("awl", { clear = true })
  vim.api.nvim_create_autocmd("FileType", {
    group = group,
    pattern = "awl",
    callback = function(args)
      M.attach(args.buf)
    end,
    desc = "awl: tree-sitter and language server",
  })
  -- Buffers that were opened before setup() ran.
  each_awl_buffer(function(buf)
    vim.api.nvim_buf_call(buf, function()
      M.attach(buf)
    end)
  end)
end

return M
