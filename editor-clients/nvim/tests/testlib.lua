-- Helpers shared by the headless Neovim tests.
local M = {}

M.failures = 0

function M.check(cond, what)
  if cond then
    io.stdout:write('ok   ' .. what .. '\n')
  else
    M.failures = M.failures + 1
    io.stdout:write('FAIL ' .. what .. '\n')
  end
  return cond
end

function M.wait(ms, fn, interval)
  return vim.wait(ms, fn, interval or 50)
end

function M.write(path, lines)
  local f = assert(io.open(path, 'w'))
  f:write(table.concat(lines, '\n'))
  f:close()
end

--- Put the plugin on the runtimepath as a plugin manager would (plugin/ sourced, help
--- tags built in a copy so the checkout stays clean), and record notifications/prompts.
function M.load_plugin(plugin_dir, tmp)
  vim.cmd('filetype on') -- as in any real config (-u NONE leaves it off)
  vim.opt.rtp:prepend(plugin_dir)
  local docs = tmp .. '/rt/doc'
  vim.fn.mkdir(docs, 'p')
  vim.fn.writefile(vim.fn.readfile(plugin_dir .. '/doc/aintern.txt'), docs .. '/aintern.txt')
  vim.cmd('helptags ' .. docs)
  vim.opt.rtp:append(tmp .. '/rt')
  vim.cmd.runtime('plugin/aintern.lua')

  M.notes = {}
  vim.notify = function(msg, level)
    table.insert(M.notes, { msg = msg, level = level or vim.log.levels.INFO })
    io.stdout:write(('     notify[%s] %s\n'):format(level or 2, msg))
  end
  M.prompts = {}
  M.choice = nil
  vim.ui.select = function(items, opts, on_choice)
    table.insert(M.prompts, opts.prompt or '')
    on_choice(M.choice or items[1])
  end
end

--- What vim.ui.input answers (nil: the user cancels); the prompts asked are recorded.
M.inputs = {}
M.input_answer = nil
vim.ui.input = function(opts, on_confirm)
  table.insert(M.inputs, opts.prompt or '')
  on_confirm(M.input_answer)
end

function M.last_notify()
  return M.notes[#M.notes] or { msg = '', level = -1 }
end

function M.last_prompt()
  return M.prompts[#M.prompts] or ''
end

--- What vim.ui.select answers from now on (nil: the first item).
function M.answer(choice)
  M.choice = choice
end

function M.wait_client(bufnr)
  local client
  M.check(M.wait(30000, function()
    client = vim.lsp.get_clients({ name = 'aintern_ls', bufnr = bufnr })[1]
    return client ~= nil and client.initialized
  end), 'client attaches to buffer ' .. bufnr .. ' (' .. vim.bo[bufnr].filetype .. ')')
  if not client then
    io.stdout:write('FAILURES: no client\n')
    os.exit(1)
  end
  return client
end

local function marks(bufnr, ns, line)
  return vim.api.nvim_buf_get_extmarks(bufnr, ns, { line, 0 }, { line, -1 }, { details = true })
end

function M.lens_has_group(bufnr, line, group)
  for _, m in ipairs(marks(bufnr, require('aintern').ns.lens, line)) do
    for _, chunk in ipairs(m[4].virt_text or {}) do
      if chunk[2] == group then
        return true
      end
    end
  end
  return false
end

--- The text of the virtual lines below `line`, one per line.
function M.virt_lines(bufnr, line)
  local out = {}
  for _, m in ipairs(marks(bufnr, require('aintern').ns.output, line)) do
    for _, vl in ipairs(m[4].virt_lines or {}) do
      local text = {}
      for _, chunk in ipairs(vl) do
        table.insert(text, chunk[1])
      end
      table.insert(out, table.concat(text))
    end
  end
  return table.concat(out, '\n') .. '\n'
end

function M.virt_has_group(bufnr, line, group)
  for _, m in ipairs(marks(bufnr, require('aintern').ns.output, line)) do
    for _, vl in ipairs(m[4].virt_lines or {}) do
      for _, chunk in ipairs(vl) do
        if chunk[2] == group then
          return true
        end
      end
    end
  end
  return false
end

function M.finish(client)
  for _, n in ipairs(M.notes or {}) do
    if vim.trim(n.msg) == '' or vim.trim(n.msg) == 'aintern:' then
      M.check(false, 'no empty notification')
    end
  end
  if client then
    client:stop()
    vim.wait(5000, function()
      return client:is_stopped()
    end, 50)
  end
  io.stdout:write(M.failures == 0 and 'ALL OK\n' or ('FAILURES: ' .. M.failures .. '\n'))
  os.exit(M.failures == 0 and 0 or 1)
end

return M
