-- CodeCompanion extension: `#{aintern}` editor context (the last run's capture).
--   require('codecompanion').setup({ extensions = { aintern = { enabled = true } } })
local Extension = {}

function Extension.setup(opts)
  opts = opts or {}
  local config = require('codecompanion.config')
  local shared = config.interactions and config.interactions.shared
  if not (shared and shared.editor_context) then
    vim.notify('aintern: this CodeCompanion has no editor context to extend', vim.log.levels.WARN)
    return
  end
  shared.editor_context[opts.name or 'aintern'] = {
    path = 'aintern.codecompanion',
    description = opts.description or 'Share the output of the last aintern run or terminal command',
    opts = { contains_code = true },
  }
end

Extension.exports = {
  context = function()
    return require('aintern.codecompanion').text()
  end,
}

return Extension
