#!/usr/bin/env bash
# Installs the MCP Inspector (its CLI mode drives `aintern-ls mcp` as a third-party
# client in tests/mcp/test_mcp_clients.py) into tests/mcp/.tools (not committed).
# Idempotent; needs npm.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
tools="$here/.tools"
if [ -x "$tools/node_modules/.bin/mcp-inspector" ]; then
    exit 0
fi
mkdir -p "$tools"
cd "$tools"
[ -f package.json ] || echo '{"private": true}' > package.json
npm install --no-audit --no-fund --loglevel=error @modelcontextprotocol/inspector@2
