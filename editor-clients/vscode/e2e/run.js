// End-to-end: the packaged extension in a real VS Code (code-server) driven by Chromium.
// Usage: node e2e/run.js CODE_SERVER_BIN VSIX SERVER_PATH WORKDIR
// Prints "ok ..." lines and exits non-zero on the first failed check.
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');
const { chromium } = require('playwright-core');

const [codeServer, vsix, serverPath, workdir] = process.argv.slice(2);

function freePort() {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

function check(cond, what) {
  if (!cond) {
    throw new Error(`FAIL ${what}`);
  }
  console.log(`ok   ${what}`);
}

async function main() {
  const userData = path.join(workdir, 'user');
  const extensions = path.join(workdir, 'extensions');
  const workspace = path.join(workdir, 'ws');
  fs.mkdirSync(path.join(userData, 'User'), { recursive: true });
  fs.mkdirSync(path.join(workspace, '.vscode'), { recursive: true });
  fs.writeFileSync(
    path.join(userData, 'User', 'settings.json'),
    JSON.stringify({ 'security.workspace.trust.enabled': false, 'workbench.startupEditor': 'none' }),
  );
  fs.writeFileSync(
    path.join(workspace, '.vscode', 'settings.json'),
    JSON.stringify({
      'aintern.serverPath': serverPath,
      'aintern.historyPath': path.join(workdir, 'history.db'),
    }),
  );
  fs.writeFileSync(
    path.join(workspace, 'demo.md'),
    ['# Demo', '', '```bash', 'echo hello-from-vscode', '```', '', '```bash', 'rm -rf /', '```', ''].join('\n'),
  );

  const install = spawn(codeServer, ['--install-extension', vsix, '--extensions-dir', extensions], {
    stdio: 'inherit',
  });
  await new Promise((resolve, reject) =>
    install.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`install exited ${code}`)))),
  );

  const port = await freePort();
  const server = spawn(
    codeServer,
    ['--auth', 'none', '--bind-addr', `127.0.0.1:${port}`, '--disable-telemetry', '--disable-update-check',
      '--user-data-dir', userData, '--extensions-dir', extensions, workspace],
    { stdio: ['ignore', 'pipe', 'pipe'], detached: true },
  );
  let browser;
  try {
    browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
        '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    for (let i = 0; i < 60; i++) {
      try {
        await page.goto(`http://127.0.0.1:${port}/?folder=${workspace}`, { timeout: 5000 });
        break;
      } catch (e) {
        await new Promise((r) => setTimeout(r, 1000));
      }
    }
    await page.waitForSelector('.monaco-workbench', { timeout: 90000 });
    await page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'demo.md' }).first().click();
    await page.waitForSelector('.codelens-decoration a', { timeout: 90000 });
    let titles = [];
    for (let i = 0; i < 60; i++) {
      titles = await page.locator('.codelens-decoration a').allTextContents();
      if (titles.some((t) => t.startsWith('⛔'))) break;
      await page.waitForTimeout(500);
    }
    check(titles.includes('▶ Run'), `run lens shown (${JSON.stringify(titles)})`);
    check(titles.some((t) => t.startsWith('⛔ blocked')), 'blocked lens shown');
    await page.waitForSelector('.squiggly-error', { timeout: 30000 });
    check(true, 'blocked command is underlined as an error');
    await page.locator('.codelens-decoration a', { hasText: '▶ Run' }).first().click();
    let done = false;
    for (let i = 0; i < 60 && !done; i++) {
      titles = await page.locator('.codelens-decoration a').allTextContents();
      done = titles.some((t) => t.startsWith('✓ exit 0'));
      if (!done) await page.waitForTimeout(500);
    }
    check(done, `lens shows ✓ exit 0 after Run (${JSON.stringify(titles)})`);
    await page.screenshot({ path: path.join(workdir, 'vscode.png') });
    console.log('ALL OK');
  } finally {
    if (browser) await browser.close();
    const exited = new Promise((resolve) => server.on('exit', resolve));
    try {
      process.kill(-server.pid, 'SIGTERM');
    } catch (e) {}
    const timer = new Promise((resolve) => setTimeout(resolve, 10000));
    await Promise.race([exited, timer]);
    try {
      process.kill(-server.pid, 'SIGKILL'); // anything the TERM left behind
    } catch (e) {}
  }
}

main().catch((err) => {
  console.error(err.message || err);
  process.exit(1);
});
