-- The aintern language server, for `vim.lsp.enable('aintern_ls')` (Neovim 0.11+).
--
-- Neovim merges this file first and `vim.lsp.config('aintern_ls', {...})` over it, so
-- whatever the user sets wins. Keystrokes, lens display, terminals and output views come
-- from the plugin (plugin/aintern.lua); no setup() call is needed.
return require('aintern').lsp_config()
