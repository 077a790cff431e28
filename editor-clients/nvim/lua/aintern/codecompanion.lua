-- `#{aintern}` in a CodeCompanion chat: the last run's capture (or the last command of
-- the last terminal), rendered, redacted and truncated by the server, as a user message.
-- Registered by the CodeCompanion extension `aintern`
-- (lua/codecompanion/_extensions/aintern/init.lua); see `:help aintern-codecompanion`.
local Context = {}

function Context.new(args)
  return setmetatable({
    Chat = args.Chat,
    config = args.config,
    params = args.params,
    target = args.target,
  }, { __index = Context })
end

local function text()
  local context, err = require('aintern').context_string()
  if not context then
    return nil, err
  end
  return 'The output of my last command, captured by aintern:\n\n' .. context
end
Context.text = text

function Context:chat_render()
  local content, err = text()
  if not content then
    vim.notify('aintern: ' .. (err or 'nothing to share'), vim.log.levels.WARN)
    return
  end
  local config = require('codecompanion.config')
  local id = '<editor_context>aintern</editor_context>'
  self.Chat:add_message(
    { role = config.constants.USER_ROLE, content = content },
    { _meta = { source = 'editor_context', tag = 'aintern' }, context = { id = id }, visible = false }
  )
  if self.Chat.context and self.Chat.context.add then
    self.Chat.context:add({ bufnr = self.Chat.bufnr, id = id, source = 'aintern.codecompanion' })
  end
end

function Context:cli_render()
  local content = text()
  if not content then
    return nil
  end
  return { inline = 'the output of my last command', block = content }
end

return Context
