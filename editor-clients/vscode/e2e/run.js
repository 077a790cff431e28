// End-to-end: the packaged extension in a real VS Code (code-server) driven by Chromium.
// Usage: node e2e/run.js CODE_SERVER_BIN VSIX PROBE_VSIX SERVER_PATH WORKDIR
// Prints "ok ..." lines (and "figure ..." lines) and exits non-zero on the first failed
// check. Screenshots go to WORKDIR/artifacts (or $AINTERN_E2E_ARTIFACTS).
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');
const { chromium } = require('playwright-core');

const [codeServer, vsix, probeVsix, serverPath, workdir] = process.argv.slice(2);
const artifacts = process.env.AINTERN_E2E_ARTIFACTS || path.join(workdir, 'artifacts');

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

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function until(what, fn, timeoutMs = 30000, everyMs = 100) {
  const deadline = Date.now() + timeoutMs;
  let last;
  while (Date.now() < deadline) {
    last = await fn();
    if (last) return last;
    await sleep(everyMs);
  }
  throw new Error(`FAIL timed out waiting for ${what} (last: ${JSON.stringify(last)})`);
}

function install(ext, extensions) {
  const proc = spawn(codeServer, ['--install-extension', ext, '--extensions-dir', extensions], {
    stdio: 'inherit',
  });
  return new Promise((resolve, reject) =>
    proc.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`install exited ${code}`)))),
  );
}

async function main() {
  const userData = path.join(workdir, 'user');
  const extensions = path.join(workdir, 'extensions');
  const workspace = path.join(workdir, 'ws');
  fs.mkdirSync(path.join(userData, 'User'), { recursive: true });
  fs.mkdirSync(path.join(workspace, '.vscode'), { recursive: true });
  fs.mkdirSync(path.join(workspace, 'build'), { recursive: true });
  fs.mkdirSync(artifacts, { recursive: true });
  fs.writeFileSync(
    path.join(userData, 'User', 'settings.json'),
    JSON.stringify({
      'security.workspace.trust.enabled': false,
      'workbench.startupEditor': 'none',
      'terminal.integrated.defaultProfile.linux': 'bash',
      'terminal.integrated.shellIntegration.enabled': true,
    }),
  );
  const wsSettings = (extra) =>
    fs.writeFileSync(
      path.join(workspace, '.vscode', 'settings.json'),
      JSON.stringify({
        'aintern.serverPath': serverPath,
        'aintern.historyPath': path.join(workdir, 'history.db'),
        ...extra,
      }),
    );
  wsSettings({});
  fs.writeFileSync(
    path.join(workspace, 'demo.md'),
    [
      '# Demo',
      '',
      '```bash',
      'sleep 1; echo hello-from-vscode; date +%s%3N',
      '```',
      '',
      '```bash',
      'rm -rf /',
      '```',
      '',
      '```bash',
      'rm -rf ./build',
      '```',
      '',
      '```bash',
      'echo sent-from-vscode',
      '```',
      '',
      '```bash',
      'for i in 1 2 3 4 5 6; do echo "tick-$i"; sleep 0.5; done',
      '```',
      '',
      '```bash',
      'read -p "your name? " name; echo "hello $name"',
      '```',
      '',
    ].join('\n'),
  );

  const valuesDoc = [
    '# Values',
    '',
    '```bash',
    'echo "deploying to <your-env>"',
    '```',
    '',
    '```bash',
    'echo "token is <your-token>"',
    '```',
    '',
    '```bash',
    'read -s -p "password? " pw; echo; echo "got ${#pw} chars"',
    '```',
    '',
  ].join('\n');
  fs.writeFileSync(path.join(workspace, 'values.md'), valuesDoc);

  await install(vsix, extensions);
  await install(probeVsix, extensions);

  const port = await freePort();
  const server = spawn(
    codeServer,
    ['--auth', 'none', '--bind-addr', `127.0.0.1:${port}`, '--disable-telemetry', '--disable-update-check',
      '--user-data-dir', userData, '--extensions-dir', extensions, workspace],
    { stdio: ['ignore', 'pipe', 'pipe'], detached: true },
  );
  let browser;
  let page;
  try {
    browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
        '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    const context = await browser.newContext({
      viewport: { width: 1400, height: 900 },
      permissions: ['clipboard-read', 'clipboard-write'],
    });
    page = await context.newPage();
    for (let i = 0; i < 60; i++) {
      try {
        await page.goto(`http://127.0.0.1:${port}/?folder=${workspace}`, { timeout: 5000 });
        break;
      } catch (e) {
        await sleep(1000);
      }
    }
    await page.waitForSelector('.monaco-workbench', { timeout: 90000 });

    const dialog = page.locator('.monaco-dialog-box');
    let dangerousAnswer = '';
    const dangerousAsked = [];
    const lenses = async () =>
      (await page.locator('.codelens-decoration a').allTextContents()).map((t) => t.trim());
    const lens = (text, nth = 0) => page.locator('.codelens-decoration a', { hasText: text }).nth(nth);
    const palette = async (title) => {
      await page.keyboard.press('Escape');
      await page.keyboard.press('F1');
      const input = page.locator('.quick-input-widget input');
      await input.waitFor({ state: 'visible', timeout: 10000 });
      await input.fill(`>${title}`);
      await page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first().waitFor({ timeout: 10000 });
      await page.keyboard.press('Enter');
    };
    const probe = async (name) => {
      const file = path.join(workspace, `.probe-${name}.json`);
      fs.rmSync(file, { force: true });
      const titles = { tools: 'AIntern Probe: invoke tools', state: 'AIntern Probe: report state',
        dangerous: 'AIntern Probe: dangerous tool call' };
      await palette(titles[name]);
      if (name === 'dangerous') {
        // the tool's own confirmation (prepareInvocation) is a VS Code dialog here
        await dialog.waitFor({ state: 'visible', timeout: 20000 });
        const said = await dialog.innerText();
        await dialog.locator('.monaco-button', { hasText: dangerousAnswer }).first().click();
        dangerousAsked.push(said);
      }
      return until(`the probe's ${name} report`, () => {
        try {
          return JSON.parse(fs.readFileSync(file, 'utf8'));
        } catch {
          return undefined;
        }
      }, 60000, 200);
    };
    // Monaco draws spaces as no-break spaces
    const editorText = async () =>
      (await page.locator('.editor-instance .view-lines').allInnerTexts()).join('\n').replace(/\u00a0/g, ' ');
    const openDemo = async () => {
      await page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'demo.md' }).first().click();
    };

    // -- lenses and diagnostics -------------------------------------------------------
    await openDemo();
    let titles = await until('lenses with the blocked one', async () => {
      const t = await lenses();
      return t.some((x) => x.startsWith('blocked')) && t.includes('Run') ? t : undefined;
    }, 90000, 500);
    check(titles.includes('Run'), `run lens shown with its icon (${JSON.stringify(titles)})`);
    check(titles.some((t) => t.startsWith('blocked')), 'blocked lens shown');
    await page.waitForSelector('.squiggly-error', { timeout: 30000 });
    check(true, 'blocked command is underlined as an error');

    // -- Run: the output view opens beside the document --------------------------------
    await lens('Run', 0).click();
    const text = await until('the output view with the outcome', async () => {
      const t = await editorText();
      return /\[ok: exit 0/.test(t) ? t : undefined;
    }, 60000, 50);
    const seen = Date.now();
    // (Monaco's line elements are not in line order: look for the pieces, not a sequence)
    const printed = Number((/\b(1\d{12})\b/.exec(text) || [])[1]);
    check(printed > 0 && text.includes('hello-from-vscode'), 'the run\'s output (with its end time) is in the output view');
    console.log(`figure output view shows the result ${seen - printed} ms after the command printed its last line`);
    titles = await until('the state lens', async () => {
      const t = await lenses();
      return t.some((x) => x.startsWith('exit 0')) ? t : undefined;
    }, 10000);
    check(true, `state lens shows the exit code (${JSON.stringify(titles)})`);
    // the state lens opens the output too
    await page.screenshot({ path: path.join(artifacts, 'vscode-output.png') });
    const outputTab = page.locator('.tabs-container .tab', { hasText: '.log' }).first();
    await outputTab.hover();
    await outputTab.locator('.codicon-close').click({ force: true });
    await until('the output view closed', async () => !(await editorText()).includes('[ok: exit 0'), 10000);
    await lens('exit 0').click();
    await until('the output view opened by the state lens', async () =>
      (await editorText()).includes('[ok: exit 0'), 10000);
    check(true, 'the state lens opens the run\'s output');

    // -- copy for AI after a Run: that run's capture ----------------------------------
    await palette('AIntern: Copy terminal context for AI');
    let state = await until('the clipboard', async () => {
      const s = await probe('state');
      return s.clipboard.includes('hello-from-vscode') ? s : undefined;
    }, 20000, 500);
    check(state.clipboard.startsWith('```'), 'copy for AI after a Run copies the run\'s capture');

    // -- a long run streams into its view --------------------------------------------
    await openDemo();
    await lens('Run', 3).click();
    await until('ticks streaming into the view', async () => {
      const t = await editorText();
      return t.includes('tick-2') && t.includes('[running…]') && !t.includes('tick-6');
    }, 20000, 100);
    check(true, 'a long run streams into its output view');
    await until('the long run\'s outcome', async () => {
      const t = await editorText();
      return t.includes('tick-6') && t.includes('[ok: exit 0');
    }, 20000, 100);
    check(true, 'the view ends with the outcome');

    // -- a prompt is answered from the editor --------------------------------------------
    await openDemo();
    await until('no running lens left', async () => !(await lenses()).some((t) => t.includes('Stop')), 20000, 200);
    const quick = page.locator('.quick-input-widget');
    const box = quick.locator('input');
    const quickTitle = async () =>
      (await quick.locator('.quick-input-title').innerText().catch(() => '')).replace(/\u00a0/g, ' ');
    const boxFor = async (what) => {
      await box.waitFor({ state: 'visible', timeout: 20000 });
      return until(`the input box for ${what}`, async () => {
        const title = await quickTitle();
        return title.includes(what) ? title : undefined;
      }, 10000);
    };
    await lens('Run', 4).click();
    await until('the waiting lens', async () => (await lenses()).some((t) => t.includes('waiting for input')), 20000, 100);
    check(true, 'a run waiting on its prompt shows "waiting for input" on its lens');
    let title = await boxFor('Answer the running command');
    const asks = await quick.locator('.quick-input-message').innerText();
    check(asks.includes('your name?') && title.includes('demo.md') && (await box.getAttribute('type')) === 'text',
      `an input box opens by itself, saying what the run asks (${JSON.stringify([title, asks])})`);
    await page.screenshot({ path: path.join(artifacts, 'vscode-waiting.png') });
    await box.fill('Ada');
    await page.keyboard.press('Enter');
    await until('the answered run\'s outcome', async () => {
      const t = await editorText();
      return t.includes('hello Ada') && t.includes('[ok: exit 0');
    }, 20000, 100);
    check(true, 'a read -p prompt is answered from the editor');
    await until('the lens no longer waiting', async () =>
      !(await lenses()).some((t) => t.includes('waiting for input') || t.includes('Stop')), 20000, 200);
    // Escape sends nothing: the run keeps waiting and the Answer lens asks again
    await lens('Run', 4).click();
    await boxFor('Answer the running command');
    await page.keyboard.press('Escape');
    await sleep(800);
    check((await lenses()).some((t) => t.includes('waiting for input')), 'Escape sends nothing: the run keeps waiting');
    await lens('Answer').click();
    await boxFor('Answer the running command');
    await box.fill('Bob');
    await page.keyboard.press('Enter');
    await until('the second answer\'s outcome', async () => {
      const t = await editorText();
      return t.includes('hello Bob') && t.includes('[ok: exit 0');
    }, 20000, 100);
    check(true, 'the Answer lens asks for the answer and sends it');

    // -- placeholders: their values are asked for in input boxes ---------------------
    await palette('View: Close All Editors');
    await page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'values.md' }).first().click();
    // every Run lens back (none waiting or running), so `lens('Run', n)` is block n
    const valuesSettled = () => until('the values document\'s Run lenses', async () => {
      const t = await lenses();
      return t.filter((x) => x === 'Run').length === 3 && !t.some((x) => /waiting|Stop/.test(x));
    }, 30000, 200);
    await valuesSettled();
    const hints = await until('the placeholder hints', async () => {
      const found = (await probe('state')).diagnostics.filter((d) => d.file === 'values.md' && d.code === 'placeholder');
      return found.length >= 2 ? found : undefined;
    }, 20000, 500);
    check(hints.every((d) => d.severity === 3) && ['<your-env>', '<your-token>'].every((t) => hints.some((d) => d.text === t)),
      `each placeholder has a hint diagnostic (${JSON.stringify(hints.map((d) => [d.text, d.severity, d.message]))})`);
    await page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'values.md' }).first().click();
    const valueBox = box;
    const askedFor = boxFor;
    // Type a value into the open input box and submit it: the box is re-filled until it
    // holds the value (a re-render can drop a fill), and on a timeout the error says what
    // the editors showed instead of only "false".
    const submitValue = async (value) => {
      await until(`the input box holding the value`, async () => {
        if ((await valueBox.inputValue()) !== value) await valueBox.fill(value);
        return (await valueBox.inputValue()) === value;
      }, 10000, 200);
      await page.keyboard.press('Enter');
    };
    const untilOutput = async (what, pred) => {
      let seen = '';
      try {
        await until(what, async () => pred((seen = await editorText())), 60000, 100);
      } catch (e) {
        throw new Error(`${e.message}\n--- the editors showed ---\n${seen.slice(-3000)}`);
      }
    };
    await lens('Run', 0).click();
    title = await askedFor('<your-env>');
    await page.screenshot({ path: path.join(artifacts, 'vscode-value-prompt.png') });
    check(title.includes('values.md') && title.includes('echo "deploying to <your-env>"'),
      `the input box names the placeholder and the block (${JSON.stringify(title)})`);
    await until('the Run lens waiting for the value', async () =>
      (await lenses()).some((t) => t.includes('waiting for your answer')), 10000, 200);
    check(await valueBox.getAttribute('type') === 'text', 'a plain value is typed in the clear');
    await submitValue('staging-42');
    await untilOutput('the value in the run\'s output',
      (t) => t.includes('deploying to staging-42') && t.includes('[ok: exit 0'));
    check(true, 'a placeholder\'s value typed in the input box is used by the run');
    await sleep(500);
    check(fs.readFileSync(path.join(workspace, 'values.md'), 'utf8') === valuesDoc
      && (await page.locator('.tabs-container .tab.dirty').count()) === 0,
    'the document is unchanged (on disk and in the editor)');

    await valuesSettled();
    await lens('Run', 1).click();
    title = await askedFor('<your-token>');
    check(await valueBox.getAttribute('type') === 'password', 'a secret-looking placeholder is asked in a password box');
    await submitValue('s3cr3t-e2e-value');
    await untilOutput('the secret redacted in the run\'s output',
      (t) => t.includes('token is [REDACTED:prompt:your-token]') && t.includes('[ok: exit 0'));
    check(!(await editorText()).includes('s3cr3t-e2e-value'), 'a secret value is redacted from the output');

    await valuesSettled();
    await lens('Run', 0).click();
    await askedFor('<your-env>');
    await quick.locator('.quick-input-titlebar .action-label.codicon-unlock').click();
    await until('the lock button hides the value', async () =>
      (await valueBox.getAttribute('type')) === 'password', 5000);
    check(true, 'the lock button marks a value secret');
    await valueBox.fill('never-used');
    await page.keyboard.press('Escape');
    await until('the cancelled run\'s message', async () =>
      (await page.locator('.statusbar').innerText()).includes('not run: cancelled at the value prompt'), 10000, 100);
    check(true, 'Escape cancels the run with the server\'s message');
    await until('the Run lens back', async () =>
      !(await lenses()).some((t) => t.includes('waiting for your answer')), 10000, 200);
    check(!(await editorText()).includes('never-used'), 'a cancelled value is not used');

    // a password prompt (echo off) is answered in a password box
    await valuesSettled();
    await lens('Run', 2).click();
    title = await boxFor('Answer the running command');
    check((await box.getAttribute('type')) === 'password', 'a password prompt is answered in a password box');
    await box.fill('hunter22');
    await page.keyboard.press('Enter');
    await until('the password run\'s outcome', async () => {
      const t = await editorText();
      return t.includes('got 8 chars') && t.includes('[ok: exit 0');
    }, 20000, 100);
    check(!(await editorText()).includes('hunter22'), 'the password is used and not echoed');

    // -- settings apply at once -------------------------------------------------------
    await openDemo();
    wsSettings({ 'aintern.safety.extraBlocked': ['echo sent-from-vscode'] });
    await until('a second blocked lens after a settings change', async () =>
      (await lenses()).filter((t) => t.startsWith('blocked')).length === 2, 30000, 300);
    check(true, 'a settings change applies without a restart');
    wsSettings({});
    await until('one blocked lens again', async () =>
      (await lenses()).filter((t) => t.startsWith('blocked')).length === 1, 30000, 300);

    // -- dangerous Send asks in a modal; the lens waits ---------------------------------
    await lens('Send to terminal', 1).click();
    await dialog.waitFor({ state: 'visible', timeout: 20000 });
    check((await dialog.innerText()).includes('rm -rf ./build'), 'a dangerous Send asks in a modal dialog');
    titles = await until('the waiting lens', async () => {
      const t = await lenses();
      return t.some((x) => x.includes('waiting for your answer')) ? t : undefined;
    }, 10000, 200);
    check(true, 'the lens says it waits for the answer');
    await dialog.locator('.monaco-button', { hasText: 'Cancel' }).click();
    await sleep(1500);
    check(fs.existsSync(path.join(workspace, 'build')), 'Cancel sends nothing');
    await lens('Send to terminal', 1).click();
    await dialog.waitFor({ state: 'visible', timeout: 20000 });
    await dialog.locator('.monaco-button', { hasText: 'Run anyway' }).click();
    await until('build removed by the sent command', async () => !fs.existsSync(path.join(workspace, 'build')), 30000, 300);
    check(true, '"Run anyway" sends it to a terminal');

    // -- two Sends, one terminal --------------------------------------------------------
    await openDemo();
    await lens('Send to terminal', 2).click();
    await sleep(1500);
    await openDemo();
    await lens('Send to terminal', 2).click();
    await sleep(1500);
    state = await probe('state');
    const ours = state.terminals.filter((t) => t.startsWith('aintern:'));
    check(ours.length === 1, `Sends of one document reuse one terminal (${JSON.stringify(state.terminals)})`);

    // -- the user's own terminal: copy for AI says so; the tool reads its last command -
    await palette('Terminal: Create New Terminal');
    await sleep(3000);
    // VS Code's execution.read() gives only what the command prints after the
    // extension got the start event: a command that prints at once can race it on a
    // loaded machine, so this one waits a moment first
    await page.keyboard.type('sleep 0.5; echo user-term-$((6*7)); (exit 3)\n', { delay: 20 });
    await sleep(4000);
    await palette('AIntern: Copy terminal context for AI');
    const toast = page.locator('.notifications-toasts', { hasText: 'is not an aintern terminal' });
    await toast.waitFor({ state: 'visible', timeout: 10000 });
    check(true, 'copy for AI with somebody else\'s terminal active says so');

    const tools = await probe('tools');
    console.log(`probe: ${JSON.stringify(tools)}`);
    check(tools.lm === true, 'this VS Code has the language-model tools API');
    check(
      ['aintern_runCommand', 'aintern_readCapture', 'aintern_terminalLastCommand', 'aintern_checkCommand']
        .every((n) => tools.tools.includes(n)),
      'all four aintern tools are registered',
    );
    check(tools.check.ok && tools.check.text.startsWith('level: blocked'), 'check tool: rm -rf / is blocked');
    check(tools.run.ok && tools.run.text.includes('exit code 4') && tools.run.text.includes('probe-run-42'),
      'run tool: output and exit code');
    check(tools.read.ok && tools.read.text.startsWith('probe-run-4'), 'read-capture tool pages the capture');
    check(!tools.blocked.ok && /blocked/.test(tools.blocked.error), 'run tool refuses a blocked command');
    check(tools.last.ok && tools.last.text.includes('user-term-42') && tools.last.text.includes('Exit code: 3')
      && !tools.last.text.includes('\u001b'), 'last-command tool: the user\'s terminal command, clean, with exit code');

    // -- a dangerous tool call: VS Code's confirmation shows the level and reasons ------
    const build2 = path.join(workspace, 'build2');
    fs.mkdirSync(build2);
    dangerousAnswer = 'Cancel';
    let dangerous = await probe('dangerous');
    check(/dangerous/i.test(dangerousAsked[0]) && dangerousAsked[0].includes('rm -rf ./build2'),
      `a dangerous tool call asks with its level and reasons (${JSON.stringify(dangerousAsked[0])})`);
    check(!dangerous.ok && fs.existsSync(build2), 'declined: the tool call fails and nothing ran');
    dangerousAnswer = 'Yes';
    dangerous = await probe('dangerous');
    check(dangerous.ok && dangerous.text.includes('exit code 0') && !fs.existsSync(build2),
      'confirmed: the tool call runs it');

    // -- a bad server path, then Restart recovers ---------------------------------------
    await palette('Notifications: Clear All Notifications');
    await openDemo();
    wsSettings({ 'aintern.serverPath': '/nonexistent/aintern-ls' });
    const failure = page.locator('.notifications-toasts', { hasText: 'aintern.serverPath' });
    await failure.waitFor({ state: 'visible', timeout: 30000 });
    await sleep(2000);
    const toasts = await page.locator('.notifications-toasts .notification-toast').allInnerTexts();
    check((await failure.innerText()).includes('Open Settings'), 'a bad server path says aintern.serverPath, with Open Settings');
    check(toasts.filter((t) => /aintern/i.test(t)).length === 1, `one error toast, not two (${JSON.stringify(toasts)})`);
    wsSettings({});
    await palette('AIntern: Restart language server');
    await until('lenses back after Restart', async () => (await lenses()).includes('Run'), 60000, 500);
    check(true, 'Restart recovers after a failed start');
    console.log('ALL OK');
  } catch (err) {
    if (page) {
      await page.screenshot({ path: path.join(artifacts, 'failure.png') }).catch(() => undefined);
    }
    throw err;
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
