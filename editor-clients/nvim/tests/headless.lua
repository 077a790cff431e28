-- End-to-end check of the Neovim client against the real server, in a headless Neovim.
-- Usage: nvim --headless -u NONE -i NONE -l tests/headless.lua PLUGIN_DIR TMPDIR PYTHON
local plugin_dir, tmp, python = arg[1], arg[2], arg[3]
vim.opt.rtp:prepend(plugin_dir)

local failures = 0
local function check(cond, what)
  if cond then
    io.stdout:write('ok   ' .. what .. '\n')
  else
    failures = failures + 1
    io.stdout:write('FAIL ' .. what .. '\n')
  end
  return cond
end

local doc = tmp .. '/runbook.md'
local f = assert(io.open(doc, 'w'))
f:write(table.concat({
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
  '',
}, '\n'))
f:close()

local aintern = require('aintern')
aintern.setup({
  cmd = { python, '-m', 'aintern_ls', '--stdio' },
  settings = { historyPath = tmp .. '/history.db' },
})
-- the user picks "Run anyway" / the first choice whenever asked
vim.ui.select = function(items, _, on_choice)
  on_choice(items[1])
end

vim.cmd.edit(doc)
vim.bo.filetype = 'markdown'
local bufnr = vim.api.nvim_get_current_buf()

local client
check(vim.wait(30000, function()
  client = vim.lsp.get_clients({ name = 'aintern_ls', bufnr = bufnr })[1]
  return client ~= nil and client.initialized
end, 50), 'client attaches to a markdown buffer')
if not client then
  os.exit(1)
end
check(client.offset_encoding == 'utf-8', 'position encoding negotiated as utf-8')

local function lenses()
  return vim.lsp.codelens.get(bufnr)
end
check(vim.wait(20000, function()
  return #lenses() >= 5
end, 50), 'code lenses arrive')

local function titles()
  local out = {}
  for _, lens in ipairs(lenses()) do
    if lens.command then
      table.insert(out, lens.command.title)
    end
  end
  return out
end
local function find_lens(prefix, line)
  for _, lens in ipairs(lenses()) do
    if lens.command and lens.command.title:sub(1, #prefix) == prefix and (not line or lens.range.start.line == line) then
      return lens
    end
  end
end

check(find_lens('▶ Run', 4) ~= nil, 'run lens above the first fence')
check(find_lens('⛔ blocked', 8) ~= nil, 'blocked lens above the dangerous fence')

-- diagnostics on the exact words, in UTF-8 columns
local diag
check(vim.wait(10000, function()
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    if d.severity == vim.diagnostic.severity.ERROR then
      diag = d
      return true
    end
  end
  return false
end, 50), 'blocked command gets an error diagnostic')
if diag then
  local line = vim.api.nvim_buf_get_lines(bufnr, diag.lnum, diag.lnum + 1, false)[1]
  local underlined = line:sub(diag.col + 1, diag.end_col)
  check(diag.lnum == 9, 'diagnostic on the command line')
  check(underlined:find('rm', 1, true) == 1 and underlined:find('/', 1, true) ~= nil,
    'diagnostic underlines exactly the rm words: "' .. underlined .. '"')
end

local ctx = { client_id = client.id, bufnr = bufnr }

-- ⎘ Copy puts the command in the registers
vim.fn.setreg('"', '')
vim.lsp.commands['aintern.copy'](find_lens('⎘ Copy', 4).command, ctx)
check(vim.wait(10000, function()
  return vim.fn.getreg('"') == 'echo "héllo from nvim"'
end, 50), 'copy puts the command in the unnamed register')

-- ▶ Run returns the output and the lens shows the exit code
vim.lsp.commands['aintern.run'](find_lens('▶ Run', 4).command, ctx)
check(vim.wait(30000, function()
  return aintern.last_result ~= nil
end, 50), 'run finishes')
local result = aintern.last_result or {}
check(result.exitCode == 0, 'run exit code 0')
check(type(result.output) == 'string' and result.output:find('héllo from nvim', 1, true) ~= nil,
  'run output has the echoed text')
check(vim.wait(10000, function()
  return find_lens('✓ exit 0', 4) ~= nil
end, 50), 'lens shows ✓ exit 0 after the run')

-- ⇥ Send to terminal opens a real terminal buffer fed by the server
vim.lsp.commands['aintern.sendToTerminal'](find_lens('⇥ Send', 4).command, ctx)
local term
check(vim.wait(30000, function()
  term = next(aintern.terminals) and aintern.terminals[next(aintern.terminals)]
  if not term then
    return false
  end
  for _, l in ipairs(vim.api.nvim_buf_get_lines(term.buf, 0, -1, false)) do
    if vim.trim(l) == 'héllo from nvim' then
      return true
    end
  end
  return false
end, 100), 'terminal buffer shows the command output')
if term and failures > 0 then
  io.stdout:write(vim.inspect(vim.api.nvim_buf_get_lines(term.buf, 0, -1, false)) .. '\n')
end
if term then
  check(vim.bo[term.buf].buftype == 'terminal', 'the mirror is a terminal buffer')
end

-- :AInternCapture puts the last command's output, as AI context, in the register
vim.fn.setreg('"', '')
vim.cmd('AInternCapture lastCommand ' .. next(aintern.terminals))
check(vim.wait(10000, function()
  return vim.fn.getreg('"'):find('```terminal', 1, true) ~= nil
end, 50), ':AInternCapture copies a terminal context block')
check(vim.fn.getreg('"'):find('héllo from nvim', 1, true) ~= nil, 'capture holds the output')

client:stop()
vim.wait(5000, function()
  return client:is_stopped()
end, 50)
io.stdout:write(failures == 0 and 'ALL OK\n' or ('FAILURES: ' .. failures .. '\n'))
os.exit(failures == 0 and 0 or 1)
