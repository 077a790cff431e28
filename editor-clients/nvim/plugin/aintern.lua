-- Nothing happens until require('aintern').setup() is called.
if vim.g.loaded_aintern then
  return
end
vim.g.loaded_aintern = true
