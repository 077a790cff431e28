-- init.lua of an embedded Neovim (`nvim --embed --headless`) that a Python test drives
-- over msgpack-RPC (pynvim) with typed keys: the plugin as a user installs it, the real
-- default vim.ui.input, and notifications recorded for the test to read.
-- Env: AINTERN_PLUGIN, AINTERN_PYTHON, AINTERN_TMP.
local plugin, python, tmp = vim.env.AINTERN_PLUGIN, vim.env.AINTERN_PYTHON, vim.env.AINTERN_TMP
vim.cmd('filetype plugin on')
vim.o.swapfile = false
vim.o.more = false -- no hit-enter prompt between notifications
vim.opt.rtp:prepend(plugin)
vim.cmd.runtime('plugin/aintern.lua')
vim.lsp.config('aintern_ls', {
  cmd = { python, '-m', 'aintern_ls', '--stdio' },
  settings = { aintern = { historyPath = tmp .. '/history.db' } },
  init_options = { aintern = { historyPath = tmp .. '/history.db' } },
})
require('aintern').setup()

_G.notes = {}
vim.notify = function(msg, level)
  table.insert(_G.notes, { msg = msg, level = level or vim.log.levels.INFO })
end

--- For the test: the lenses of `bufnr` as { line, title } rows.
function _G.lens_rows(bufnr)
  local rows = {}
  for _, lens in ipairs(vim.lsp.codelens.get(bufnr)) do
    if lens.command then
      table.insert(rows, { line = lens.range.start.line, title = lens.command.title })
    end
  end
  return rows
end

--- For the test: the text of the virtual lines under `line` of `bufnr`.
function _G.virt_text(bufnr, line)
  local out = {}
  local ns = require('aintern').ns.output
  for _, m in ipairs(vim.api.nvim_buf_get_extmarks(bufnr, ns, { line, 0 }, { line, -1 }, { details = true })) do
    for _, vl in ipairs(m[4].virt_lines or {}) do
      local text = {}
      for _, chunk in ipairs(vl) do
        table.insert(text, chunk[1])
      end
      table.insert(out, table.concat(text))
    end
  end
  return table.concat(out, '\n')
end
