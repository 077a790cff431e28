-- The real CodeCompanion chat buffer (a `buftype=nofile` scratch buffer) gets the server
-- with nothing but `vim.lsp.enable('aintern_ls')`; its fences get lenses, diagnostics and
-- runs; `#{aintern}` resolves to the last run's capture through CodeCompanion's own
-- editor-context code. A chat buffer whose name is a non-file URI works too.
-- Usage: nvim --headless -u NONE -i NONE -l tests/codecompanion.lua PLUGIN_DIR TMPDIR PYTHON VENDOR
local plugin_dir, tmp, _, vendor = arg[1], arg[2], arg[3], arg[4]
package.path = plugin_dir .. '/tests/?.lua;' .. package.path
local t = require('testlib')
local check, wait = t.check, t.wait
t.load_plugin(plugin_dir, tmp)
vim.opt.rtp:prepend(vendor .. '/plenary.nvim')
vim.opt.rtp:prepend(vendor .. '/codecompanion.nvim')

-- a project with a .git root, and Neovim started in a subfolder of it
local root, sub = tmp .. '/project', tmp .. '/project/sub'
vim.fn.mkdir(root .. '/.git', 'p')
vim.fn.mkdir(sub, 'p')
vim.cmd.cd(sub)

-- no setup(), no vim.lsp.config: the server is `aintern-ls` on PATH
vim.lsp.enable('aintern_ls')
local aintern = require('aintern')

require('codecompanion').setup({ extensions = { aintern = { enabled = true } } })
local chat = require('codecompanion').chat()
local bufnr = chat.bufnr
check(vim.bo[bufnr].buftype == 'nofile' and vim.bo[bufnr].filetype == 'codecompanion',
  ('the chat is a scratch buffer: buftype=%s filetype=%s'):format(vim.bo[bufnr].buftype, vim.bo[bufnr].filetype))

-- an assistant reply with two fences, as CodeCompanion writes it
local reply = {
  '',
  '## CodeCompanion (Copilot)',
  '',
  'Print where you are:',
  '',
  '```bash',
  'pwd && echo "from the chat"',
  '```',
  '',
  'Never do this:',
  '',
  '```bash',
  'rm -rf /',
  '```',
  '',
  'And in a terminal:',
  '',
  '```bash',
  'echo "typed in a terminal"',
  '```',
  '',
}
local n = vim.api.nvim_buf_line_count(bufnr)
vim.api.nvim_buf_set_lines(bufnr, n, n, false, reply)
local run_line = n + 5
local bad_line = n + 11
local send_line = n + 17

local client = t.wait_client(bufnr)
local function find_lens(prefix, line)
  for _, lens in ipairs(vim.lsp.codelens.get(bufnr)) do
    if lens.command and lens.command.title:sub(1, #prefix) == prefix and lens.range.start.line == line then
      return lens
    end
  end
end
check(wait(20000, function()
  return find_lens('▶ Run', run_line) ~= nil
end), 'the chat fence gets a ▶ Run lens')
check(find_lens('⛔ blocked', bad_line) ~= nil, 'the rm -rf / fence gets a blocked lens')
check(wait(10000, function()
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    if d.severity == vim.diagnostic.severity.ERROR and d.lnum == bad_line + 1 then
      return true
    end
  end
  return false
end), 'the chat gets an error diagnostic on rm -rf /')

aintern.last_result = nil
aintern.commands['aintern.run'](find_lens('▶ Run', run_line).command, { client_id = client.id, bufnr = bufnr })
-- the live output can show before the run's result arrives: wait for both
check(wait(30000, function()
  return t.virt_lines(bufnr, run_line + 2):find('from the chat', 1, true) ~= nil
    and aintern.last_result ~= nil
end), 'the run output shows under the chat fence')
local result = aintern.last_result or {}
check(result.exitCode == 0, 'the chat run exits 0')
check((result.output or ''):find(sub, 1, true) ~= nil, 'a chat named after a path runs in its folder (the cwd)')

-- #{aintern} in a message, through CodeCompanion's editor-context parser
local EditorContext = require('codecompanion.interactions.shared.editor_context')
local before = #chat.messages
local found = EditorContext.new('chat'):parse(chat, { content = '#{aintern} why is this here?' })
check(found, 'CodeCompanion knows #{aintern}')
local added = chat.messages[#chat.messages]
check(#chat.messages == before + 1 and added.content:find('from the chat', 1, true) ~= nil
  and added.content:find('pwd && echo', 1, true) ~= nil and added.content:find('```', 1, true) ~= nil,
  '#{aintern} adds the last run capture to the chat: ' .. (added and added.content or ''):sub(1, 200))
local replaced = EditorContext.new('chat'):replace('#{aintern} why is this here?', bufnr)
check(replaced == 'aintern why is this here?', '#{aintern} is replaced in the sent text: ' .. replaced)

-- after a ⇥ Send, #{aintern} is that terminal command (its output and exit code)
aintern.commands['aintern.sendToTerminal'](find_lens('⇥ Send', send_line).command, { client_id = client.id, bufnr = bufnr })
check(wait(20000, function()
  local l = vim.lsp.codelens.get(bufnr)
  for _, m in ipairs(vim.api.nvim_buf_get_extmarks(bufnr, aintern.ns.lens, { send_line, 0 }, { send_line, -1 }, { details = true })) do
    for _, chunk in ipairs(m[4].virt_text or {}) do
      if chunk[1] == '⇥ exit 0' then
        return l ~= nil
      end
    end
  end
  return false
end), 'the sent chat fence finished in the terminal')
before = #chat.messages
EditorContext.new('chat'):parse(chat, { content = 'and #{aintern}?' })
added = chat.messages[#chat.messages]
check(#chat.messages == before + 1 and added.content:find('typed in a terminal', 1, true) ~= nil
  and added.content:find('pwd && echo', 1, true) == nil,
  '#{aintern} after a Send is the terminal command: ' .. (added and added.content or ''):sub(1, 300))
vim.cmd('bwipe! ' .. aintern.terminals[next(aintern.terminals)].buf)
vim.api.nvim_set_current_buf(bufnr)

-- :AInternRunAll in the chat: the echo runs (output under it), the blocked one does not
vim.api.nvim_set_current_buf(bufnr)
aintern.clear_output(bufnr, true)
vim.cmd('AInternRunAll')
check(wait(30000, function()
  return t.last_notify().msg:find('ran 1 fence', 1, true) ~= nil
end), ':AInternRunAll reports: ' .. t.last_notify().msg)
check(t.last_notify().msg:find('1 blocked', 1, true) ~= nil and t.last_notify().level == vim.log.levels.INFO,
  'the blocked fence is reported as not run, at INFO')
check(t.virt_lines(bufnr, run_line + 2):find('from the chat', 1, true) ~= nil, 'run-all output under the fence')

-- a placeholder in a chat fence: a hint on it, its value asked with vim.ui.input
n = vim.api.nvim_buf_line_count(bufnr)
vim.api.nvim_buf_set_lines(bufnr, n, n, false, { 'Deploy it:', '', '```bash', 'echo "deploying to <your-env>"', '```', '' })
local deploy_line = n + 2
check(wait(20000, function()
  return find_lens('▶ Run', deploy_line) ~= nil
end), 'the placeholder fence gets a ▶ Run lens')
check(wait(10000, function()
  for _, d in ipairs(vim.diagnostic.get(bufnr, { severity = vim.diagnostic.severity.HINT })) do
    if d.code == 'placeholder' and d.lnum == deploy_line + 1 then
      local text = vim.api.nvim_buf_get_lines(bufnr, d.lnum, d.lnum + 1, false)[1]
      return text:sub(d.col + 1, d.end_col) == '<your-env>'
    end
  end
  return false
end), 'a hint diagnostic on <your-env> in the chat')
local chat_text = vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)
t.input_answer = 'staging'
aintern.last_result = nil
aintern.commands['aintern.run'](find_lens('▶ Run', deploy_line).command, { client_id = client.id, bufnr = bufnr })
check(wait(30000, function()
  return aintern.last_result ~= nil
end), 'the placeholder fence runs')
check(t.inputs[#t.inputs]:find('<your-env>', 1, true) ~= nil, 'vim.ui.input asks for <your-env>: ' .. tostring(t.inputs[#t.inputs]))
check(((aintern.last_result or {}).output or ''):find('deploying to staging', 1, true) ~= nil,
  'the value typed reaches the run: ' .. tostring((aintern.last_result or {}).output))
check(vim.deep_equal(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false), chat_text), 'the chat text is unchanged')
t.input_answer = nil -- the user cancels the question
aintern.last_result = nil
wait(10000, function()
  return find_lens('▶ Run', deploy_line) ~= nil
end)
aintern.commands['aintern.run'](find_lens('▶ Run', deploy_line).command, { client_id = client.id, bufnr = bufnr })
check(wait(30000, function()
  return aintern.last_result ~= nil
end), 'the cancelled placeholder fence answers')
check((aintern.last_result or {}).cancelled == true
  and t.virt_lines(bufnr, deploy_line + 2):find('cancelled at the value prompt', 1, true) ~= nil,
  'cancelled at the value prompt, under the chat fence: ' .. t.virt_lines(bufnr, deploy_line + 2))

-- a chat fence that waits on a prompt: asked with vim.ui.input as soon as the server says so
n = vim.api.nvim_buf_line_count(bufnr)
vim.api.nvim_buf_set_lines(bufnr, n, n, false, { '```bash', 'read -p "name? " who; echo "hi $who"', '```', '' })
local read_line = n
check(wait(20000, function()
  return find_lens('▶ Run', read_line) ~= nil
end), 'the read -p chat fence gets a ▶ Run lens')
vim.api.nvim_set_current_buf(bufnr)
t.input_answer = 'zoe'
local asked_before = #t.inputs
aintern.last_result = nil
aintern.commands['aintern.run'](find_lens('▶ Run', read_line).command, { client_id = client.id, bufnr = bufnr })
check(wait(30000, function()
  return aintern.last_result ~= nil
end), 'the read -p chat fence finishes')
check(#t.inputs == asked_before + 1 and t.inputs[#t.inputs]:find('name?', 1, true) ~= nil,
  'vim.ui.input asked with the prompt of the chat run: ' .. tostring(t.inputs[#t.inputs]))
check(((aintern.last_result or {}).output or ''):find('hi zoe', 1, true) ~= nil,
  'the answer reached the chat run: ' .. tostring((aintern.last_result or {}).output))
t.input_answer = nil

-- a chat buffer named by a non-file URI (as some chat plugins do)
local other = vim.api.nvim_create_buf(true, true)
vim.api.nvim_buf_set_name(other, 'aichat://session/1')
vim.api.nvim_buf_set_lines(other, 0, -1, false, { '#### user', '', 'where?', '', '#### assistant', '', '```sh', 'pwd', '```', '' })
vim.bo[other].filetype = 'copilot-chat'
vim.api.nvim_set_current_buf(other)
check(wait(20000, function()
  return vim.lsp.get_clients({ name = 'aintern_ls', bufnr = other })[1] ~= nil
end), 'a copilot-chat scratch buffer named aichat://session/1 gets the same client')
check(#vim.lsp.get_clients({ name = 'aintern_ls' }) == 1, 'one server for all buffers')
local lens
check(wait(20000, function()
  for _, l in ipairs(vim.lsp.codelens.get(other)) do
    if l.command and l.command.title == '▶ Run' then
      lens = l
      return true
    end
  end
  return false
end), 'the aichat:// buffer gets lenses')
if lens then
  aintern.last_result = nil
  aintern.commands['aintern.run'](lens.command, { client_id = client.id, bufnr = other })
  check(wait(30000, function()
    return aintern.last_result ~= nil
  end), 'the aichat:// fence runs')
  local r = aintern.last_result or {}
  check(r.exitCode == 0 and vim.trim(r.output or '') == root,
    'a non-file chat runs in the workspace root: ' .. tostring(r.output))
end

-- a hover-like markdown scratch buffer never gets the server
local float = vim.api.nvim_create_buf(false, true)
vim.bo[float].filetype = 'markdown'
vim.wait(300)
check(vim.lsp.get_clients({ name = 'aintern_ls', bufnr = float })[1] == nil, 'a markdown scratch buffer (hover float) is left alone')

-- and a Markdown file, with the same vim.lsp.enable alone
local md = sub .. '/notes.md'
t.write(md, { '# Notes', '', '```bash', 'echo notes', '```', '' })
vim.cmd.edit(md)
local mdbuf = vim.api.nvim_get_current_buf()
check(wait(20000, function()
  return vim.lsp.get_clients({ name = 'aintern_ls', bufnr = mdbuf })[1] ~= nil
    and #vim.lsp.codelens.get(mdbuf) > 0
end), "vim.lsp.enable('aintern_ls') alone attaches to a Markdown file, with lenses")

t.finish(client)
