#!/usr/bin/env bash
# Installs what the VS Code end-to-end test needs into e2e/.tools (not committed):
# code-server (VS Code 1.100 served to a browser), playwright-core and vsce, plus
# Debian's Chromium. Run as root on Debian; idempotent.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
tools="$here/.tools"
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y -qq --no-install-recommends libkrb5-dev ripgrep chromium >/dev/null
fi
if [ -x "$tools/node_modules/.bin/code-server" ] && [ -x "$tools/node_modules/.bin/vsce" ]; then
    exit 0
fi
mkdir -p "$tools"
# code-server's ripgrep package downloads rg at install time; hand it Debian's instead.
cache="$(node -p 'require("os").tmpdir()')/vscode-ripgrep-cache-1.15.11"
mkdir -p "$cache"
tar czf "$cache/ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz" -C /usr/bin rg
cd "$tools"
[ -f package.json ] || echo '{"private": true}' > package.json
npm_config_yes=true npm_config_unsafe_perm=true npm_config_nodedir=/usr \
    npm install --unsafe-perm --no-audit --no-fund --loglevel=error \
    code-server@4.100.3 playwright-core@1 @vscode/vsce@3
