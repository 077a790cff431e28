// Test-only extension for e2e/run.js: invokes every aintern language-model tool with
// vscode.lm.invokeTool and reports editor state (terminals, clipboard) into files in
// the workspace, where the test reads them.
const fs = require('node:fs');
const path = require('node:path');
const vscode = require('vscode');

function report(name, data) {
  const dir = vscode.workspace.workspaceFolders[0].uri.fsPath;
  fs.writeFileSync(path.join(dir, `.probe-${name}.json`), JSON.stringify(data, null, 2));
}

async function call(name, input) {
  try {
    const result = await vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined });
    return { ok: true, text: result.content.map((p) => (typeof p.value === 'string' ? p.value : '')).join('') };
  } catch (err) {
    return { ok: false, error: String((err && err.message) || err) };
  }
}

exports.activate = (context) => {
  context.subscriptions.push(
    vscode.commands.registerCommand('ainternProbe.tools', async () => {
      const out = { lm: Boolean(vscode.lm && vscode.lm.invokeTool) };
      try {
        out.tools = vscode.lm.tools.map((t) => t.name).filter((n) => n.startsWith('aintern_'));
        out.check = await call('aintern_checkCommand', { command: 'rm -rf /' });
        out.run = await call('aintern_runCommand', { command: 'echo probe-run-$((6*7)); exit 4' });
        const id = /captureId: ([\w-]+)/.exec(out.run.text || '');
        out.read = await call('aintern_readCapture', { captureId: id ? id[1] : 'none', offset: 0, limit: 11 });
        out.blocked = await call('aintern_runCommand', { command: 'rm -rf /' });
        out.last = await call('aintern_terminalLastCommand', {});
      } catch (err) {
        out.error = String((err && err.stack) || err);
      }
      report('tools', out);
    }),
    vscode.commands.registerCommand('ainternProbe.dangerous', async () => {
      report('dangerous', await call('aintern_runCommand', { command: 'rm -rf ./build2' }));
    }),
    vscode.commands.registerCommand('ainternProbe.state', async () => {
      report('state', {
        terminals: vscode.window.terminals.map((t) => t.name),
        clipboard: await vscode.env.clipboard.readText(),
        editors: vscode.window.visibleTextEditors.map((e) => e.document.uri.toString()),
        diagnostics: vscode.languages.getDiagnostics().flatMap(([uri, list]) =>
          list.map((d) => ({
            file: path.basename(uri.fsPath),
            severity: d.severity, // 0 error, 1 warning, 2 information, 3 hint
            code: typeof d.code === 'object' && d.code ? d.code.value : d.code,
            text: vscode.workspace.textDocuments.find((t) => t.uri.toString() === uri.toString())?.getText(d.range),
            message: d.message,
          })),
        ),
      });
    }),
  );
};
