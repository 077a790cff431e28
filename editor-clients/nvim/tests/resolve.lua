-- A huge document's lenses come unresolved (range + data); the client resolves those on
-- screen, draws them, resolves more when the view moves, and runs a resolved lens.
-- The pytest wrapper sets AINTERN_LS_RESOLVE_LENSES_ABOVE=0, so this small document
-- takes the path of a huge one.
-- Usage: nvim --headless -u NONE -i NONE -l tests/resolve.lua PLUGIN_DIR TMPDIR PYTHON
local plugin_dir, tmp, python = arg[1], arg[2], arg[3]
package.path = plugin_dir .. '/tests/?.lua;' .. package.path
local t = require('testlib')
local check, wait = t.check, t.wait
t.load_plugin(plugin_dir, tmp)

local doc = tmp .. '/big.md'
local lines = { '# Many fences', '' }
for n = 1, 120 do
  vim.list_extend(lines, { ('Step %d:'):format(n), '', '```bash', ('echo "step %d"'):format(n), '```', '' })
end
t.write(doc, lines)
local last_fence = #lines - 4 -- 0-based line of the last opening fence
vim.lsp.config('aintern_ls', {
  cmd = { python, '-m', 'aintern_ls', '--stdio' },
  init_options = { aintern = { historyPath = tmp .. '/history.db' } },
})
vim.lsp.enable('aintern_ls')
local aintern = require('aintern')
vim.cmd.edit(doc)
local bufnr = vim.api.nvim_get_current_buf()
local client = t.wait_client(bufnr)

local function counts()
  local resolved, unresolved = 0, 0
  for _, lens in ipairs(vim.lsp.codelens.get(bufnr)) do
    if lens.command then
      resolved = resolved + 1
    else
      unresolved = unresolved + 1
    end
  end
  return resolved, unresolved
end
local function lens_at(line, command)
  for _, lens in ipairs(vim.lsp.codelens.get(bufnr)) do
    if lens.range.start.line == line and lens.command and lens.command.command == command then
      return lens
    end
  end
end

check(wait(20000, function()
  return #vim.lsp.codelens.get(bufnr) == 360
end), 'three lenses per fence arrive: ' .. #vim.lsp.codelens.get(bufnr))
check(wait(10000, function()
  return lens_at(4, 'aintern.run') ~= nil and t.lens_has_group(bufnr, 4, 'AInternLens')
end), 'the lenses on screen are resolved, and drawn once all have answered')
local resolved, unresolved = counts()
check(resolved > 0 and unresolved > 0 and resolved < 120,
  ('only those near the screen: %d resolved, %d not'):format(resolved, unresolved))
check(lens_at(last_fence, 'aintern.run') == nil, 'the last fence (far below) is not resolved yet')
check(aintern.line_of(bufnr, lens_at(4, 'aintern.run').command.arguments[1].blockId) == 4,
  'line_of finds a resolved block')

-- the server put the document's uri into the resolved lens's arguments
local run = lens_at(4, 'aintern.run')
check(run.command.arguments[1].uri == vim.uri_from_bufnr(bufnr), 'resolved arguments carry the uri')
check(run.command.title == '▶ Run', 'the title of a ready block: ' .. run.command.title)

-- an unresolved block is still found by its id (from `data`)
local far
for _, lens in ipairs(vim.lsp.codelens.get(bufnr)) do
  if not lens.command and lens.range.start.line == last_fence then
    far = lens
  end
end
check(far ~= nil and type(far.data) == 'string', 'an unresolved lens has data')
check(aintern.line_of(bufnr, far.data:match('^(.*)#%d+$')) == last_fence, 'line_of finds an unresolved block')

-- moving to the end of the document resolves what is shown there
vim.cmd('normal! G')
-- (a headless Neovim has no screen: nothing scrolls it, so the event is sent here)
vim.cmd('doautocmd WinScrolled')
check(wait(10000, function()
  return lens_at(last_fence, 'aintern.run') ~= nil and t.lens_has_group(bufnr, last_fence, 'AInternLens')
end), 'scrolled into view: resolved and drawn')

-- a resolved lens runs
aintern.last_result = nil
aintern.commands['aintern.run'](lens_at(last_fence, 'aintern.run').command, { client_id = client.id, bufnr = bufnr })
check(wait(15000, function()
  return aintern.last_result ~= nil
end), 'a resolved Run lens runs')
check(aintern.last_result and aintern.last_result.output:find('step 120', 1, true) ~= nil,
  'its output: ' .. vim.inspect(aintern.last_result and aintern.last_result.output))
-- after the run the block's lenses come whole (its state shows), the others stay unresolved
check(wait(10000, function()
  for _, lens in ipairs(vim.lsp.codelens.get(bufnr)) do
    if lens.range.start.line == last_fence and lens.command and lens.command.title:find('exit 0', 1, true) then
      return true
    end
  end
  return false
end), 'the state lens of the run block')
t.finish(client)
