-- aintern-ls for Neovim 0.11+: runs the shell fences of Markdown runbooks and AI chats.
--
-- The server does the work (lenses, diagnostics, runs, terminals); this plugin adds
-- what only the editor can do: refreshing code lenses (Neovim has no
-- workspace/codeLens/refresh), putting copied text in registers, showing server
-- terminal sessions as real terminal buffers, and :AInternCapture for AI context.
local M = {}

M.terminals = {} -- terminalId -> { buf = number, chan = number }

local defaults = {
  cmd = { 'aintern-ls', '--stdio' },
  filetypes = { 'markdown', 'codecompanion', 'copilot-chat', 'gp', 'Avante', 'aider' },
  settings = {}, -- sent as initializationOptions.aintern
  register = '+', -- where ⎘ Copy puts the command (also the unnamed register)
  terminal_split = 'botright split',
}

M.config = vim.deepcopy(defaults)

local function client_for(bufnr)
  return vim.lsp.get_clients({ name = 'aintern_ls', bufnr = bufnr })[1]
end

local function set_register(text)
  if M.config.register ~= '+' or vim.fn.has('clipboard') == 1 then
    pcall(vim.fn.setreg, M.config.register, text)
  end
  vim.fn.setreg('"', text)
end

local function refresh_lenses(bufnr)
  if bufnr and vim.api.nvim_buf_is_valid(bufnr) and client_for(bufnr) then
    vim.lsp.codelens.refresh({ bufnr = bufnr })
  end
end

local function refresh_all()
  for _, client in ipairs(vim.lsp.get_clients({ name = 'aintern_ls' })) do
    for bufnr in pairs(client.attached_buffers) do
      refresh_lenses(bufnr)
    end
  end
end

--- The terminal buffer that mirrors server session `id` (created on first use).
function M.terminal_buffer(id, client)
  local term = M.terminals[id]
  if term and vim.api.nvim_buf_is_valid(term.buf) then
    return term
  end
  local buf = vim.api.nvim_create_buf(true, false)
  pcall(vim.api.nvim_buf_set_name, buf, 'aintern://' .. id)
  local chan = vim.api.nvim_open_term(buf, {
    on_input = function(_, _, _, data)
      if client then
        client:request('workspace/executeCommand', {
          command = 'aintern.terminal.input',
          arguments = { { terminalId = id, data = data } },
        }, function() end)
      end
    end,
  })
  term = { buf = buf, chan = chan }
  M.terminals[id] = term
  return term
end

function M.show_terminal(id, client)
  local term = M.terminal_buffer(id, client)
  if vim.fn.bufwinid(term.buf) == -1 then
    vim.cmd(M.config.terminal_split)
    vim.api.nvim_win_set_buf(0, term.buf)
    vim.cmd('wincmd p')
  end
  return term
end

local handlers = {
  ['aintern/terminalOutput'] = function(_, params, ctx)
    local client = vim.lsp.get_client_by_id(ctx.client_id)
    local term = M.terminal_buffer(params.terminalId, client)
    vim.api.nvim_chan_send(term.chan, params.data)
  end,
  ['aintern/terminalExit'] = function(_, params)
    local term = M.terminals[params.terminalId]
    if term then
      local code = params.exitCode == vim.NIL and '?' or tostring(params.exitCode)
      pcall(vim.api.nvim_chan_send, term.chan, '\r\n[process exited ' .. code .. ']\r\n')
    end
  end,
  ['aintern/blockStatus'] = function(_, params)
    local bufnr = vim.uri_to_bufnr(params.uri)
    vim.schedule(function()
      refresh_lenses(bufnr)
    end)
  end,
}

-- Client-side commands: the lens still goes to the server, the result lands in the editor.
local function exec(client, command, bufnr, on_result)
  client:request('workspace/executeCommand', command, function(err, result)
    if err then
      vim.notify('aintern: ' .. err.message, vim.log.levels.ERROR)
    elseif on_result then
      on_result(result)
    end
    refresh_lenses(bufnr)
  end, bufnr)
end

M.commands = {
  ['aintern.copy'] = function(command, ctx)
    local client = assert(vim.lsp.get_client_by_id(ctx.client_id))
    exec(client, command, ctx.bufnr, function(result)
      set_register(result.text)
      vim.notify('aintern: command copied', vim.log.levels.INFO)
    end)
  end,
  ['aintern.sendToTerminal'] = function(command, ctx)
    local client = assert(vim.lsp.get_client_by_id(ctx.client_id))
    exec(client, command, ctx.bufnr, function(result)
      M.show_terminal(result.terminalId, client)
    end)
  end,
  ['aintern.run'] = function(command, ctx)
    local client = assert(vim.lsp.get_client_by_id(ctx.client_id))
    local args = vim.deepcopy(command.arguments)
    local function go(confirmed)
      args[1].confirmed = confirmed or nil
      exec(client, { title = command.title, command = command.command, arguments = args }, ctx.bufnr,
        function(result)
          M.last_result = result
          if result.cancelled and not result.exitCode then
            vim.notify('aintern: ' .. (result.output or 'cancelled'), vim.log.levels.WARN)
          else
            local code = result.exitCode == vim.NIL and '?' or tostring(result.exitCode)
            vim.notify(('aintern: exit %s in %d ms'):format(code, result.durationMs or 0))
          end
        end)
    end
    -- Neovim cannot answer window/showMessageRequest from a lens click on every
    -- setup, so dangerous lenses ask here (their title says so) and pass `confirmed`.
    if command.title:find('asks first', 1, true) then
      vim.ui.select({ 'Run anyway', 'Cancel' }, { prompt = 'aintern: ' .. command.title }, function(choice)
        if choice == 'Run anyway' then
          go(true)
        end
      end)
    else
      go(false)
    end
  end,
}

--- :AInternCapture [mode]: terminal output as AI context, in the register and a scratch buffer.
function M.capture(mode, terminal_id)
  local client = client_for(0) or vim.lsp.get_clients({ name = 'aintern_ls' })[1]
  if not client then
    vim.notify('aintern: the server is not running', vim.log.levels.ERROR)
    return
  end
  local args = { mode = mode or 'lastCommand', terminalId = terminal_id }
  client:request('workspace/executeCommand', {
    command = 'aintern.capture',
    arguments = { args },
  }, function(err, result)
    if err then
      vim.notify('aintern: ' .. err.message, vim.log.levels.ERROR)
      return
    end
    set_register(result.contextString)
    M.last_capture = result
    vim.notify(('aintern: %d characters of terminal context copied'):format(#result.contextString))
  end)
end

function M.setup(opts)
  M.config = vim.tbl_deep_extend('force', vim.deepcopy(defaults), opts or {})
  for name, fn in pairs(M.commands) do
    vim.lsp.commands[name] = fn
  end
  vim.lsp.config('aintern_ls', {
    cmd = M.config.cmd,
    filetypes = M.config.filetypes,
    root_markers = { '.git' },
    init_options = { aintern = M.config.settings },
    settings = { aintern = M.config.settings },
    handlers = handlers,
  })
  vim.lsp.enable('aintern_ls')

  local group = vim.api.nvim_create_augroup('aintern_ls', { clear = true })
  vim.api.nvim_create_autocmd('LspAttach', {
    group = group,
    callback = function(ev)
      local client = vim.lsp.get_client_by_id(ev.data.client_id)
      if not client or client.name ~= 'aintern_ls' then
        return
      end
      refresh_lenses(ev.buf)
      vim.api.nvim_create_autocmd({ 'BufEnter', 'InsertLeave', 'TextChanged' }, {
        group = group,
        buffer = ev.buf,
        callback = function()
          refresh_lenses(ev.buf)
        end,
      })
    end,
  })
  vim.api.nvim_create_user_command('AInternCapture', function(cmd)
    M.capture(cmd.fargs[1], cmd.fargs[2])
  end, {
    nargs = '*',
    complete = function()
      return { 'lastCommand', 'fullBuffer', 'lastNLines' }
    end,
    desc = 'Copy terminal output as AI context',
  })
  vim.api.nvim_create_user_command('AInternRun', function()
    vim.lsp.codelens.run()
  end, { desc = 'Run the code lens on this line' })
end

M.refresh_all = refresh_all
return M
