-- aintern: commands, <Plug> mappings, highlight groups and autocommands.
-- Nothing starts until `vim.lsp.enable('aintern_ls')` (or `require('aintern').setup()`).
if vim.g.loaded_aintern then
  return
end
vim.g.loaded_aintern = true

local api = vim.api

local function highlights()
  local links = {
    AInternLens = 'LspCodeLens',
    AInternLensBlocked = 'DiagnosticError',
    AInternLensDangerous = 'DiagnosticWarn',
    AInternLensRunning = 'DiagnosticInfo',
    AInternLensOk = 'DiagnosticOk',
    AInternLensFailed = 'DiagnosticError',
    AInternOutput = 'Comment',
    AInternOutputOk = 'DiagnosticOk',
    AInternOutputError = 'DiagnosticError',
    AInternOutputFold = 'NonText',
  }
  for group, target in pairs(links) do
    api.nvim_set_hl(0, group, { link = target, default = true })
  end
end
highlights()

local group = api.nvim_create_augroup('aintern', { clear = true })
api.nvim_create_autocmd('ColorScheme', { group = group, callback = highlights })

api.nvim_create_autocmd('LspAttach', {
  group = group,
  callback = function(ev)
    local client = vim.lsp.get_client_by_id(ev.data.client_id)
    if client and client.name == 'aintern_ls' then
      require('aintern').on_attach(ev.buf)
    end
  end,
})

-- AI chat buffers (CodeCompanion, CopilotChat, Avante, gp.nvim) are often scratch buffers,
-- which vim.lsp.enable skips.
api.nvim_create_autocmd('FileType', {
  group = group,
  callback = function(ev)
    if vim.bo[ev.buf].buftype ~= '' and vim.lsp.is_enabled('aintern_ls') then
      require('aintern').attach_scratch(ev.buf)
    end
  end,
})

api.nvim_create_autocmd({ 'WinResized', 'VimResized' }, {
  group = group,
  callback = function()
    if package.loaded.aintern then
      require('aintern').resize_all()
    end
  end,
})
api.nvim_create_autocmd('BufWinEnter', {
  group = group,
  callback = function(ev)
    local id = vim.b[ev.buf].aintern_terminal
    if id then
      vim.schedule(function()
        require('aintern').resize_terminal(id)
      end)
    end
  end,
})

local function action(name)
  return function()
    require('aintern').action(name)
  end
end

local commands = {
  AInternRun = { action('run'), 'Run the fence under the cursor' },
  AInternStop = { action('stop'), 'Stop the run of the fence under the cursor' },
  AInternSend = { action('send'), "Send the fence under the cursor to the document's terminal" },
  AInternCopy = { action('copy'), 'Copy the command of the fence under the cursor' },
  AInternRunAll = {
    function()
      require('aintern').run_all()
    end,
    'Run every fence of the buffer',
  },
  AInternOutput = {
    function()
      require('aintern').output_here()
    end,
    'Show the whole output of the fence under the cursor (or the last run)',
  },
  AInternInput = {
    function(cmd)
      require('aintern').input(cmd.args ~= '' and cmd.args or nil)
    end,
    'Answer a prompt of the running fence (asks for the text when none is given)',
    { nargs = '?' },
  },
  AInternClearOutput = {
    function(cmd)
      require('aintern').clear_output(nil, cmd.bang)
    end,
    'Hide the output under the fence at the cursor (! for all)',
    { bang = true },
  },
}
for name, spec in pairs(commands) do
  api.nvim_create_user_command(name, spec[1], vim.tbl_extend('force', { desc = spec[2] }, spec[3] or {}))
end
api.nvim_create_user_command('AInternCapture', function(cmd)
  require('aintern').capture(cmd.fargs[1], cmd.fargs[2])
end, {
  nargs = '*',
  complete = function()
    return { 'lastCommand', 'fullBuffer', 'lastNLines' }
  end,
  desc = 'Copy the last run (or terminal command) as context for an AI',
})

local plugs = {
  ['<Plug>(aintern-run)'] = 'AInternRun',
  ['<Plug>(aintern-stop)'] = 'AInternStop',
  ['<Plug>(aintern-send)'] = 'AInternSend',
  ['<Plug>(aintern-copy)'] = 'AInternCopy',
  ['<Plug>(aintern-capture)'] = 'AInternCapture',
  ['<Plug>(aintern-run-all)'] = 'AInternRunAll',
  ['<Plug>(aintern-output)'] = 'AInternOutput',
  ['<Plug>(aintern-input)'] = 'AInternInput',
}
for lhs, cmd in pairs(plugs) do
  vim.keymap.set('n', lhs, '<cmd>' .. cmd .. '<cr>', { desc = 'aintern: ' .. cmd })
end
