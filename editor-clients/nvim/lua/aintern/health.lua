-- :checkhealth aintern
local M = {}

local health = vim.health

local function server_cmd()
  local config = vim.lsp.config.aintern_ls
  local cmd = config and config.cmd
  if type(cmd) == 'table' then
    return cmd
  end
  return nil, type(cmd) == 'function' and 'cmd is a function (not checked)' or 'no cmd configured'
end

function M.check()
  health.start('aintern: server')
  if vim.fn.has('nvim-0.11') ~= 1 then
    health.error('Neovim 0.11 or newer is needed (vim.lsp.config / vim.lsp.enable)')
  else
    health.ok('Neovim ' .. tostring(vim.version()))
  end
  local cmd, why = server_cmd()
  if not cmd then
    health.warn(why)
  else
    local exe = vim.fn.exepath(cmd[1])
    if exe == '' then
      health.error(('server not found: %q is not executable'):format(cmd[1]), {
        'pip install aintern-ls (or pipx install aintern-ls)',
        "or point cmd at it: vim.lsp.config('aintern_ls', { cmd = { '/path/to/aintern-ls', '--stdio' } })",
      })
    else
      health.ok('server found: ' .. exe)
      local argv = vim.deepcopy(cmd)
      -- `aintern-ls --version` or `python -m aintern_ls --version`
      for i = #argv, 2, -1 do
        if argv[i]:sub(1, 1) == '-' then
          table.remove(argv, i)
        else
          break
        end
      end
      table.insert(argv, '--version')
      local ok, res = pcall(function()
        return vim.system(argv, { text = true }):wait(30000)
      end)
      local version = ok and (res.stdout or ''):match('aintern%-ls%s+%S+')
      if version then
        health.ok('version: ' .. version)
      else
        local err = ok and vim.trim((res.stderr or '') .. (res.stdout or '')) or tostring(res)
        health.error(('`%s` failed (exit %s): %s'):format(table.concat(argv, ' '), ok and tostring(res.code) or '?',
          err ~= '' and err or 'no output'))
      end
    end
  end
  if vim.lsp.is_enabled('aintern_ls') then
    health.ok("enabled (vim.lsp.enable('aintern_ls'))")
  else
    health.warn("not enabled: call vim.lsp.enable('aintern_ls') or require('aintern').setup()")
  end

  health.start('aintern: buffers')
  local clients = vim.lsp.get_clients({ name = 'aintern_ls' })
  if #clients == 0 then
    health.info('no server running (it starts with the first Markdown or AI chat buffer)')
  end
  for _, client in ipairs(clients) do
    local names = {}
    for bufnr in pairs(client.attached_buffers) do
      local name = vim.api.nvim_buf_get_name(bufnr)
      table.insert(names, ('%d %s [%s%s]'):format(bufnr, name ~= '' and vim.fn.fnamemodify(name, ':~:.') or '(no name)',
        vim.bo[bufnr].filetype, vim.bo[bufnr].buftype ~= '' and (', ' .. vim.bo[bufnr].buftype) or ''))
    end
    table.sort(names)
    local info = client.server_info or {}
    health.ok(('client %d: %s %s, %s, %d buffer(s) attached'):format(client.id, info.name or 'aintern-ls',
      info.version or '', client.offset_encoding, #names))
    for _, n in ipairs(names) do
      health.info(n)
    end
    if vim.tbl_get(client.capabilities or {}, 'experimental', 'aintern', 'promptValues') == true then
      health.ok('placeholder values are asked with vim.ui.input (aintern/promptValues announced)')
    else
      health.warn('this client does not announce experimental.aintern.promptValues: fences with placeholders are refused',
        { "keep the plugin's capabilities when you set vim.lsp.config('aintern_ls', { capabilities = ... })" })
    end
  end

  health.start('aintern: terminals and shell integration')
  local shell = vim.env.SHELL or 'sh'
  local name = vim.fs.basename(shell)
  local settings = (vim.lsp.config.aintern_ls or {}).settings
  local configured = settings and settings.aintern and settings.aintern.shell
  if configured then
    name = vim.fs.basename(configured)
  end
  local supported = { bash = true, zsh = true, pwsh = true, powershell = true }
  if supported[name] then
    if vim.fn.executable(configured or shell) == 1 then
      health.ok(('shell integration: %s (exit codes and output of sent commands are tracked)'):format(name))
    else
      health.warn(('shell %s not found'):format(configured or shell))
    end
  else
    health.warn(('shell %s has no shell integration: terminals work, exit codes of sent commands are unknown'):format(name),
      { 'set the server setting aintern.shell to bash or zsh' })
  end
  local count = vim.tbl_count(require('aintern').terminals)
  health.info(('%d terminal buffer(s) open'):format(count))
end

return M
