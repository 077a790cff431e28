-- End-to-end check of the Neovim client against the real server, in a headless Neovim.
-- Usage: nvim --headless -u NONE -i NONE -l tests/headless.lua PLUGIN_DIR TMPDIR PYTHON
local plugin_dir, tmp, python = arg[1], arg[2], arg[3]
package.path = plugin_dir .. '/tests/?.lua;' .. package.path
local t = require('testlib')
local check, wait = t.check, t.wait
t.load_plugin(plugin_dir, tmp)

local doc = tmp .. '/runbook.md'
t.write(doc, {
  '# Runbook', -- 0
  '', -- 1
  'Greet:', -- 2
  '', -- 3
  '```bash', -- 4
  'echo "héllo from nvim"', -- 5
  '```', -- 6
  '', -- 7
  '```sh', -- 8
  'echo "café ☕" && rm -rf /', -- 9
  '```', -- 10
  '', -- 11
  'Many lines:', -- 12
  '', -- 13
  '```bash', -- 14
  'seq 1 30', -- 15
  '```', -- 16
  '', -- 17
  '```bash', -- 18
  'rm -f ./nothing-here.txt', -- 19
  '```', -- 20
  '', -- 21
  '```bash', -- 22
  'echo to stderr >&2; false', -- 23
  '```', -- 24
  '', -- 25
  '```bash', -- 26
  'sleep 30', -- 27
  '```', -- 28
  '', -- 29
  '```bash', -- 30
  'read -p "name? " n; echo "hello $n"', -- 31
  '```', -- 32
  '',
})

-- The user's own vim.lsp.config wins over lsp/aintern_ls.lua and over setup().
vim.lsp.config('aintern_ls', {
  cmd = { python, '-m', 'aintern_ls', '--stdio' },
  settings = { aintern = { historyPath = tmp .. '/history.db' } },
  init_options = { aintern = { historyPath = tmp .. '/history.db' } },
})
local aintern = require('aintern')
aintern.setup({ output = { height = 4 } })
check(vim.lsp.config.aintern_ls.cmd[1] == python, "setup() keeps the cmd set with vim.lsp.config")
check(vim.lsp.config.aintern_ls.handlers['aintern/terminalOutput'] ~= nil, 'lsp/aintern_ls.lua supplies the handlers')
check(vim.lsp.config.aintern_ls.handlers['aintern/promptValues'] ~= nil, 'a handler for the aintern/promptValues request')
-- what the server asks is checked: entries without a name are skipped, a UI that fails
-- answers the request (cancel) instead of leaving the server waiting
local got = 'unset'
aintern.ask_values({ placeholders = { { kind = 'angle' }, 'junk' } }, function(a)
  got = a
end)
check(type(got) == 'table' and #got.values == 0, 'placeholders without a name are skipped')
local ui_input = vim.ui.input
vim.ui.input = function()
  error('a broken input UI')
end
got = 'unset'
aintern.ask_values({ placeholders = { { name = 'x', kind = 'angle', text = '<x>' } } }, function(a)
  got = a
end)
check(got == nil and t.last_notify().msg:find('could not ask', 1, true) ~= nil,
  'a failing input UI cancels the run: ' .. t.last_notify().msg)
vim.ui.input = ui_input
for _, plug in ipairs({ 'run', 'stop', 'send', 'copy', 'capture', 'run-all', 'output' }) do
  check(vim.fn.maparg('<Plug>(aintern-' .. plug .. ')', 'n') ~= '', '<Plug>(aintern-' .. plug .. ') exists')
end

vim.cmd.edit(doc)
local bufnr = vim.api.nvim_get_current_buf()
local client = t.wait_client(bufnr)
check(client.offset_encoding == 'utf-8', 'position encoding negotiated as utf-8')
check(vim.tbl_get(client.capabilities, 'experimental', 'aintern', 'promptValues') == true,
  'the client announces experimental.aintern.promptValues')
check(client.capabilities.textDocument ~= nil, "Neovim's default capabilities are kept")

local function lenses()
  return vim.lsp.codelens.get(bufnr)
end
local function find_lens(prefix, line)
  for _, lens in ipairs(lenses()) do
    if lens.command and lens.command.title:sub(1, #prefix) == prefix and (not line or lens.range.start.line == line) then
      return lens
    end
  end
end
check(wait(20000, function()
  return find_lens('▶ Run', 22) ~= nil
end), 'code lenses arrive')
check(find_lens('▶ Run', 4) ~= nil, 'run lens above the first fence')
check(find_lens('⛔ blocked', 8) ~= nil, 'blocked lens above the dangerous fence')
check(find_lens('▶ Run (dangerous, asks first)', 18) ~= nil, 'dangerous fence asks first')

-- lenses drawn with a highlight group per state
check(t.lens_has_group(bufnr, 8, 'AInternLensBlocked'), 'blocked lens drawn with AInternLensBlocked')
check(t.lens_has_group(bufnr, 18, 'AInternLensDangerous'), 'dangerous lens drawn with AInternLensDangerous')
check(vim.api.nvim_get_hl(0, { name = 'AInternLensBlocked' }).link == 'DiagnosticError', 'AInternLensBlocked links to DiagnosticError')

-- diagnostics on the exact words, in UTF-8 columns
local diag
check(wait(10000, function()
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    if d.severity == vim.diagnostic.severity.ERROR then
      diag = d
      return true
    end
  end
  return false
end), 'blocked command gets an error diagnostic')
if diag then
  local line = vim.api.nvim_buf_get_lines(bufnr, diag.lnum, diag.lnum + 1, false)[1]
  local underlined = line:sub(diag.col + 1, diag.end_col)
  check(diag.lnum == 9, 'diagnostic on the command line')
  check(underlined:find('rm', 1, true) == 1 and underlined:find('/', 1, true) ~= nil,
    'diagnostic underlines exactly the rm words: "' .. underlined .. '"')
end

-- ⎘ Copy (:AInternCopy on a line inside the fence) puts the command in the registers
vim.fn.setreg('"', '')
vim.api.nvim_win_set_cursor(0, { 6, 3 })
vim.cmd('AInternCopy')
check(wait(10000, function()
  return vim.fn.getreg('"') == 'echo "héllo from nvim"'
end), ':AInternCopy inside the fence copies its command')

-- ▶ Run (:AInternRun from inside the fence): output under the fence as virtual lines
vim.cmd('AInternRun')
check(wait(30000, function()
  return aintern.last_result ~= nil
end), 'run finishes')
local result = aintern.last_result or {}
check(result.exitCode == 0, 'run exit code 0')
check(type(result.output) == 'string' and result.output:find('héllo from nvim', 1, true) ~= nil, 'run output has the echoed text')
local under = t.virt_lines(bufnr, 6)
check(under:find('✓ exit 0', 1, true) ~= nil and under:find('héllo from nvim', 1, true) ~= nil,
  'virtual lines under the closing fence show the exit and the output: ' .. under)
check(t.virt_has_group(bufnr, 6, 'AInternOutputOk'), 'ok output header highlighted AInternOutputOk')
check(wait(10000, function()
  return find_lens('✓ exit 0', 4) ~= nil
end), 'lens shows ✓ exit 0 after the run')
check(t.lens_has_group(bufnr, 4, 'AInternLensOk'), 'ok state lens drawn with AInternLensOk')
check(t.last_notify().level == vim.log.levels.INFO and t.last_notify().msg:find('exit 0', 1, true),
  'a good run is an INFO notification: ' .. t.last_notify().msg)

-- long output is folded to the configured height
aintern.commands['aintern.run'](find_lens('▶ Run', 14).command, { client_id = client.id, bufnr = bufnr })
check(wait(30000, function()
  return t.virt_lines(bufnr, 16):find('30', 1, true) ~= nil
end), 'seq output under its fence')
local folded = t.virt_lines(bufnr, 16)
check(folded:find('⋯ 26 more lines ⋯', 1, true) ~= nil and folded:find('   15\n', 1, true) == nil,
  'output beyond the height is folded: ' .. folded)
check(wait(10000, function()
  return find_lens('✓ exit 0', 14) ~= nil
end), 'seq lens shows its exit')

-- the state lens opens the whole output (from the run's capture) in a float
local wins_before = #vim.api.nvim_list_wins()
aintern.commands['aintern.showRisk'](find_lens('✓ exit 0', 14).command, { client_id = client.id, bufnr = bufnr })
local float
check(wait(10000, function()
  for _, win in ipairs(vim.api.nvim_list_wins()) do
    if vim.api.nvim_win_get_config(win).relative ~= '' then
      float = win
      return true
    end
  end
  return false
end), 'the state lens opens a float')
if float then
  local lines = vim.api.nvim_buf_get_lines(vim.api.nvim_win_get_buf(float), 0, -1, false)
  check(#lines == 30 and lines[1] == '1' and lines[15] == '15' and lines[30] == '30', 'the float holds all 30 lines')
  vim.api.nvim_win_close(float, true)
end
check(#vim.api.nvim_list_wins() == wins_before, 'float closed')

-- a run this Neovim did not see (e.g. before a restart): the state lens reads the history
local seen = aintern.results[bufnr]
aintern.results[bufnr] = {}
aintern.commands['aintern.showRisk'](find_lens('✓ exit 0', 14).command, { client_id = client.id, bufnr = bufnr })
float = nil
check(wait(10000, function()
  for _, win in ipairs(vim.api.nvim_list_wins()) do
    if vim.api.nvim_win_get_config(win).relative ~= '' then
      float = win
      return true
    end
  end
  return false
end), 'the state lens of an unseen run opens a float from the history')
if float then
  local lines = vim.api.nvim_buf_get_lines(vim.api.nvim_win_get_buf(float), 0, -1, false)
  check(#lines == 30 and lines[30] == '30', 'the history float holds the output')
  vim.api.nvim_win_close(float, true)
end
aintern.results[bufnr] = seen

-- output.view = 'split': :AInternOutput from inside the fence opens a split
aintern.config.output.view = 'split'
local before_wins = #vim.api.nvim_list_wins()
vim.api.nvim_win_set_cursor(0, { 16, 0 })
vim.cmd('AInternOutput')
local split
check(wait(10000, function()
  for _, win in ipairs(vim.api.nvim_list_wins()) do
    if vim.api.nvim_win_get_config(win).relative == '' and vim.bo[vim.api.nvim_win_get_buf(win)].filetype == 'aintern-output' then
      split = win
      return true
    end
  end
  return false
end), ':AInternOutput opens a split when output.view is split')
if split then
  check(vim.api.nvim_buf_get_lines(vim.api.nvim_win_get_buf(split), 29, 30, false)[1] == '30', 'the split holds the output')
  vim.api.nvim_win_close(split, true)
end
check(#vim.api.nvim_list_wins() == before_wins, 'split closed')
vim.api.nvim_set_current_buf(bufnr)
aintern.config.output.view = 'float'

-- copy for AI right after a Run, with no terminal at all: that run's capture
vim.fn.setreg('"', '')
vim.api.nvim_win_set_cursor(0, { 1, 0 })
vim.cmd('AInternCapture')
check(wait(10000, function()
  local reg = vim.fn.getreg('"')
  return reg:find('seq 1 30', 1, true) ~= nil and reg:find('\n30\n', 1, true) ~= nil
end), ':AInternCapture after a Run copies that run (no terminal needed): ' .. vim.fn.getreg('"'):sub(1, 80))

-- a failing run: WARN notification, error highlight, exit on the lens
aintern.commands['aintern.run'](find_lens('▶ Run', 22).command, { client_id = client.id, bufnr = bufnr })
check(wait(30000, function()
  return t.virt_lines(bufnr, 24):find('✗ exit 1', 1, true) ~= nil
end), 'failed run shows ✗ exit 1 under its fence')
check(t.virt_lines(bufnr, 24):find('to stderr', 1, true) ~= nil, 'stderr is in the output')
check(t.virt_has_group(bufnr, 24, 'AInternOutputError'), 'failed output header highlighted AInternOutputError')
check(t.last_notify().level == vim.log.levels.WARN, 'a failed run is a WARN notification')
check(wait(10000, function()
  return find_lens('✗ exit 1', 22) ~= nil and t.lens_has_group(bufnr, 22, 'AInternLensFailed')
end), 'failed lens drawn with AInternLensFailed')

-- a long run: "running" under the fence, :AInternStop from inside it stops it
aintern.last_result = nil
aintern.commands['aintern.run'](find_lens('▶ Run', 26).command, { client_id = client.id, bufnr = bufnr })
check(t.virt_lines(bufnr, 28):find('⏳ running', 1, true) ~= nil, 'a running line under the fence at once')
check(wait(10000, function()
  return find_lens('⏳ running', 26) ~= nil
end), 'the lens says running')
check(t.lens_has_group(bufnr, 26, 'AInternLensRunning'), 'running lens drawn with AInternLensRunning')
vim.api.nvim_win_set_cursor(0, { 28, 0 })
vim.cmd('AInternStop')
check(wait(15000, function()
  return aintern.last_result ~= nil
end), 'the stopped run answers')
check((aintern.last_result or {}).cancelled == true, 'the run was cancelled')
check(t.virt_lines(bufnr, 28):find('⊘ cancelled', 1, true) ~= nil, 'cancelled under the fence: ' .. t.virt_lines(bufnr, 28))
check(t.last_notify().level == vim.log.levels.WARN, 'a stopped run is not an INFO notification')

-- a run that waits on a prompt is answered from the editor (vim.ui.input)
check(wait(10000, function()
  return find_lens('⊘ cancelled', 26) ~= nil
end), 'the stopped fence says cancelled')
vim.cmd('AInternInput')
check(t.last_notify().msg:find('nothing is running', 1, true) ~= nil and t.last_notify().level == vim.log.levels.WARN,
  ':AInternInput with nothing running says so')
aintern.last_result = nil
aintern.config.input.auto = false -- :AInternInput asks (tests/e2e/test_nvim_prompts.py: at once)
aintern.commands['aintern.run'](find_lens('▶ Run', 30).command, { client_id = client.id, bufnr = bufnr })
check(wait(10000, function()
  return find_lens('⏳ running', 30) ~= nil or find_lens('⌨ waiting for input', 30) ~= nil
end), 'the read -p fence is running')
t.input_answer = 'bob'
vim.api.nvim_win_set_cursor(0, { 32, 0 })
vim.cmd('AInternInput')
check(#t.inputs == 1, 'vim.ui.input asks for the answer: ' .. tostring(t.inputs[1]))
check(wait(15000, function()
  return aintern.last_result ~= nil
end), 'the answered run finishes')
check(((aintern.last_result or {}).output or ''):find('hello bob', 1, true) ~= nil,
  'the answer reached the prompt: ' .. tostring((aintern.last_result or {}).output))
check(t.virt_lines(bufnr, 32):find('hello bob', 1, true) ~= nil, 'the answered output under the fence')
aintern.config.input.auto = true

-- ⇥ Send on a dangerous fence asks first; Cancel sends nothing
t.answer('Cancel')
aintern.commands['aintern.sendToTerminal'](find_lens('⇥ Send', 18).command, { client_id = client.id, bufnr = bufnr })
check(t.last_prompt():find('Send', 1, true) ~= nil and t.last_prompt():find('dangerous', 1, true) ~= nil,
  'dangerous Send asks: ' .. t.last_prompt())
vim.wait(300)
check(next(aintern.terminals) == nil, 'cancelled Send starts no terminal')

-- three Sends, one terminal
t.answer(nil) -- first choice from now on
vim.api.nvim_win_set_cursor(0, { 6, 0 })
local function term_count(text)
  local term = aintern.terminals[next(aintern.terminals) or '']
  local n = 0
  for _, l in ipairs(term and vim.api.nvim_buf_get_lines(term.buf, 0, -1, false) or {}) do
    if vim.trim(l) == text then
      n = n + 1
    end
  end
  return n
end
for i = 1, 3 do
  vim.cmd('AInternSend')
  check(wait(30000, function()
    return term_count('héllo from nvim') >= i
  end, 100), ('send %d: output in the terminal buffer'):format(i))
end
check(vim.tbl_count(aintern.terminals) == 1, 'three Sends, one terminal buffer')
local listed = client:request_sync('workspace/executeCommand',
  { command = 'aintern.terminal.list', arguments = { {} } }, 5000)
check(listed and #listed.result.terminals == 1, 'three Sends, one server terminal')
local id = next(aintern.terminals)
local term = aintern.terminals[id] or {}
local shown = 0
for _, win in ipairs(vim.api.nvim_list_wins()) do
  if vim.api.nvim_win_get_buf(win) == term.buf then
    shown = shown + 1
  end
end
check(shown == 1, 'the terminal is shown in one window')
check(vim.bo[term.buf].buftype == 'terminal', 'the mirror is a terminal buffer')
check(wait(5000, function()
  return vim.api.nvim_buf_get_name(term.buf):find('aintern: ', 1, true) ~= nil
end), "the server's terminal title is kept: " .. vim.api.nvim_buf_get_name(term.buf))

-- the exit code of a sent command: a line in the terminal, and on the fence's lens
local function lens_text(line)
  local out = {}
  for _, m in ipairs(vim.api.nvim_buf_get_extmarks(bufnr, aintern.ns.lens, { line, 0 }, { line, -1 }, { details = true })) do
    for _, chunk in ipairs(m[4].virt_text or {}) do
      table.insert(out, chunk[1])
    end
  end
  return table.concat(out)
end
check(wait(10000, function()
  return term_count('[exit 0]') == 3
end), 'each sent command ends with an [exit 0] line in the terminal')
check(wait(10000, function()
  return lens_text(4):find('⇥ exit 0', 1, true) ~= nil
end), 'the sent fence shows ⇥ exit 0 on its lens: ' .. lens_text(4))
aintern.commands['aintern.sendToTerminal'](find_lens('⇥ Send', 22).command, { client_id = client.id, bufnr = bufnr })
check(wait(20000, function()
  return term_count('[exit 1]') == 1 and lens_text(22):find('⇥ exit 1', 1, true) ~= nil
end), 'a failing sent command: [exit 1] in the terminal and ⇥ exit 1 on its lens')
check(t.lens_has_group(bufnr, 22, 'AInternLensFailed'), 'failed sent exit drawn with AInternLensFailed')
local term_lines = vim.api.nvim_buf_get_lines(term.buf, 0, -1, false)
for i, l in ipairs(term_lines) do
  if vim.trim(l) == '[exit 1]' then
    check(vim.trim(term_lines[i - 1] or '') == 'to stderr', 'the exit line comes right after the output: ' .. (term_lines[i - 1] or ''))
  end
end
check(vim.tbl_count(aintern.terminals) == 1, 'still one terminal')

-- the PTY follows the window size (a `-l` script runs no main loop, where Neovim fires
-- WinResized, so it is fired here; tests/e2e/test_nvim_screenshot.py resizes a real TUI)
local win = vim.fn.bufwinid(term.buf)
vim.api.nvim_win_set_height(win, 7)
vim.cmd('doautocmd WinResized')
local function stty_shows(rows)
  client:request_sync('workspace/executeCommand',
    { command = 'aintern.terminal.send', arguments = { { terminalId = id, text = 'stty size' } } }, 5000)
  local cols = vim.api.nvim_win_get_width(win)
  return wait(10000, function()
    for _, l in ipairs(vim.api.nvim_buf_get_lines(term.buf, 0, -1, false)) do
      if vim.trim(l) == ('%d %d'):format(rows, cols) then
        return true
      end
    end
    return false
  end, 100)
end
check(stty_shows(7), 'PTY has the window size after a resize (stty size = 7 rows)')
vim.api.nvim_win_set_height(win, 9)
vim.cmd('doautocmd WinResized')
check(stty_shows(9), 'PTY follows a second resize (9 rows)')

-- in the terminal window, copy for AI takes that terminal's last command
vim.api.nvim_set_current_win(win)
-- (the shell reports the end of `stty size` just after its output: ask until it has)
check(wait(10000, function()
  vim.fn.setreg('"', '')
  vim.cmd('AInternCapture')
  wait(1000, function()
    return vim.fn.getreg('"') ~= ''
  end)
  local reg = vim.fn.getreg('"')
  return reg:find('```terminal', 1, true) ~= nil and reg:find('stty size', 1, true) ~= nil and reg:find('\n9 ', 1, true) ~= nil
end, 200), ':AInternCapture in the terminal window copies its last command: ' .. vim.fn.getreg('"'))
vim.cmd('wincmd p')

-- wiping the terminal buffer ends the server's shell
vim.cmd('bwipe! ' .. term.buf)
check(wait(10000, function()
  local r = client:request_sync('workspace/executeCommand',
    { command = 'aintern.terminal.list', arguments = { {} } }, 5000)
  return r ~= nil and r.result ~= nil and #r.result.terminals == 0
end, 200), 'wiping the terminal buffer closes the server terminal')
check(next(aintern.terminals) == nil, 'no terminal left in the plugin')

-- an edit that lands during a lens refresh still gets its lenses
vim.api.nvim_set_current_buf(bufnr)
aintern.refresh(bufnr)
local n = vim.api.nvim_buf_line_count(bufnr)
vim.api.nvim_buf_set_lines(bufnr, n, n, false, { '```bash', 'echo added during a refresh', '```' })
check(wait(10000, function()
  return find_lens('▶ Run', n) ~= nil
end), 'an edit during a lens refresh gets its lenses')

-- typing in insert mode refreshes lenses (TextChangedI), debounced: one request per pause
local requests = 0
local request = client.request
client.request = function(self, method, ...)
  if method == 'textDocument/codeLens' then
    requests = requests + 1
  end
  return request(self, method, ...)
end
local typed_at = vim.api.nvim_buf_line_count(bufnr)
for i, l in ipairs({ '```bash', 'echo typed', '```' }) do
  vim.api.nvim_buf_set_lines(bufnr, typed_at + i - 1, typed_at + i - 1, false, { l })
  vim.api.nvim_exec_autocmds('TextChangedI', { buffer = bufnr })
end
check(wait(10000, function()
  return find_lens('▶ Run', typed_at) ~= nil
end), 'lenses appear after typing (TextChangedI)')
check(requests == 1, ('three keystrokes, one lens request (debounced): %d'):format(requests))
client.request = request

-- :checkhealth aintern
vim.cmd('checkhealth aintern')
local report = table.concat(vim.api.nvim_buf_get_lines(0, 0, -1, false), '\n')
check(report:find('server found', 1, true) ~= nil, ':checkhealth aintern finds the server')
check(report:find('version: aintern-ls', 1, true) ~= nil, ':checkhealth aintern shows the version')
check(report:find('runbook.md', 1, true) ~= nil, ':checkhealth aintern lists the attached buffer')
check(report:find('shell integration', 1, true) ~= nil, ':checkhealth aintern checks shell integration')
check(report:find('aintern/promptValues announced', 1, true) ~= nil, ':checkhealth aintern sees the promptValues capability')
check(report:find('ERROR', 1, true) == nil, ':checkhealth aintern has no error:\n' .. report)
vim.cmd('bwipe')

-- :help aintern
vim.cmd('help aintern')
check(vim.fn.expand('%:t') == 'aintern.txt', ':help aintern opens doc/aintern.txt')
for _, tag in ipairs({ 'aintern-codecompanion', ':AInternCapture', '<Plug>(aintern-run)', 'aintern-highlights', 'aintern-mcp',
  'aintern-placeholders', 'aintern-input' }) do
  check(pcall(vim.cmd, 'help ' .. tag), ':help ' .. tag)
end

t.finish(client)
