// VS Code client for aintern-ls. The server does the work; this adds what only the
// editor can: the clipboard, server terminal sessions shown as real terminals, and a
// command that copies terminal output as AI context.
import * as vscode from 'vscode';
import {
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
} from 'vscode-languageclient/node';

import { PendingOutput, describeResult, serverSettings } from './settings';

let client: LanguageClient | undefined;
const terminals = new Map<string, { pty: ServerTerminal; terminal: vscode.Terminal }>();

/** A server terminal session mirrored as a VS Code terminal. */
class ServerTerminal implements vscode.Pseudoterminal {
  private readonly writeEmitter = new vscode.EventEmitter<string>();
  private readonly closeEmitter = new vscode.EventEmitter<number | void>();
  private readonly pending = new PendingOutput();
  readonly onDidWrite = this.writeEmitter.event;
  readonly onDidClose = this.closeEmitter.event;

  constructor(private readonly id: string) {}

  open(dimensions: vscode.TerminalDimensions | undefined): void {
    this.pending.open((data) => this.writeEmitter.fire(data));
    if (dimensions) {
      this.setDimensions(dimensions);
    }
  }

  close(): void {
    terminals.delete(this.id);
    void execute('aintern.terminal.close', { terminalId: this.id }).catch(() => undefined);
  }

  handleInput(data: string): void {
    void execute('aintern.terminal.input', { terminalId: this.id, data });
  }

  setDimensions(d: vscode.TerminalDimensions): void {
    void execute('aintern.terminal.resize', { terminalId: this.id, cols: d.columns, rows: d.rows });
  }

  output(data: string): void {
    this.pending.write(data);
  }

  exited(code: number | null): void {
    this.closeEmitter.fire(code ?? undefined);
  }
}

function execute(command: string, args: Record<string, unknown>): Promise<any> {
  if (!client) {
    return Promise.reject(new Error('aintern-ls is not running'));
  }
  return client.sendRequest('workspace/executeCommand', { command, arguments: [args] });
}

function showTerminal(id: string, reveal: boolean): ServerTerminal {
  let entry = terminals.get(id);
  if (!entry) {
    const pty = new ServerTerminal(id);
    const terminal = vscode.window.createTerminal({ name: `aintern: ${id}`, pty });
    entry = { pty, terminal };
    terminals.set(id, entry);
  }
  if (reveal) {
    entry.terminal.show(true);
  }
  return entry.pty;
}

function settings(): Record<string, unknown> {
  const config = vscode.workspace.getConfiguration('aintern');
  const flat: Record<string, unknown> = {};
  const keys = Object.keys(
    (vscode.extensions.getExtension('aintern.aintern-ls')?.packageJSON?.contributes?.configuration
      ?.properties ?? {}) as Record<string, unknown>,
  ).map((k) => k.replace(/^aintern\./, ''));
  for (const key of keys) {
    flat[key] = config.get(key);
  }
  return serverSettings(flat);
}

async function start(context: vscode.ExtensionContext): Promise<void> {
  const config = vscode.workspace.getConfiguration('aintern');
  const serverOptions: ServerOptions = {
    command: config.get<string>('serverPath', 'aintern-ls'),
    args: config.get<string[]>('serverArgs', ['--stdio']),
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { scheme: 'file', language: 'markdown' },
      { scheme: 'untitled', language: 'markdown' },
      { scheme: 'file', pattern: '**/*.chat.md' },
    ],
    initializationOptions: { aintern: settings() },
    middleware: {
      workspace: {
        didChangeConfiguration: async () => {
          await client?.sendNotification('workspace/didChangeConfiguration', {
            settings: { aintern: settings() },
          });
          return undefined;
        },
      },
      // Server commands run on the server; the editor-only half happens here.
      executeCommand: async (command, args, next) => {
        try {
          const result = await next(command, args);
          if (command === 'aintern.copy' && result?.text !== undefined) {
            await vscode.env.clipboard.writeText(result.text);
            vscode.window.setStatusBarMessage('aintern: command copied', 3000);
          } else if (command === 'aintern.sendToTerminal' && result?.terminalId) {
            showTerminal(result.terminalId, true);
          } else if (command === 'aintern.run' && result) {
            vscode.window.setStatusBarMessage(`aintern: ${describeResult(result)}`, 5000);
          }
          return result;
        } catch (err) {
          vscode.window.showErrorMessage(`aintern: ${(err as Error).message}`);
          return undefined;
        }
      },
    },
  };
  client = new LanguageClient('aintern-ls', 'AIntern', serverOptions, clientOptions);
  context.subscriptions.push(
    client.onNotification('aintern/terminalOutput', (p: { terminalId: string; data: string }) =>
      showTerminal(p.terminalId, false).output(p.data),
    ),
    client.onNotification('aintern/terminalExit', (p: { terminalId: string; exitCode: number | null }) =>
      terminals.get(p.terminalId)?.pty.exited(p.exitCode),
    ),
  );
  await client.start();
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  context.subscriptions.push(
    vscode.commands.registerCommand('aintern.copyTerminalContext', async () => {
      const active = vscode.window.activeTerminal;
      const id = [...terminals.entries()].find(([, e]) => e.terminal === active)?.[0];
      try {
        const capture = await execute('aintern.capture', { terminalId: id, mode: 'lastCommand' });
        await vscode.env.clipboard.writeText(capture.contextString);
        vscode.window.showInformationMessage(
          `aintern: terminal context copied (~${capture.estimatedTokens} tokens)`,
        );
      } catch (err) {
        vscode.window.showErrorMessage(`aintern: ${(err as Error).message}`);
      }
    }),
    vscode.commands.registerCommand('aintern.restartServer', async () => {
      await client?.stop();
      await start(context);
    }),
  );
  await start(context);
}

export async function deactivate(): Promise<void> {
  await client?.stop();
  client = undefined;
}
