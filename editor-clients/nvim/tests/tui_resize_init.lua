-- init.lua of a Neovim TUI in tmux (see tests/e2e/test_nvim_screenshot.py): ⇥ Send a
-- `stty size` fence, report what the shell saw and the window's size (SIZE1), wait until
-- the test resized the tmux window (GO), run `stty size` again, report again (SIZE2).
-- Env: AINTERN_PLUGIN, AINTERN_PYTHON, AINTERN_TMP.
local plugin, python, tmp = vim.env.AINTERN_PLUGIN, vim.env.AINTERN_PYTHON, vim.env.AINTERN_TMP
vim.cmd('filetype plugin indent on')
vim.o.swapfile = false
vim.opt.rtp:prepend(plugin)
vim.cmd.runtime('plugin/aintern.lua')
vim.lsp.config('aintern_ls', {
  cmd = { python, '-m', 'aintern_ls', '--stdio' },
  settings = { aintern = { historyPath = tmp .. '/history.db' } },
  init_options = { aintern = { historyPath = tmp .. '/history.db' } },
})
vim.lsp.enable('aintern_ls')
local aintern = require('aintern')

local function write(name, text)
  local f = assert(io.open(tmp .. '/' .. name, 'w'))
  f:write(text)
  f:close()
end

local function poll(cond, then_do, tries)
  tries = tries or 0
  if tries > 1200 then
    return write('SIZE_TIMEOUT', 'timeout')
  end
  if cond() then
    return then_do()
  end
  vim.defer_fn(function()
    poll(cond, then_do, tries + 1)
  end, 100)
end

local bufnr, client
local function send_lens()
  for _, lens in ipairs(vim.lsp.codelens.get(bufnr)) do
    if lens.command and lens.command.command == 'aintern.sendToTerminal' then
      return lens
    end
  end
end

--- The last `rows cols` line the shell printed, and the terminal window's text size.
local function sizes(count)
  local term = aintern.terminals[next(aintern.terminals) or '']
  if not term then
    return nil
  end
  local seen = {}
  for _, l in ipairs(vim.api.nvim_buf_get_lines(term.buf, 0, -1, false)) do
    local size = vim.trim(l):match('^(%d+ %d+)$')
    if size then
      table.insert(seen, size)
    end
  end
  if #seen < count then
    return nil
  end
  local win = vim.fn.bufwinid(term.buf)
  local info = vim.fn.getwininfo(win)[1]
  return ('%s|%d %d'):format(seen[count], vim.api.nvim_win_get_height(win), vim.api.nvim_win_get_width(win) - info.textoff)
end

local function send()
  aintern.commands['aintern.sendToTerminal'](send_lens().command, { client_id = client.id, bufnr = bufnr })
end

vim.api.nvim_create_autocmd('VimEnter', {
  callback = function()
    bufnr = vim.api.nvim_get_current_buf()
    poll(function()
      client = aintern.client_for(bufnr)
      return client ~= nil and send_lens() ~= nil
    end, function()
      send()
      poll(function()
        return sizes(1) ~= nil
      end, function()
        write('SIZE1', sizes(1))
        poll(function()
          return vim.uv.fs_stat(tmp .. '/GO') ~= nil
        end, function()
          vim.defer_fn(function()
            -- typed into the shell directly (a Send would also resize: test the autocmds)
            client:request('workspace/executeCommand', {
              command = 'aintern.terminal.send',
              arguments = { { terminalId = next(aintern.terminals), text = 'stty size' } },
            }, function() end)
            poll(function()
              return sizes(2) ~= nil
            end, function()
              write('SIZE2', sizes(2) .. '|' .. vim.tbl_count(aintern.terminals))
            end)
          end, 500)
        end)
      end)
    end)
  end,
})
