-- init.lua of the Neovim the screenshot test runs in tmux (a real TUI, not headless):
-- opens the runbook, runs its first fence and writes READY_FILE once the output is drawn.
-- Env: AINTERN_PLUGIN, AINTERN_PYTHON, AINTERN_TMP.
local plugin, python, tmp = vim.env.AINTERN_PLUGIN, vim.env.AINTERN_PYTHON, vim.env.AINTERN_TMP
vim.cmd('filetype plugin indent on')
vim.cmd('syntax on')
vim.o.termguicolors = true
vim.o.number = true
vim.o.signcolumn = 'yes'
vim.o.laststatus = 2
vim.o.showmode = false
vim.o.swapfile = false
vim.opt.rtp:prepend(plugin)
vim.cmd.runtime('plugin/aintern.lua')
vim.lsp.config('aintern_ls', {
  cmd = { python, '-m', 'aintern_ls', '--stdio' },
  settings = { aintern = { historyPath = tmp .. '/history.db' } },
  init_options = { aintern = { historyPath = tmp .. '/history.db' } },
})
require('aintern').setup({ output = { height = 6 } })
vim.diagnostic.config({ virtual_text = true })

local function ready(what)
  local f = assert(io.open(tmp .. '/READY', 'w'))
  f:write(what)
  f:close()
end

local tries = 0
local function step()
  tries = tries + 1
  if tries > 1200 then
    return ready('timeout')
  end
  local bufnr = vim.fn.bufnr(tmp .. '/runbook.md')
  local aintern = require('aintern')
  local client = aintern.client_for(bufnr)
  local run
  for _, lens in ipairs(client and vim.lsp.codelens.get(bufnr) or {}) do
    if lens.command and lens.command.title == '▶ Run' and not run then
      run = lens
    end
  end
  if not run then
    return vim.defer_fn(step, 100)
  end
  aintern.commands['aintern.run'](run.command, { client_id = client.id, bufnr = bufnr })
  local function done()
    if aintern.last_result then
      vim.api.nvim_win_set_cursor(0, { 1, 0 })
      vim.cmd('redraw!')
      vim.defer_fn(function()
        vim.cmd('redraw!')
        ready('ok')
      end, 700)
    else
      vim.defer_fn(done, 100)
    end
  end
  done()
end
vim.api.nvim_create_autocmd('VimEnter', {
  callback = function()
    vim.defer_fn(step, 200)
  end,
})
