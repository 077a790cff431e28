-- aintern-ls for Neovim 0.11+: runs the shell fences of Markdown runbooks and AI chats.
--
-- The server does the work (lenses, diagnostics, runs, terminals, captures); this plugin
-- adds what only the editor can do: drawing and refreshing code lenses (Neovim has no
-- workspace/codeLens/refresh), the output of a run under its fence, one terminal buffer
-- per document sized to its window, registers, and attaching to AI chat buffers that
-- are not files. `:help aintern` documents all of it.
local M = {}

local api = vim.api
local levels = vim.log.levels

M.defaults = {
  cmd = { 'aintern-ls', '--stdio' },
  filetypes = { 'markdown', 'codecompanion', 'copilot-chat', 'gp', 'Avante', 'AvanteInput', 'aider' },
  -- scratch buffers (buftype=nofile) of these filetypes are AI chats and get the server;
  -- not 'markdown': hover and signature floats are markdown scratch buffers too
  chat_filetypes = { 'codecompanion', 'copilot-chat', 'gp', 'Avante', 'AvanteInput', 'aider' },
  root_markers = { '.git' },
  settings = {}, -- the server's `aintern` settings (initializationOptions and workspace/configuration)
  register = '+', -- where ⎘ Copy and :AInternCapture put text (the unnamed register too)
  terminal_split = 'botright 12split', -- how a terminal window opens
  output = {
    height = 8, -- virtual lines of output under a fence; longer output is folded in the middle
    view = 'float', -- 'float' or 'split' for the whole output
  },
  refresh_delay = 200, -- ms of quiet typing before lenses are re-requested
  input = {
    -- a run started here that waits on a prompt (`read -p`, `[y/N]`, a password) asks at
    -- once with vim.ui.input while its buffer is the current one; false: only
    -- :AInternInput or the ✎ Answer lens ask
    auto = true,
  },
  values = {
    -- placeholders (`<your-token>`, `YOUR_API_KEY`, `{{var}}`, unset `$FOO`) are asked with
    -- vim.ui.input before a run; a name matching one of these Lua patterns (lower case) is
    -- a secret: typed hidden (vim.fn.inputsecret) and redacted from the output
    secret = { 'token', 'secret', 'pass', 'pwd', 'key', 'credential', 'auth', 'cookie' },
    hide_secret = true, -- false: secrets are asked with vim.ui.input too (still redacted)
    remember = true, -- offer the last value typed for a name (this session only, never a secret)
  },
}

--- The effective options: defaults < vim.g.aintern < setup(opts).
M.config = vim.tbl_deep_extend('force', vim.deepcopy(M.defaults), vim.g.aintern or {})

M.terminals = {} -- terminalId -> { buf, chan, client_id, title, exited, size }
M.closed = {} -- terminalIds whose buffer the user wiped: their late output is dropped
M.doc_terminal = {} -- document uri -> terminalId its ⇥ Send reuses
M.results = {} -- bufnr -> blockId -> the block's last CommandResult (+ `line`)
M.last_result = nil -- the newest CommandResult of any run
M.last_action = nil -- 'run' or 'send': what copy-for-AI copies when nothing else says
M.sent = {} -- terminalId -> { bufnr, blockId } of the last fence sent there
M.sent_exit = {} -- bufnr -> blockId -> exit code of its last command in the terminal
M.waiting = {} -- bufnr -> blockId -> { prompt, secret, ... } of a run waiting for input

local ns_lens = api.nvim_create_namespace('aintern.lens')
local ns_output = api.nvim_create_namespace('aintern.output')
M.ns = { lens = ns_lens, output = ns_output }

local function notify(msg, level)
  if msg == nil or msg == '' then
    msg = 'done'
  end
  vim.notify('aintern: ' .. msg, level or levels.INFO)
end
M.notify = notify

local function null(v)
  return v == nil or v == vim.NIL
end

local function client_for(bufnr)
  return vim.lsp.get_clients({ name = 'aintern_ls', bufnr = bufnr })[1]
end
M.client_for = client_for

local function any_client()
  return client_for(0) or vim.lsp.get_clients({ name = 'aintern_ls' })[1]
end

local function set_register(text)
  if M.config.register ~= '+' or vim.fn.has('clipboard') == 1 then
    pcall(vim.fn.setreg, M.config.register, text)
  end
  vim.fn.setreg('"', text)
end

local function exec(client, command, args, bufnr, on_result, on_error)
  client:request('workspace/executeCommand', { command = command, arguments = { args } }, function(err, result)
    if err then
      notify(err.message, levels.ERROR)
      if on_error then
        on_error(err)
      end
    elseif on_result then
      on_result(result)
    end
    M.refresh(bufnr)
  end, bufnr)
end

--- Ask with hidden typing; an empty answer, <Esc> or <C-c> cancels (nil).
local function input_secret(opts, on_done)
  local ok, value = pcall(vim.fn.inputsecret, opts.prompt)
  vim.cmd('redraw') -- clear the prompt line
  on_done((ok and value ~= '') and value or nil)
end

-- Fences ---------------------------------------------------------------------------------

--- The closing line (0-based) of the fence that opens on `start` (0-based).
function M.fence_end(bufnr, start)
  local lines = api.nvim_buf_get_lines(bufnr, start, -1, false)
  local prefix, marker = (lines[1] or ''):match('^([%s>]*)([`~][`~][`~]+)')
  if not marker then
    return start
  end
  local char = marker:sub(1, 1)
  for i = 2, #lines do
    local body = lines[i]:sub(#prefix + 1)
    if #prefix > 0 and lines[i]:sub(1, #prefix):gsub('%s', '') ~= prefix:gsub('%s', '') then
      return start + i - 2 -- the container (block quote) ended: an unclosed fence
    end
    local close = body:match('^%s*([`~]+)%s*$')
    if close and close:sub(1, 1) == char and #close >= #marker and not close:find(char == '`' and '~' or '`') then
      return start + i - 1
    end
  end
  return start + #lines - 1
end

--- Lenses of `bufnr` grouped by the line of their fence: { [line] = { lens, ... } }.
local function lenses_by_line(bufnr)
  local out = {}
  for _, lens in ipairs(vim.lsp.codelens.get(bufnr)) do
    if lens.command then
      local line = lens.range.start.line
      out[line] = out[line] or {}
      table.insert(out[line], lens)
    end
  end
  return out
end

--- The lenses of the fence under (or just above) `line`, and that fence's first line.
function M.fence_at(bufnr, line)
  bufnr = bufnr == 0 and api.nvim_get_current_buf() or bufnr
  local best
  for start in pairs(lenses_by_line(bufnr)) do
    if start <= line and (not best or start > best) and M.fence_end(bufnr, start) >= line then
      best = start
    end
  end
  if best then
    return lenses_by_line(bufnr)[best], best
  end
end

local function find(lenses, command, title_part)
  for _, lens in ipairs(lenses or {}) do
    if lens.command.command == command and (not title_part or lens.command.title:find(title_part, 1, true)) then
      return lens
    end
  end
end

local function asks_first(bufnr, line)
  local lenses = lenses_by_line(bufnr)[line]
  return find(lenses, 'aintern.run', 'asks first') ~= nil
end

-- Lenses: requested, drawn with a highlight per state, never lost while typing ---------

local inflight = {} -- bufnr -> when (vim.uv.now()) the lens request in flight was sent
local again = {} -- bufnr -> true when a refresh was asked for during one

local function lens_group(title)
  local first = vim.fn.strcharpart(title, 0, 1)
  if first == '⛔' then
    return 'AInternLensBlocked'
  elseif title:find('asks first', 1, true) then
    return 'AInternLensDangerous'
  elseif first == '⏳' or first == '⌨' then
    return 'AInternLensRunning'
  elseif first == '✓' then
    return 'AInternLensOk'
  elseif first == '✗' or first == '⏱' or first == '⊘' then
    return 'AInternLensFailed'
  end
  return 'AInternLens'
end
M.lens_group = lens_group

function M.display_lenses(bufnr, lenses)
  if not api.nvim_buf_is_loaded(bufnr) then
    return
  end
  api.nvim_buf_clear_namespace(bufnr, ns_lens, 0, -1)
  local by_line = {}
  for _, lens in ipairs(lenses or {}) do
    if lens.command then
      local line = lens.range.start.line
      by_line[line] = by_line[line] or {}
      table.insert(by_line[line], lens)
    end
  end
  local count = api.nvim_buf_line_count(bufnr)
  local exits = M.sent_exit[bufnr] or {}
  for line, group in pairs(by_line) do
    if line < count then
      local chunks = {}
      for i, lens in ipairs(group) do
        if i > 1 then
          table.insert(chunks, { ' | ', 'LspCodeLensSeparator' })
        end
        local title = lens.command.title:gsub('%s+', ' ')
        table.insert(chunks, { title, lens_group(title) })
      end
      local args = group[1].command.arguments and group[1].command.arguments[1]
      local code = args and exits[args.blockId]
      if code ~= nil then
        -- the exit of the block's last command in the terminal (shell integration)
        table.insert(chunks, { ' | ', 'LspCodeLensSeparator' })
        table.insert(chunks, { ('⇥ exit %d'):format(code), code == 0 and 'AInternLensOk' or 'AInternLensFailed' })
      end
      api.nvim_buf_set_extmark(bufnr, ns_lens, line, 0, { virt_text = chunks, hl_mode = 'combine' })
    end
  end
end

--- Lens arguments name their block only (`{blockId, level, needsConfirmation}`: a huge
--- transcript's answer does not repeat the URI 300,000 times); the handlers here read
--- `uri` too, so it is put back from the document the lenses came for.
function M.with_uri(lenses, uri)
  for _, lens in ipairs(lenses or {}) do
    local args = lens.command and lens.command.arguments
    local first = type(args) == 'table' and args[1]
    if type(first) == 'table' and first.uri == nil then
      first.uri = uri
    end
  end
  return lenses
end

--- Lenses of a huge document come unresolved (a range and `data` only; the server fills
--- in the command with `codeLens/resolve`): resolve those within `resolve_margin` lines
--- of what the windows showing `bufnr` show (WinScrolled does it again), then draw them.
M.resolve_margin = 20
local resolving = {} -- bufnr -> { [data] = true } of resolve requests in flight

function M.resolve_visible(bufnr, client, lenses)
  lenses = lenses or vim.lsp.codelens.get(bufnr)
  if not client or not api.nvim_buf_is_valid(bufnr) then
    return 0
  end
  local spans = {}
  for _, win in ipairs(vim.fn.win_findbuf(bufnr)) do
    local top = vim.fn.line('w0', win) - 1 - M.resolve_margin
    local bottom = vim.fn.line('w$', win) - 1 + M.resolve_margin
    table.insert(spans, { top, bottom })
  end
  resolving[bufnr] = resolving[bufnr] or {}
  local mine = resolving[bufnr]
  local asked, left = 0, 0
  for _, lens in ipairs(lenses) do
    local line = lens.range and lens.range.start.line
    local shown = false
    for _, span in ipairs(spans) do
      shown = shown or (line and line >= span[1] and line <= span[2])
    end
    if not lens.command and lens.data ~= nil and shown and not mine[lens.data] then
      mine[lens.data] = true
      asked, left = asked + 1, left + 1
      local sent = client:request('codeLens/resolve', lens, function(err, result)
        mine[lens.data] = nil
        left = left - 1
        if not err and result and result.command then
          lens.command = result.command
          M.with_uri({ lens }, vim.uri_from_bufnr(bufnr))
        end
        if left == 0 then -- all answered: draw once
          M.display_lenses(bufnr, vim.lsp.codelens.get(bufnr))
        end
      end, bufnr)
      if not sent then
        mine[lens.data] = nil
        asked, left = asked - 1, left - 1
      end
    end
  end
  return asked
end

--- Request the code lenses of `bufnr` now; a request made while one is in flight, or an
--- edit that lands meanwhile, gets a fresh request as soon as the first answers.
function M.refresh(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and api.nvim_get_current_buf() or bufnr
  if not api.nvim_buf_is_valid(bufnr) then
    return
  end
  local client = client_for(bufnr)
  if not client or not client.initialized then
    return
  end
  -- (a request that never answered, e.g. the server restarted, blocks for 10 s at most)
  if inflight[bufnr] and vim.uv.now() - inflight[bufnr] < 10000 then
    again[bufnr] = true
    return
  end
  local tick = api.nvim_buf_get_changedtick(bufnr)
  inflight[bufnr] = vim.uv.now()
  local document = vim.lsp.util.make_text_document_params(bufnr)
  local ok = client:request('textDocument/codeLens', {
    textDocument = document,
  }, function(err, result)
    inflight[bufnr] = nil
    if not api.nvim_buf_is_valid(bufnr) then
      return
    end
    local stale = again[bufnr] or api.nvim_buf_get_changedtick(bufnr) ~= tick
    again[bufnr] = nil
    if not err then
      M.with_uri(result, document.uri)
      vim.lsp.codelens.save(result, bufnr, client.id) -- so vim.lsp.codelens.get/run work
      M.display_lenses(bufnr, result)
      M.resolve_visible(bufnr, client, result)
    end
    if stale then
      M.refresh(bufnr)
    end
  end, bufnr)
  if not ok then
    inflight[bufnr] = nil
  end
end

local timers = {}

--- Refresh after `refresh_delay` ms without another call (typing in insert mode).
function M.refresh_later(bufnr)
  local timer = timers[bufnr]
  if not timer then
    timer = assert(vim.uv.new_timer())
    timers[bufnr] = timer
  end
  timer:stop()
  timer:start(M.config.refresh_delay, 0, vim.schedule_wrap(function()
    M.refresh(bufnr)
  end))
end

function M.refresh_all()
  for _, client in ipairs(vim.lsp.get_clients({ name = 'aintern_ls' })) do
    for bufnr in pairs(client.attached_buffers) do
      M.refresh(bufnr)
    end
  end
end

-- Output of a run, under its fence ------------------------------------------------------

local function output_lines(text)
  local lines = vim.split((text or ''):gsub('\r\n', '\n'), '\n', { plain = true })
  while #lines > 0 and vim.trim(lines[#lines]) == '' do
    table.remove(lines)
  end
  for i, l in ipairs(lines) do
    lines[i] = l:gsub('\t', '    '):gsub('%c', '')
  end
  return lines
end

local function summary(result)
  if result.timedOut then
    return '⏱ timed out', false
  elseif result.cancelled then
    return '⊘ cancelled', false
  end
  local code = null(result.exitCode) and '?' or tostring(result.exitCode)
  local ok = result.exitCode == 0
  local ms = result.durationMs or 0
  local took = ms >= 100 and ('%.1f s'):format(ms / 1000) or (ms .. ' ms')
  return ('%s exit %s · %s'):format(ok and '✓' or '✗', code, took), ok
end
M.summary = summary

--- Draw `result` as virtual lines below the fence that opens on `line`.
function M.show_result(bufnr, line, result)
  if not api.nvim_buf_is_valid(bufnr) then
    return
  end
  M.results[bufnr] = M.results[bufnr] or {}
  local old = M.results[bufnr][result.blockId]
  if old and old.mark then
    pcall(api.nvim_buf_del_extmark, bufnr, ns_output, old.mark)
  end
  local head, ok = summary(result)
  local hl = ok and 'AInternOutputOk' or 'AInternOutputError'
  local lines = output_lines(result.output)
  local height = math.max(M.config.output.height or 8, 2)
  local virt = {}
  local more = #lines > height and ('  %d lines · :AInternOutput or the state lens shows all'):format(#lines) or ''
  table.insert(virt, { { '╰─ ' .. head, hl }, { more, 'AInternOutputFold' } })
  local function add(l)
    table.insert(virt, { { '   ' .. l, 'AInternOutput' } })
  end
  if #lines <= height then
    for _, l in ipairs(lines) do
      add(l)
    end
  else
    local top = math.floor(height / 2)
    local bottom = height - top
    for i = 1, top do
      add(lines[i])
    end
    table.insert(virt, { { ('   ⋯ %d more lines ⋯'):format(#lines - height), 'AInternOutputFold' } })
    for i = #lines - bottom + 1, #lines do
      add(lines[i])
    end
  end
  if #lines == 0 then
    table.insert(virt, { { '   (no output)', 'AInternOutputFold' } })
  end
  local last = M.fence_end(bufnr, line)
  result.mark = api.nvim_buf_set_extmark(bufnr, ns_output, last, 0, { virt_lines = virt })
  result.line = line
  M.results[bufnr][result.blockId] = result
  if M.waiting[bufnr] then
    M.waiting[bufnr][result.blockId] = nil
  end
end

--- A "running" line under the fence that opens on `line`, until its result replaces it.
function M.show_running(bufnr, line, blockId, text)
  M.results[bufnr] = M.results[bufnr] or {}
  local old = M.results[bufnr][blockId]
  if old and not old.running then
    if text then
      return -- the result came in meanwhile: it stays
    end
    if old.mark then
      pcall(api.nvim_buf_del_extmark, bufnr, ns_output, old.mark) -- the previous run's output
    end
    old = nil
  end
  local waiting = (M.waiting[bufnr] or {})[blockId]
  local head = '╰─ ⏳ running… (:AInternInput answers a prompt, :AInternStop stops it)'
  if waiting then
    local prompt = vim.trim(waiting.prompt or '')
    head = ('╰─ ⌨ waiting for input%s (:AInternInput answers, :AInternStop stops it)'):format(
      prompt ~= '' and (': ' .. prompt) or '')
  end
  local virt = { { { head, 'AInternLensRunning' } } }
  -- while it runs: the last lines it printed (when the server offers aintern.runOutput)
  if text == nil and old and old.running then
    text = old.text -- a redraw (waiting for input or not): keep what it printed
  end
  local lines = output_lines(text)
  local height = math.max(M.config.output.height or 8, 2)
  for i = math.max(#lines - height + 1, 1), #lines do
    table.insert(virt, { { '   ' .. lines[i], 'AInternOutput' } })
  end
  local opts = { virt_lines = virt }
  if old and old.mark then
    opts.id = old.mark
  end
  local ok, mark = pcall(api.nvim_buf_set_extmark, bufnr, ns_output, M.fence_end(bufnr, line), 0, opts)
  if ok then
    M.results[bufnr][blockId] = { blockId = blockId, mark = mark, line = line, running = true, text = text }
  end
end

local function server_has(client, command)
  local provider = client.server_capabilities and client.server_capabilities.executeCommandProvider
  return provider ~= nil and vim.tbl_contains(provider.commands or {}, command)
end

--- Follow a run's output under its fence until it ends (needs aintern.runOutput).
function M.follow(client, bufnr, line, args)
  if not server_has(client, 'aintern.runOutput') then
    return
  end
  local function poll()
    local current = (M.results[bufnr] or {})[args.blockId]
    if not (current and current.running) or not api.nvim_buf_is_valid(bufnr) then
      return -- the result is in
    end
    client:request('workspace/executeCommand', {
      command = 'aintern.runOutput',
      arguments = { { uri = args.uri, blockId = args.blockId } },
    }, function(err, out)
      local still = (M.results[bufnr] or {})[args.blockId]
      if err or not out or not out.running or not (still and still.running) then
        return
      end
      M.show_running(bufnr, line, args.blockId, out.text or '')
      vim.defer_fn(poll, M.config.output.follow_interval or 300)
    end, bufnr)
  end
  vim.defer_fn(poll, M.config.output.follow_interval or 300)
end

--- Hide the output under the fence at the cursor (or all of them).
function M.clear_output(bufnr, all)
  bufnr = bufnr or api.nvim_get_current_buf()
  if all then
    api.nvim_buf_clear_namespace(bufnr, ns_output, 0, -1)
    M.results[bufnr] = {}
    return
  end
  local result = M.result_at(bufnr, api.nvim_win_get_cursor(0)[1] - 1)
  if result and result.mark then
    pcall(api.nvim_buf_del_extmark, bufnr, ns_output, result.mark)
    result.mark = nil
  end
end

--- The last result of the fence under `line`.
function M.result_at(bufnr, line)
  local lenses, start = M.fence_at(bufnr, line)
  local blockId = lenses and lenses[1].command.arguments[1].blockId
  local result = blockId and (M.results[bufnr] or {})[blockId]
  if result and result.running then
    result = nil
  end
  return result, start
end

local function open_view(title, lines)
  local buf = api.nvim_create_buf(false, true)
  api.nvim_buf_set_lines(buf, 0, -1, false, lines)
  vim.bo[buf].modifiable = false
  vim.bo[buf].bufhidden = 'wipe'
  vim.bo[buf].filetype = 'aintern-output'
  local win
  if M.config.output.view == 'split' then
    vim.cmd('botright split')
    win = api.nvim_get_current_win()
    api.nvim_win_set_buf(win, buf)
    api.nvim_win_set_height(win, math.min(math.max(#lines, 3), math.floor(vim.o.lines / 2)))
  else
    local width = math.min(vim.o.columns - 4, math.max(40, vim.fn.max(vim.tbl_map(vim.fn.strdisplaywidth, lines)) + 2))
    local height = math.min(vim.o.lines - 4, math.max(#lines, 1))
    win = api.nvim_open_win(buf, true, {
      relative = 'editor',
      row = math.floor((vim.o.lines - height) / 2) - 1,
      col = math.floor((vim.o.columns - width) / 2),
      width = width,
      height = height,
      border = 'rounded',
      title = ' ' .. title .. ' ',
      title_pos = 'center',
    })
  end
  for _, key in ipairs({ 'q', '<Esc>' }) do
    vim.keymap.set('n', key, '<cmd>close<cr>', { buffer = buf, nowait = true, desc = 'Close the output' })
  end
  return buf, win
end

--- The whole output of a run (its capture), in a float or a split.
function M.open_output(result, on_open)
  local head = summary(result)
  local function show(text, context)
    local lines = output_lines(text)
    local title = ('%s  %s'):format(vim.split(result.command or '', '\n')[1]:sub(1, 50), head)
    local buf, win = open_view(title, #lines > 0 and lines or { '(no output)' })
    vim.b[buf].aintern_context = context
    if on_open then
      on_open(buf, win)
    end
  end
  local client = any_client()
  if client and not null(result.captureId) then
    client:request('workspace/executeCommand', {
      command = 'aintern.capture',
      arguments = { { captureId = result.captureId } },
    }, function(err, capture)
      if err then
        show(result.output) -- the capture was pruned: the (truncated) result is what is left
      else
        show(capture.output, capture.contextString)
      end
    end)
  else
    show(result.output)
  end
end

--- Open the output of the fence under the cursor (or the last run).
function M.output_here()
  local bufnr = api.nvim_get_current_buf()
  local result = M.result_at(bufnr, api.nvim_win_get_cursor(0)[1] - 1) or M.last_result
  if not result then
    notify('no run to show yet: ▶ Run a fence first', levels.WARN)
    return
  end
  M.open_output(result)
end

-- Terminals --------------------------------------------------------------------------------

local function term_alive(id)
  local term = M.terminals[id]
  return term and api.nvim_buf_is_valid(term.buf) and not term.exited
end

--- The text size (cols, rows) of window `win`.
local function text_size(win)
  local info = vim.fn.getwininfo(win)[1]
  return math.max(api.nvim_win_get_width(win) - (info and info.textoff or 0), 2), math.max(api.nvim_win_get_height(win), 1)
end

--- Tell the server the size of the window showing terminal `id` (when it changed).
function M.resize_terminal(id)
  local term = M.terminals[id]
  if not term_alive(id) then
    return
  end
  local win = vim.fn.bufwinid(term.buf)
  if win == -1 then
    return
  end
  local cols, rows = text_size(win)
  if term.size and term.size[1] == cols and term.size[2] == rows then
    return
  end
  term.size = { cols, rows }
  local client = vim.lsp.get_client_by_id(term.client_id)
  if client then
    client:request('workspace/executeCommand', {
      command = 'aintern.terminal.resize',
      arguments = { { terminalId = id, cols = cols, rows = rows } },
    }, function(err)
      if err then
        term.size = nil
      end
    end)
  end
end

function M.resize_all()
  for id in pairs(M.terminals) do
    M.resize_terminal(id)
  end
end

--- The terminal buffer that mirrors server session `id` (created on first use).
function M.terminal_buffer(id, client)
  local term = M.terminals[id]
  if term and api.nvim_buf_is_valid(term.buf) then
    return term
  end
  local buf = api.nvim_create_buf(true, false)
  local client_id = client and client.id
  local chan = api.nvim_open_term(buf, {
    on_input = function(_, _, _, data)
      local c = client_id and vim.lsp.get_client_by_id(client_id)
      local t = M.terminals[id]
      if c and t and not t.exited then
        c:request('workspace/executeCommand', {
          command = 'aintern.terminal.input',
          arguments = { { terminalId = id, data = data } },
        }, function() end)
      end
    end,
  })
  term = { buf = buf, chan = chan, client_id = client_id, title = id }
  M.terminals[id] = term
  -- wiping the buffer ends the shell too (no orphan sessions on the server)
  api.nvim_create_autocmd('BufWipeout', {
    buffer = buf,
    once = true,
    callback = function()
      M.terminals[id] = nil
      M.closed[id] = true
      local c = client_id and vim.lsp.get_client_by_id(client_id)
      if c and not term.exited then
        c:request('workspace/executeCommand', {
          command = 'aintern.terminal.close',
          arguments = { { terminalId = id } },
        }, function() end)
      end
    end,
  })
  pcall(api.nvim_buf_set_name, buf, 'aintern://' .. id)
  vim.b[buf].aintern_terminal = id
  -- keep the server's descriptive title (e.g. "aintern: npm test")
  if client then
    client:request('workspace/executeCommand', { command = 'aintern.terminal.list', arguments = { {} } },
      function(err, result)
        if err or not result then
          return
        end
        for _, t in ipairs(result.terminals or {}) do
          if t.terminalId == id and t.title and api.nvim_buf_is_valid(buf) then
            term.title = t.title
            vim.b[buf].term_title = t.title
            pcall(api.nvim_buf_set_name, buf, ('aintern://%s/%s'):format(id, t.title))
          end
        end
      end)
  end
  return term
end

--- Open the window a new terminal will show in (before the terminal exists, so that
--- the shell starts at that window's size); the cursor stays where it was.
function M.open_terminal_window()
  local from = api.nvim_get_current_win()
  vim.cmd(M.config.terminal_split)
  local win = api.nvim_get_current_win()
  local placeholder = api.nvim_create_buf(false, true)
  api.nvim_buf_set_lines(placeholder, 0, -1, false, { 'starting the terminal…' })
  vim.bo[placeholder].bufhidden = 'wipe'
  api.nvim_win_set_buf(win, placeholder)
  api.nvim_set_current_win(from)
  return win
end

--- Show terminal `id` in a window (the one that shows it, `win`, or a new split),
--- sized to that window.
function M.show_terminal(id, client, win)
  local term = M.terminal_buffer(id, client)
  if vim.fn.bufwinid(term.buf) == -1 then
    if win and api.nvim_win_is_valid(win) then
      api.nvim_win_set_buf(win, term.buf)
    else
      local from = api.nvim_get_current_win()
      vim.cmd(M.config.terminal_split)
      api.nvim_win_set_buf(0, term.buf)
      api.nvim_set_current_win(from)
    end
  elseif win and api.nvim_win_is_valid(win) and api.nvim_win_get_buf(win) ~= term.buf then
    api.nvim_win_close(win, true) -- the server reused a terminal that is shown already
  end
  M.resize_terminal(id)
  return term
end

-- Server → client notifications -------------------------------------------------------

--- The loaded buffer whose URI is `uri` (scratch chat buffers included), or nil.
local function buf_of_uri(uri)
  for _, b in ipairs(api.nvim_list_bufs()) do
    if api.nvim_buf_is_loaded(b) and vim.uri_from_bufnr(b) == uri then
      return b
    end
  end
end

M.handlers = {
  ['aintern/terminalOutput'] = function(_, params, ctx)
    if M.closed[params.terminalId] then
      return
    end
    local client = vim.lsp.get_client_by_id(ctx.client_id)
    local term = M.terminal_buffer(params.terminalId, client)
    pcall(api.nvim_chan_send, term.chan, params.data)
  end,
  ['aintern/terminalExit'] = function(_, params)
    local term = M.terminals[params.terminalId]
    if term then
      term.exited = true
      local code = null(params.exitCode) and '?' or tostring(params.exitCode)
      pcall(api.nvim_chan_send, term.chan, '\r\n[process exited ' .. code .. ']\r\n')
    end
  end,
  ['aintern/terminalCommand'] = function(_, params)
    -- a command in a terminal finished (after its output, before the next prompt): its
    -- exit code as a line in the terminal and on the lens of the fence sent there
    local term = M.terminals[params.terminalId]
    if null(params.exitCode) then
      return
    end
    if term then
      local color = params.exitCode == 0 and '32' or '31'
      pcall(api.nvim_chan_send, term.chan, ('\27[%sm[exit %d]\27[0m\r\n'):format(color, params.exitCode))
    end
    local sent = M.sent[params.terminalId]
    if sent and api.nvim_buf_is_valid(sent.bufnr) then
      M.sent_exit[sent.bufnr] = M.sent_exit[sent.bufnr] or {}
      M.sent_exit[sent.bufnr][sent.blockId] = params.exitCode
      M.display_lenses(sent.bufnr, vim.lsp.codelens.get(sent.bufnr))
    end
  end,
  ['aintern/blockStatus'] = function(_, params)
    vim.schedule(function()
      local bufnr = buf_of_uri(params.uri) -- (never a new buffer for a URI not shown)
      if bufnr then
        M.refresh(bufnr)
      end
    end)
  end,
  ['aintern/waitingForInput'] = function(_, params, ctx)
    vim.schedule(function()
      M.on_waiting(params, ctx.client_id)
    end)
  end,
}

--- Ask for the answer to a run's prompt and type it into the run (aintern.run.input).
--- `w`: { uri, blockId, prompt?, secret?, client_id }. Dismissing the question sends
--- nothing: the run keeps waiting (■ Stop ends it).
function M.answer(bufnr, w, on_sent)
  local client = vim.lsp.get_client_by_id(w.client_id) or client_for(bufnr)
  if not client then
    notify('the server is not attached to this buffer', levels.ERROR)
    return
  end
  local function send(text)
    if text == nil then
      notify('nothing sent: the command still waits (:AInternInput answers, :AInternStop stops it)', levels.WARN)
      return
    end
    exec(client, 'aintern.run.input', { uri = w.uri, blockId = w.blockId, text = text }, bufnr, on_sent)
  end
  local prompt = vim.trim(w.prompt or '')
  local question = prompt ~= '' and ('aintern: answer "%s": '):format(prompt)
    or 'aintern: answer the running command: '
  if w.secret then
    -- typed hidden; an empty answer or <Esc> sends nothing (never an empty password by accident)
    input_secret({ prompt = question }, send)
  else
    vim.ui.input({ prompt = question }, send)
  end
end

--- `aintern/waitingForInput {uri, blockId, waiting, prompt?, secret?}`: show it under the
--- fence and on the lens; a run started here, in the current buffer, is asked at once.
function M.on_waiting(params, client_id)
  local bufnr = buf_of_uri(params.uri)
  if not bufnr then
    return
  end
  M.waiting[bufnr] = M.waiting[bufnr] or {}
  local entry = (M.results[bufnr] or {})[params.blockId]
  local w
  if params.waiting then
    w = {
      uri = params.uri,
      blockId = params.blockId,
      prompt = null(params.prompt) and '' or params.prompt,
      secret = params.secret == true,
      client_id = client_id,
    }
    M.waiting[bufnr][params.blockId] = w
  else
    M.waiting[bufnr][params.blockId] = nil
  end
  if entry and entry.running then
    M.show_running(bufnr, entry.line, params.blockId)
  end
  M.refresh(bufnr) -- Neovim has no workspace/codeLens/refresh: the lens says ⌨ now
  if not w then
    return
  end
  local here = entry and entry.running and api.nvim_get_current_buf() == bufnr
  if M.config.input.auto and here then
    M.answer(bufnr, w)
  else
    local prompt = vim.trim(w.prompt)
    notify(('⌨ waiting for input%s: :AInternInput answers'):format(prompt ~= '' and (' (' .. prompt .. ')') or ''),
      levels.WARN)
  end
end

-- Values of placeholders (server → client request aintern/promptValues) -------------------

M.remembered = {} -- placeholder name -> the last value typed for it (this session, never secrets)

--- Whether the value of placeholder `name` is a secret (config values.secret).
function M.is_secret(name)
  local lower = tostring(name):lower()
  for _, pattern in ipairs(M.config.values.secret or {}) do
    if lower:find(pattern) then
      return true
    end
  end
  return false
end

local function value_prompt(placeholder, i, n, secret)
  local what = placeholder.text ~= nil and placeholder.text ~= '' and placeholder.text or placeholder.name
  local note = placeholder.kind == 'variable' and ' (not set)' or ''
  local count = n > 1 and ('(%d/%d) '):format(i, n) or ''
  local hidden = secret and ', hidden' or ''
  return ('aintern: %svalue for %s%s%s: '):format(count, what, note, hidden)
end

--- Ask the user for the value of every placeholder of `params` ({uri, blockId, command,
--- placeholders: [{name, kind, text}]}), one after the other with vim.ui.input (any UI
--- that replaces it works: the callbacks are chained), then call `on_done` once with
--- `{ values = [{name, value, secret?}] }`, or with nil when one question was cancelled.
function M.ask_values(params, on_done)
  local placeholders = {}
  for _, p in ipairs(type(params) == 'table' and type(params.placeholders) == 'table' and params.placeholders or {}) do
    if type(p) == 'table' and type(p.name) == 'string' then
      table.insert(placeholders, { name = p.name, kind = p.kind, text = type(p.text) == 'string' and p.text or nil })
    end
  end
  local values = {}
  local finished = false
  local function finish(answer)
    if not finished then -- once, whatever a UI does with its callback
      finished = true
      on_done(answer)
    end
  end
  local ask
  local function ask_safely(i)
    local ok, err = pcall(ask, i)
    if not ok then
      notify('could not ask for the values: ' .. tostring(err), levels.ERROR)
      finish(nil)
    end
  end
  function ask(i)
    if i > #placeholders then
      finish({ values = values })
      return
    end
    local p = placeholders[i]
    local secret = M.is_secret(p.name)
    local opts = { prompt = value_prompt(p, i, #placeholders, secret) }
    if not secret and M.config.values.remember then
      opts.default = M.remembered[p.name]
    end
    local function answered(value)
      if value == nil then
        finish(nil) -- cancelled: the server does not run the block
        return
      end
      value = tostring(value)
      table.insert(values, { name = p.name, value = value, secret = secret or nil })
      if not secret then
        M.remembered[p.name] = value
      end
      -- the next question after this one's UI has closed (floats, dressing, snacks)
      vim.schedule(function()
        ask_safely(i + 1)
      end)
    end
    if secret and M.config.values.hide_secret then
      input_secret(opts, answered)
    else
      vim.ui.input(opts, answered)
    end
  end
  ask_safely(1)
end

--- `aintern/promptValues`: runs in the coroutine Neovim's RPC layer gives each server
--- request, so the answer can wait for asynchronous inputs.
M.handlers['aintern/promptValues'] = function(_, params)
  local answer, done = nil, false
  local co, is_main = coroutine.running()
  if co and not is_main then
    M.ask_values(params, function(values)
      -- resume after the yield below, also when vim.ui.input answered synchronously
      vim.schedule(function()
        coroutine.resume(co, values)
      end)
    end)
    answer = coroutine.yield()
  else
    M.ask_values(params, function(values)
      answer, done = values, true
    end)
    vim.wait(3600 * 1000, function()
      return done
    end, 50)
  end
  return answer == nil and vim.NIL or answer
end

-- Client-side commands: the lens still goes to the server, the result lands in the editor.

local function ask(prompt, yes, on_yes)
  vim.ui.select({ yes, 'Cancel' }, { prompt = 'aintern: ' .. prompt }, function(choice)
    if choice == yes then
      on_yes()
    end
  end)
end

local function report(result)
  local head, ok = summary(result)
  local level = ok and levels.INFO or levels.WARN
  local first = vim.split(result.command or '', '\n')[1]
  if null(result.exitCode) and type(result.output) == 'string' and result.output:find('^not run') then
    head = result.output -- the server's reason (e.g. cancelled at the value prompt)
  end
  notify(('%s — %s'):format(head, first ~= '' and first or result.blockId or 'run'), level)
end

function M.run_lens(command, ctx)
  local client = assert(vim.lsp.get_client_by_id(ctx.client_id))
  local bufnr = ctx.bufnr or api.nvim_get_current_buf()
  local args = vim.deepcopy(command.arguments[1])
  local line = M.line_of(bufnr, args.blockId)
  local function go()
    if M.sent_exit[bufnr] then
      M.sent_exit[bufnr][args.blockId] = nil
    end
    if M.waiting[bufnr] then
      M.waiting[bufnr][args.blockId] = nil
    end
    if line then
      M.show_running(bufnr, line, args.blockId)
      M.follow(client, bufnr, line, args)
    end
    exec(client, 'aintern.run', args, bufnr, function(result)
      M.last_result = result
      M.last_action = 'run'
      if line then
        M.show_result(bufnr, line, result)
      end
      report(result)
    end, function()
      local placeholder = (M.results[bufnr] or {})[args.blockId]
      if placeholder and placeholder.running then
        pcall(api.nvim_buf_del_extmark, bufnr, ns_output, placeholder.mark)
        M.results[bufnr][args.blockId] = nil
      end
    end)
    -- the lens says "running"; Neovim has no server-pushed refresh
    vim.defer_fn(function()
      M.refresh(bufnr)
    end, 50)
  end
  if command.title:find('asks first', 1, true) then
    ask(command.title, 'Run anyway', function()
      args.confirmed = true
      go()
    end)
  else
    go()
  end
end

--- The first line of the fence of `blockId` in `bufnr` (from its lenses).
function M.line_of(bufnr, blockId)
  for _, lens in ipairs(vim.lsp.codelens.get(bufnr)) do
    if lens.command and lens.command.arguments and lens.command.arguments[1].blockId == blockId then
      return lens.range.start.line
    end
    -- an unresolved lens (a huge document): `data` is "<blockId>#<index>"
    if not lens.command and type(lens.data) == 'string' and lens.data:match('^(.*)#%d+$') == blockId then
      return lens.range.start.line
    end
  end
end

function M.send_lens(command, ctx)
  local client = assert(vim.lsp.get_client_by_id(ctx.client_id))
  local bufnr = ctx.bufnr or api.nvim_get_current_buf()
  local args = vim.deepcopy(command.arguments[1])
  local reuse = M.doc_terminal[args.uri]
  if args.terminalId == nil and reuse and term_alive(reuse) then
    args.terminalId = reuse
  end
  local function go()
    local win
    if args.terminalId == nil then
      win = M.open_terminal_window()
      args.cols, args.rows = text_size(win)
    end
    local function drop_window()
      if win and api.nvim_win_is_valid(win) and not vim.b[api.nvim_win_get_buf(win)].aintern_terminal then
        api.nvim_win_close(win, true)
      end
    end
    exec(client, 'aintern.sendToTerminal', args, bufnr, function(result)
      if null(result.terminalId) then
        drop_window()
        notify('not sent', levels.WARN) -- declined at the server's own prompt
        return
      end
      M.doc_terminal[args.uri] = result.terminalId
      M.sent[result.terminalId] = { bufnr = bufnr, blockId = args.blockId }
      if M.sent_exit[bufnr] then
        M.sent_exit[bufnr][args.blockId] = nil
      end
      M.last_action = 'send'
      M.show_terminal(result.terminalId, client, win)
      drop_window()
    end, drop_window)
  end
  local line = M.line_of(bufnr, args.blockId)
  if line and asks_first(bufnr, line) then
    local title = find(lenses_by_line(bufnr)[line], 'aintern.run').command.title
    ask(title:gsub('^▶ Run', '⇥ Send'), 'Send anyway', function()
      args.confirmed = true
      go()
    end)
  else
    go()
  end
end

function M.copy_lens(command, ctx)
  local client = assert(vim.lsp.get_client_by_id(ctx.client_id))
  exec(client, 'aintern.copy', command.arguments[1], ctx.bufnr, function(result)
    set_register(result.text)
    notify(('command copied to register %s'):format(M.config.register))
  end)
end

function M.state_lens(command, ctx)
  local bufnr = ctx.bufnr or api.nvim_get_current_buf()
  local args = command.arguments[1]
  local result = (M.results[bufnr] or {})[args.blockId]
  local first = vim.fn.strcharpart(command.title, 0, 1)
  if result and (first == '✓' or first == '✗' or first == '⏱' or first == '⊘') then
    M.open_output(result)
    return
  end
  local client = assert(vim.lsp.get_client_by_id(ctx.client_id))
  if first == '✓' or first == '✗' or first == '⏱' or first == '⊘' then
    -- a run this Neovim did not see (another session, before a restart): its history
    exec(client, 'aintern.history', { uri = args.uri, limit = 200 }, bufnr, function(history)
      for _, run in ipairs(history and history.runs or {}) do
        if run.blockId == args.blockId then
          M.open_output({
            blockId = run.blockId,
            command = run.command,
            output = run.output,
            exitCode = run.exitCode,
            durationMs = run.durationMs,
            cancelled = run.status == 'cancelled' or nil,
          })
          return
        end
      end
      notify('no recorded output for this fence', levels.WARN)
    end)
    return
  end
  exec(client, 'aintern.showRisk', args, bufnr) -- the server shows the findings
end

function M.cancel_lens(command, ctx)
  local client = assert(vim.lsp.get_client_by_id(ctx.client_id))
  exec(client, 'aintern.cancel', command.arguments[1], ctx.bufnr, function(result)
    if result and result.cancelled then
      notify('stopped', levels.WARN)
    else
      notify('nothing was running there', levels.INFO)
    end
  end)
end

--- The `✎ Answer` lens of a run waiting for input: ask, then send the answer.
function M.answer_lens(command, ctx)
  local bufnr = ctx.bufnr or api.nvim_get_current_buf()
  local args = command.arguments[1]
  local client = assert(vim.lsp.get_client_by_id(ctx.client_id))
  if type(args.text) == 'string' then
    exec(client, 'aintern.run.input', args, bufnr)
    return
  end
  local known = (M.waiting[bufnr] or {})[args.blockId] or {}
  M.answer(bufnr, {
    uri = args.uri,
    blockId = args.blockId,
    prompt = null(args.prompt) and known.prompt or args.prompt,
    secret = args.secret == true or known.secret == true,
    client_id = client.id,
  })
end

--- A lens run some other way (e.g. `vim.lsp.codelens.run()` after Neovim's own refresh)
--- gets its document's URI here.
local function buffer_uri(handler)
  return function(command, ctx)
    local bufnr = ctx.bufnr or api.nvim_get_current_buf()
    if api.nvim_buf_is_valid(bufnr) then
      M.with_uri({ { command = command } }, vim.uri_from_bufnr(bufnr))
    end
    return handler(command, ctx)
  end
end

M.commands = {
  ['aintern.run.input'] = buffer_uri(M.answer_lens),
  ['aintern.run'] = buffer_uri(M.run_lens),
  ['aintern.sendToTerminal'] = buffer_uri(M.send_lens),
  ['aintern.copy'] = buffer_uri(M.copy_lens),
  ['aintern.showRisk'] = buffer_uri(M.state_lens),
  ['aintern.cancel'] = buffer_uri(M.cancel_lens),
}

-- Actions on the fence under the cursor ------------------------------------------------

local action_commands = {
  run = 'aintern.run',
  stop = 'aintern.cancel',
  send = 'aintern.sendToTerminal',
  copy = 'aintern.copy',
}

--- Run / stop / send / copy the fence under the cursor, as its lens would.
function M.action(name)
  local bufnr = api.nvim_get_current_buf()
  local client = client_for(bufnr)
  if not client then
    notify('the server is not attached to this buffer', levels.ERROR)
    return
  end
  local lenses = M.fence_at(bufnr, api.nvim_win_get_cursor(0)[1] - 1)
  if not lenses then
    notify('no command fence under the cursor', levels.WARN)
    return
  end
  local command = action_commands[name]
  local lens = find(lenses, command)
  if not lens then
    if name == 'stop' then
      lens = { command = { title = 'stop', command = command, arguments = lenses[1].command.arguments } }
    elseif name == 'run' and find(lenses, 'aintern.cancel') then
      notify('this fence is already running', levels.WARN)
      return
    else
      notify(('this fence has no %s: %s'):format(name, lenses[1].command.title), levels.WARN)
      return
    end
  end
  M.commands[command](lens.command, { client_id = client.id, bufnr = bufnr })
end

--- Answer a prompt of the running fence under the cursor (or the buffer's only running
--- fence): `text`, or what vim.ui.input asks for.
function M.input(text)
  local bufnr = api.nvim_get_current_buf()
  local client = client_for(bufnr)
  if not client then
    notify('the server is not attached to this buffer', levels.ERROR)
    return
  end
  local lenses = M.fence_at(bufnr, api.nvim_win_get_cursor(0)[1] - 1)
  local lens = find(lenses, 'aintern.cancel')
  if not lens then
    local running = {}
    for _, group in pairs(lenses_by_line(bufnr)) do
      local stop = find(group, 'aintern.cancel')
      if stop then
        table.insert(running, stop)
      end
    end
    if #running ~= 1 then
      notify(#running == 0 and 'nothing is running in this buffer'
        or 'several fences are running: put the cursor in the one to answer', levels.WARN)
      return
    end
    lens = running[1]
  end
  local args = lens.command.arguments[1]
  if text ~= nil then
    exec(client, 'aintern.run.input', { uri = args.uri, blockId = args.blockId, text = text }, bufnr)
    return
  end
  -- what the server said the run waits for (its prompt, whether it is a password)
  local w = (M.waiting[bufnr] or {})[args.blockId] or {}
  local answer = find(lenses_by_line(bufnr)[lens.range.start.line], 'aintern.run.input')
  local a = answer and answer.command.arguments[1] or {}
  M.answer(bufnr, {
    uri = args.uri,
    blockId = args.blockId,
    prompt = w.prompt or (not null(a.prompt) and a.prompt) or nil,
    secret = w.secret or a.secret == true,
    client_id = client.id,
  })
end

--- Run every fence of the buffer, in order; the output of each lands under it.
function M.run_all(opts)
  opts = opts or {}
  local bufnr = api.nvim_get_current_buf()
  local client = client_for(bufnr)
  if not client then
    notify('the server is not attached to this buffer', levels.ERROR)
    return
  end
  local dangerous = 0
  for line in pairs(lenses_by_line(bufnr)) do
    if asks_first(bufnr, line) then
      dangerous = dangerous + 1
    end
  end
  local function go(confirmed)
    local args = { uri = vim.uri_from_bufnr(bufnr), stopOnFailure = opts.stop_on_failure, confirmed = confirmed }
    exec(client, 'aintern.runAll', args, bufnr, function(results)
      local ran, failed, skipped, declined = 0, 0, 0, 0
      for _, result in ipairs(results or {}) do
        local line = M.line_of(bufnr, result.blockId)
        if null(result.exitCode) and not result.timedOut and not result.cancelled then
          skipped = skipped + 1 -- blocked: never runs
        elseif null(result.exitCode) and type(result.output) == 'string' and result.output:find('^not run') then
          declined = declined + 1 -- the user said no (a value prompt, a confirmation)
          if line then
            M.show_result(bufnr, line, result)
          end
        else
          ran = ran + 1
          if result.exitCode ~= 0 then
            failed = failed + 1
          end
          if line then
            M.show_result(bufnr, line, result)
          end
          M.last_result = result
          M.last_action = 'run'
        end
      end
      local msg = ('ran %d fence(s), %d failed'):format(ran, failed)
      if skipped > 0 then
        msg = msg .. (', %d blocked (not run)'):format(skipped)
      end
      if declined > 0 then
        msg = msg .. (', %d cancelled (not run)'):format(declined)
      end
      notify(msg, failed == 0 and levels.INFO or levels.WARN)
    end)
  end
  if dangerous > 0 and not opts.confirmed then
    ask(('run all: %d fence(s) are dangerous'):format(dangerous), 'Run all, dangerous ones too', function()
      go(true)
    end)
  else
    go(opts.confirmed or nil)
  end
end

-- Captures for AI ------------------------------------------------------------------------

--- What copy-for-AI copies: the terminal in the current window, else the run of the fence
--- under the cursor, else the last run (or the last terminal after a ⇥ Send).
function M.capture_args(mode, terminal_id)
  if terminal_id then
    return { mode = mode or 'lastCommand', terminalId = terminal_id }
  end
  local here = vim.b.aintern_terminal
  if here then
    return { mode = mode or 'lastCommand', terminalId = here }
  end
  if mode == nil or mode == 'lastCommand' then
    local bufnr = api.nvim_get_current_buf()
    local result = M.result_at(bufnr, api.nvim_win_get_cursor(0)[1] - 1)
    if not result and M.last_action ~= 'send' then
      result = M.last_result
    end
    if result and not null(result.captureId) then
      return { captureId = result.captureId }
    end
  end
  return { mode = mode or 'lastCommand' }
end

--- :AInternCapture [mode] [terminalId]: the capture as AI context, in the register.
function M.capture(mode, terminal_id, on_done)
  local client = any_client()
  if not client then
    notify('the server is not running', levels.ERROR)
    return
  end
  client:request('workspace/executeCommand', {
    command = 'aintern.capture',
    arguments = { M.capture_args(mode, terminal_id) },
  }, function(err, result)
    if err then
      notify(err.message, levels.ERROR)
      return
    end
    set_register(result.contextString)
    M.last_capture = result
    local redacted = (result.redactionCount or 0) > 0 and (', %d secret(s) redacted'):format(result.redactionCount) or ''
    notify(('%d characters of context copied%s'):format(#result.contextString, redacted))
    if on_done then
      on_done(result)
    end
  end)
end

--- The capture of the last run (or terminal command) as AI context, synchronously.
function M.context_string(timeout_ms)
  local client = any_client()
  if not client then
    return nil, 'the aintern server is not running'
  end
  local args
  if M.last_result and M.last_action ~= 'send' and not null(M.last_result.captureId) then
    args = { captureId = M.last_result.captureId }
  else
    args = { mode = 'lastCommand' }
  end
  local response = client:request_sync('workspace/executeCommand', {
    command = 'aintern.capture',
    arguments = { args },
  }, timeout_ms or 5000)
  if not response then
    return nil, 'the aintern server did not answer'
  elseif response.err then
    return nil, response.err.message
  end
  return response.result.contextString
end

-- Attaching -------------------------------------------------------------------------------

--- What this client announces beyond Neovim's defaults (merged over them): it answers
--- `aintern/promptValues` (the values of a fence's placeholders, asked before a run).
M.capabilities = { experimental = { aintern = { promptValues = true } } }

--- The configuration `lsp/aintern_ls.lua` returns (what vim.lsp.enable starts).
function M.lsp_config()
  local c = M.config
  -- an empty Lua table would go out as a JSON array
  local settings = next(c.settings or {}) and c.settings or vim.empty_dict()
  return {
    cmd = c.cmd,
    filetypes = c.filetypes,
    root_markers = c.root_markers,
    capabilities = vim.deepcopy(M.capabilities),
    init_options = { aintern = settings },
    settings = { aintern = settings },
    handlers = M.handlers,
    commands = M.commands,
  }
end

--- Attach to a chat buffer that is not a file (`buftype=nofile`): vim.lsp.enable skips
--- those, so start (or reuse) the client for it here.
function M.attach_scratch(bufnr)
  if not vim.lsp.is_enabled('aintern_ls') or vim.bo[bufnr].buftype == '' then
    return
  end
  if vim.bo[bufnr].buftype ~= 'nofile' and vim.bo[bufnr].buftype ~= 'acwrite' then
    return -- terminals, help, quickfix, prompts are never chats
  end
  local config = vim.lsp.config.aintern_ls
  local ft = vim.bo[bufnr].filetype
  if not config or not vim.tbl_contains(config.filetypes or {}, ft) or not vim.tbl_contains(M.config.chat_filetypes, ft) then
    return
  end
  if client_for(bufnr) then
    return
  end
  config = vim.deepcopy(config)
  if type(config.root_dir) ~= 'string' then
    local cwd = vim.fn.getcwd()
    config.root_dir = vim.fs.root(cwd, config.root_markers or { '.git' }) or cwd
  end
  vim.lsp.start(config, { bufnr = bufnr, reuse_client = function(client, conf)
    return client.name == conf.name and not client:is_stopped()
  end })
end

function M.on_attach(bufnr)
  inflight[bufnr], again[bufnr] = nil, nil -- a new client: nothing of the old one is in flight
  local group = api.nvim_create_augroup('aintern_buf_' .. bufnr, { clear = true })
  api.nvim_create_autocmd({ 'BufEnter', 'InsertLeave', 'TextChanged' }, {
    group = group,
    buffer = bufnr,
    callback = function()
      M.refresh(bufnr)
    end,
  })
  api.nvim_create_autocmd('TextChangedI', {
    group = group,
    buffer = bufnr,
    callback = function()
      M.refresh_later(bufnr)
    end,
  })
  -- lenses scrolled into view that came unresolved (a huge document)
  api.nvim_create_autocmd('WinScrolled', {
    group = group,
    callback = function()
      if api.nvim_get_current_buf() == bufnr then
        M.resolve_visible(bufnr, client_for(bufnr))
      end
    end,
  })
  -- the built-in lenses of this client are drawn by us (with state highlights)
  M.refresh(bufnr)
end

--- Optional: set options and enable the server. `vim.lsp.enable('aintern_ls')` alone
--- works too; options given here for cmd/filetypes/settings go to vim.lsp.config, and
--- only those, so what you set there yourself stays.
function M.setup(opts)
  opts = opts or {}
  M.config = vim.tbl_deep_extend('force', M.config, opts)
  -- the capability and its handlers go in even when lsp/aintern_ls.lua is shadowed on the
  -- runtimepath (vim.lsp.config merges them: what you set there yourself stays)
  local current = vim.lsp.config.aintern_ls or {}
  local lsp = {
    capabilities = vim.deepcopy(M.capabilities),
    handlers = vim.tbl_extend('force', M.handlers, current.handlers or {}),
    commands = vim.tbl_extend('force', M.commands, current.commands or {}),
  }
  for _, key in ipairs({ 'cmd', 'filetypes', 'root_markers' }) do
    if opts[key] ~= nil then
      lsp[key] = opts[key]
    end
  end
  if opts.settings ~= nil then
    lsp.init_options = { aintern = opts.settings }
    lsp.settings = { aintern = opts.settings }
  end
  vim.lsp.config('aintern_ls', lsp)
  vim.lsp.enable('aintern_ls')
end

return M
