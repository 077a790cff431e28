-- A long run's output shows under its fence while it runs (aintern.runOutput), then the
-- result replaces it.
-- Usage: nvim --headless -u NONE -i NONE -l tests/follow.lua PLUGIN_DIR TMPDIR PYTHON
local plugin_dir, tmp, python = arg[1], arg[2], arg[3]
package.path = plugin_dir .. '/tests/?.lua;' .. package.path
local t = require('testlib')
local check, wait = t.check, t.wait
t.load_plugin(plugin_dir, tmp)

local doc = tmp .. '/long.md'
t.write(doc, {
  '# Long', -- 0
  '', -- 1
  '```bash', -- 2
  'for i in 1 2 3 4 5 6; do echo "tick $i"; sleep 0.4; done', -- 3
  '```', -- 4
  '',
})
vim.lsp.config('aintern_ls', {
  cmd = { python, '-m', 'aintern_ls', '--stdio' },
  init_options = { aintern = { historyPath = tmp .. '/history.db' } },
})
vim.lsp.enable('aintern_ls')
local aintern = require('aintern')
vim.cmd.edit(doc)
local bufnr = vim.api.nvim_get_current_buf()
local client = t.wait_client(bufnr)
check(wait(20000, function()
  return #vim.lsp.codelens.get(bufnr) > 0
end), 'lenses')
local run
for _, lens in ipairs(vim.lsp.codelens.get(bufnr)) do
  if lens.command and lens.command.command == 'aintern.run' then
    run = lens
  end
end
aintern.last_result = nil
aintern.commands['aintern.run'](run.command, { client_id = client.id, bufnr = bufnr })
local live
check(wait(10000, function()
  local text = t.virt_lines(bufnr, 4)
  if text:find('⏳ running', 1, true) and text:find('tick 2', 1, true) then
    live = text
    return true
  end
  return false
end), 'the output shows under the fence while it runs')
check(aintern.last_result == nil and live ~= nil and live:find('tick 6', 1, true) == nil,
  'that was before the run ended: ' .. tostring(live))
check(wait(15000, function()
  return aintern.last_result ~= nil
end), 'the run ends')
check(wait(5000, function()
  local text = t.virt_lines(bufnr, 4)
  return text:find('✓ exit 0', 1, true) ~= nil and text:find('⏳', 1, true) == nil
end), 'the result replaces the live output: ' .. t.virt_lines(bufnr, 4))
t.finish(client)
