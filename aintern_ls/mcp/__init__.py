"""`aintern-ls mcp`: the agent surface (DESIGN §11) as an MCP server on the official SDK.

- `schemas`: the tools, their input schemas and annotations, argument checks.
- `tools`: what each tool does, on the same services as the language server
  (safety, terminal runner and sessions, capture, history); knows no MCP.
- `server`: the SDK wiring (stdio, tools/list, tools/call, elicitation, progress, roots).
- `settings`: the `aintern` settings from the user and workspace files.
- `cli`: the `mcp` subcommand.
"""
