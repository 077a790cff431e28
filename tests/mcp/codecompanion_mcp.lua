-- CodeCompanion's own MCP client against `aintern-ls mcp`, in headless Neovim.
-- Run by tests/mcp/test_mcp_clients.py:
--   nvim --headless -u NONE -i NONE -l codecompanion_mcp.lua VENDOR PYTHON REPO WORKDIR
-- Configures the server exactly as the README tells users (mcp.servers), lets
-- CodeCompanion start it and load its tools, then calls check_command and run_command
-- through the tools CodeCompanion built (what its chat runs when the model calls them).
local vendor, python, repo, work = arg[1], arg[2], arg[3], arg[4]
vim.opt.runtimepath:prepend(vendor .. "/plenary.nvim")
vim.opt.runtimepath:prepend(vendor .. "/codecompanion.nvim")

local failures = 0
local function check(cond, what, detail)
  if cond then
    print("ok   " .. what)
  else
    failures = failures + 1
    print("FAIL " .. what .. (detail and (": " .. vim.inspect(detail)) or ""))
  end
end

require("codecompanion").setup({
  mcp = {
    servers = {
      aintern = {
        cmd = { python, "-m", "aintern_ls", "mcp", "--workspace", work },
        env = { PYTHONPATH = repo },
      },
    },
  },
})

local mcp = require("codecompanion.mcp")
local loaded = false
local ok, started = mcp.enable_server("aintern", {
  on_tools_loaded = function()
    loaded = true
  end,
})
check(ok and started, "enable_server started aintern", started)
vim.wait(60000, function()
  return loaded
end, 50)
check(loaded, "tools loaded")

local tools, groups = mcp.get_registered_tools()
local names = vim.tbl_keys(tools)
table.sort(names)
check(#names == 11, "11 tools registered", names)
check(tools["aintern_run_command"] ~= nil, "aintern_run_command registered", names)
check(groups["mcp:aintern"] ~= nil, "tool group mcp:aintern", vim.tbl_keys(groups))
local prompt = groups["mcp:aintern"] and groups["mcp:aintern"].prompt or ""
check(prompt:find("safely", 1, true) ~= nil, "server instructions reach the system prompt", prompt)

-- Calls a tool the way CodeCompanion's chat does: the bridge's cmds[1] with an output_cb.
local function call(name, args)
  local tool = tools["aintern_" .. name].callback()
  check(tool.schema["function"].parameters.type == "object", name .. " has an input schema")
  local result
  tool.cmds[1]({}, args, {
    output_cb = function(out)
      result = out
    end,
  })
  vim.wait(60000, function()
    return result ~= nil
  end, 50)
  return result
end

local function text(result)
  if not result or type(result.data) ~= "table" then
    return tostring(result and result.data)
  end
  return require("codecompanion.mcp.tool_bridge").format_tool_result_content(result.data)
end

local checked = call("check_command", { command = "sudo rm -rf /" })
check(checked and checked.status == "success", "check_command succeeded", checked)
check(text(checked):find("blocked", 1, true) ~= nil, "check_command says blocked", text(checked))
check(text(checked):find("rm-root", 1, true) ~= nil, "check_command names the rule", text(checked))

local ran = call("run_command", { command = "echo hello from codecompanion; exit 7" })
check(ran and ran.status == "success", "run_command succeeded", ran)
check(text(ran):find("hello from codecompanion", 1, true) ~= nil, "run_command output", text(ran))
check(text(ran):find("exit 7", 1, true) ~= nil, "run_command exit code", text(ran))

-- CodeCompanion's client has no elicitation: a dangerous command is refused, with why.
local risky = call("run_command", { command = "rm -f " .. work .. "/keep.txt" })
check(risky and risky.status == "error", "dangerous run_command refused", risky)
check(text(risky):find("cannot ask", 1, true) ~= nil, "refusal says why", text(risky))
check(vim.uv.fs_stat(work .. "/keep.txt") ~= nil, "the file is still there")

mcp.stop_servers()
if failures == 0 then
  print("ALL OK")
end
vim.cmd(failures == 0 and "qa!" or "cq!")
