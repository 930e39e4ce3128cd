-- awl.lsp — the language-server side of awl.nvim: starting `awl lsp` for a buffer (Neovim
-- 0.10's vim.lsp.start), the buffer-local keymaps put on every buffer it attaches to, and a
-- restart that waits for the old server to exit. Neovim 0.11+ can instead start the server
-- with vim.lsp.enable("awl"), which reads lsp/awl.lua; the keymaps and :AwlRestart serve both.

local M = {}

local uv = vim.uv or vim.loop

local function awl()
  return require("awl")
end

-- Client methods: `client:stop(force)` since 0.11 (`client.stop(force)` before, where the
-- colon form would pass the client itself as `force`).
local has_011 = vim.fn.has("nvim-0.11") == 1

local function stop(client, force)
  if has_011 then
    client:stop(force)
  else
    client.stop(force)
  end
end

local function is_stopped(client)
  if has_011 then
    return client:is_stopped()
  end
  return client.is_stopped()
end

--- The workspace root of a buffer: the nearest folder upwards holding a root marker, else the
--- folder of the file (the cwd for an unnamed buffer).
function M.root_dir_for(bufnr)
  local fname = vim.api.nvim_buf_get_name(bufnr)
  local markers = awl().config.root_markers or {}
  if fname == "" then
    return uv.cwd()
  end
  local dir = vim.fs.dirname(vim.fs.normalize(fname))
  if #markers > 0 then
    if vim.fs.root then
      local root = vim.fs.root(fname, markers)
      if root then
        return root
      end
    else
      local found = vim.fs.find(markers, { path = dir, upward = true })[1]
      if found then
        return vim.fs.dirname(found)
      end
    end
  end
  return dir
end

--- `workspace/diagnostic/refresh` (the server asks after a document that others have contracts
--- with changed): Neovim's own handler, then — where Neovim answers it by pulling the workspace
--- only (0.12), which leaves the diagnostics it pulled for each open buffer as they were — each
--- buffer the client is attached to is pulled again too, so a contract fixed in one document
--- clears the problem shown in the other at once (not at its next edit).
function M.on_diagnostic_refresh(err, result, ctx)
  local default = vim.lsp.handlers["workspace/diagnostic/refresh"]
  local answer = default and default(err, result, ctx) or vim.NIL
  local client = vim.lsp.get_client_by_id(ctx.client_id)
  local pull = vim.lsp.diagnostic and vim.lsp.diagnostic._refresh
  if client and type(pull) == "function" and client:supports_method("workspace/diagnostic") then
    for bufnr in pairs(client.attached_buffers or {}) do
      pcall(pull, bufnr, ctx.client_id)
    end
  end
  return answer
end

--- When a server exits (:AwlRestart, a crash): the diagnostics it reported are withdrawn — Neovim
--- clears them itself only for buffers it was attached to, not for the documents nobody opened
--- that it pulled (0.12) or was pushed.
function M.on_exit(_, _, client_id)
  vim.schedule(function()
    local get = vim.lsp.diagnostic and vim.lsp.diagnostic.get_namespace
    if type(get) ~= "function" then
      return
    end
    for _, pull in ipairs({ false, true }) do
      local ok, ns = pcall(get, client_id, pull, pull and "awl" or nil)
      if ok and ns then
        vim.diagnostic.reset(ns)
      end
    end
  end)
end

--- Is the server started by Neovim 0.11+'s vim.lsp.enable("awl") (lsp/awl.lua) rather than by
--- this plugin's setup()?
function M.enabled_natively()
  return vim.lsp.is_enabled ~= nil and vim.lsp.is_enabled("awl")
end

--- Start (or reuse) the `awl lsp` client for a buffer with setup()'s options. Returns the
--- client id or nil.
function M.start(bufnr)
  local config = awl().config
  local cmd = config.cmd
  if type(cmd) == "string" then
    cmd = { cmd }
  end
  if type(cmd) == "table" and vim.fn.executable(cmd[1]) == 0 then
    awl().notify(
      string.format(
        "language server %q not found; `pipx install <awl-lsp clone>` (or `make -C <clone> .venv/.installed`"
          .. " and put .venv/bin on PATH), or set cmd",
        cmd[1]
      ),
      vim.log.levels.WARN,
      "no-server"
    )
    return nil
  end
  return vim.lsp.start({
    name = "awl",
    cmd = cmd,
    -- the C allocator (so the server need not re-execute itself for it: see lsp/awl.lua)
    cmd_env = { PYTHONMALLOC = vim.env.PYTHONMALLOC or "malloc" },
    root_dir = M.root_dir_for(bufnr),
    on_attach = config.on_attach,
    capabilities = config.capabilities,
    settings = config.settings,
    init_options = config.init_options,
    handlers = { ["workspace/diagnostic/refresh"] = M.on_diagnostic_refresh },
    on_exit = M.on_exit,
  }, { bufnr = bufnr })
end

-- ------------------------------------------------------------------ keymaps

--- The buffer-local LSP keymaps: { lhs, function, description }. Neovim 0.11+ maps K, grn,
--- grr, gra and gri globally already; the plugin adds `gd` everywhere and, on 0.10, the rest.
function M.keymaps()
  local maps = {
    { "gd", vim.lsp.buf.definition, "awl: go to definition" },
  }
  if not has_011 then
    vim.list_extend(maps, {
      { "K", vim.lsp.buf.hover, "awl: hover" },
      { "grn", vim.lsp.buf.rename, "awl: rename" },
      { "grr", vim.lsp.buf.references, "awl: references" },
      { "gra", vim.lsp.buf.code_action, "awl: code action" },
    })
  end
  return maps
end

--- Map the keymaps in one buffer (called on LspAttach of an `awl` client).
function M.map_keys(bufnr)
  for _, m in ipairs(M.keymaps()) do
    vim.keymap.set("n", m[1], m[2], { buffer = bufnr, desc = m[3], silent = true })
  end
end

--- An LspAttach autocommand: keymaps on every buffer an `awl` client attaches to, whether
--- setup() or vim.lsp.enable started it; off with setup({ keymaps = false }) or
--- vim.g.awl_keymaps = false.
function M.create_autocmds()
  local group = vim.api.nvim_create_augroup("awl_lsp", { clear = true })
  vim.api.nvim_create_autocmd("LspAttach", {
    group = group,
    callback = function(args)
      local client = vim.lsp.get_client_by_id(args.data and args.data.client_id or -1)
      if not client or client.name ~= "awl" then
        return
      end
      if vim.g.awl_keymaps == false or awl().config.keymaps == false then
        return
      end
      M.map_keys(args.buf)
    end,
    desc = "awl: buffer-local LSP keymaps",
  })
end

-- ------------------------------------------------------------------ restart

--- Stop every `awl` client, wait (bounded) until each has exited, then start the server again
--- for every awl buffer: through vim.lsp.enable's configuration when that started it, else
--- with setup()'s options. `done(new_ids)` is called when the new clients have been started.
---@param opts? { timeout?: integer, done?: fun(ids: integer[]) }
function M.restart(opts)
  opts = opts or {}
  local timeout = opts.timeout or 5000
  local native = M.enabled_natively()
  local old = vim.lsp.get_clients({ name = "awl" })
  for _, client in ipairs(old) do
    stop(client)
  end
  local waited = 0
  local function all_stopped()
    for _, client in ipairs(old) do
      if not is_stopped(client) then
        return false
      end
    end
    return true
  end
  local function start_again()
    local ids = {}
    awl().each_awl_buffer(function(buf)
      local id
      if native then
        local config = vim.deepcopy(vim.lsp.config.awl)
        config.root_dir = M.root_dir_for(buf)
        id = vim.lsp.start(config, { bufnr = buf })
      else
        id = awl().start_lsp(buf)
      end
      if id then
        table.insert(ids, id)
      end
    end)
    if opts.done then
      opts.done(ids)
    end
  end
  local function poll()
    if all_stopped() then
      start_again()
    elseif waited >= timeout then
      for _, client in ipairs(old) do
        stop(client, true) -- force: the server did not exit on shutdown/exit
      end
      vim.defer_fn(start_again, 100)
    else
      waited = waited + 50
      vim.defer_fn(poll, 50)
    end
  end
  poll()
end

return M
