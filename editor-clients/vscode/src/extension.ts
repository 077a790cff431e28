// VS Code client for aintern-ls. The server does the work; this adds what only the
// editor can: the clipboard, a read-only view of each run's output, server terminal
// sessions shown as real terminals, a modal confirmation, a status-bar item, commands
// with keybindings, and language-model tools for AI assistants.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import {
  LanguageClient,
  LanguageClientOptions,
  RevealOutputChannelOn,
  ServerOptions,
} from 'vscode-languageclient/node';

import {
  PendingOutput,
  RunOutput,
  describeResult,
  fenceAt,
  isOutcomeTitle,
  outputDocument,
  serverSettings,
  withIcons,
} from './settings';
import {
  Asked,
  PROMPT_METHOD,
  Question,
  WAITING_NOTIFICATION,
  announce,
  answer as answerPrompt,
  answerBox,
  checkWaiting,
  needsAnswer,
} from './prompts';
import { ShellHistory, registerTools } from './tools';

const OUTPUT_SCHEME = 'aintern-output';

let client: LanguageClient | undefined;
let clientSubscriptions: vscode.Disposable[] = [];
let channel: vscode.LogOutputChannel;
let statusItem: vscode.StatusBarItem;
let serverState: 'starting' | 'ready' | 'failed' = 'starting';
let lastCaptureId: string | undefined;
const terminals = new Map<string, { pty: ServerTerminal; terminal: vscode.Terminal }>();
const running = new Set<string>(); // `${uri}#${blockId}` of blocks running now
const inFlight = new Set<string>(); // run/send requests this window is waiting for
const waiting = new Set<string>(); // blocks whose run waits for the user's answer

const key = (uri: string, blockId: string) => `${uri}#${blockId}`;

/** The library would show its own toast next to ours when the server fails to start;
 * errors go to the log here and the extension shows one message that says what to do. */
class Client extends LanguageClient {
  override error(message: string, data?: unknown): void {
    super.error(message, data, false);
  }
}

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
    void execute('aintern.terminal.input', { terminalId: this.id, data }).catch(() => undefined);
  }

  setDimensions(d: vscode.TerminalDimensions): void {
    // the PTY follows the terminal's size
    void execute('aintern.terminal.resize', {
      terminalId: this.id,
      cols: d.columns,
      rows: d.rows,
    }).catch(() => undefined);
  }

  output(data: string): void {
    this.pending.write(data);
  }

  exited(code: number | null): void {
    this.closeEmitter.fire(code ?? undefined);
  }
}

function execute(command: string, args: Record<string, unknown>): Promise<any> {
  if (!client || !client.isRunning()) {
    return Promise.reject(new Error('aintern-ls is not running (see the AIntern status-bar item)'));
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

function ourTerminal(terminal: vscode.Terminal): string | undefined {
  return [...terminals.entries()].find(([, e]) => e.terminal === terminal)?.[0];
}

function settings(): Record<string, unknown> {
  const config = vscode.workspace.getConfiguration('aintern');
  const flat: Record<string, unknown> = {};
  const keys = Object.keys(
    (vscode.extensions.getExtension('aintern.aintern-ls')?.packageJSON?.contributes?.configuration
      ?.properties ?? {}) as Record<string, unknown>,
  ).map((k) => k.replace(/^aintern\./, ''));
  for (const k of keys) {
    flat[k] = config.get(k);
  }
  return serverSettings(flat);
}

// ---------------------------------------------------------------- status bar

function updateStatus(): void {
  if (serverState === 'failed') {
    statusItem.text = '$(error) aintern';
    statusItem.tooltip = 'aintern-ls is not running: click to restart it';
    statusItem.command = 'aintern.restartServer';
  } else if (serverState === 'starting') {
    statusItem.text = '$(loading~spin) aintern';
    statusItem.tooltip = 'aintern-ls is starting';
    statusItem.command = 'aintern.showLog';
  } else if (running.size > 0) {
    statusItem.text = `$(loading~spin) aintern: ${running.size} running`;
    statusItem.tooltip = 'Commands running: click to stop the one under the cursor';
    statusItem.command = 'aintern.stop';
  } else {
    statusItem.text = '$(terminal) aintern';
    statusItem.tooltip = 'aintern-ls is running: click for its log';
    statusItem.command = 'aintern.showLog';
  }
  statusItem.show();
}

// --------------------------------------------------------------- output views

/** Read-only documents `aintern-output:` showing one block's run: streamed while it
 * runs, the capture once it ended. */
class OutputViews implements vscode.TextDocumentContentProvider {
  private readonly emitter = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.emitter.event;
  private readonly live = new Set<string>();
  private timer: NodeJS.Timeout | undefined;

  uriFor(docUri: string, blockId: string): vscode.Uri {
    const name = path.posix.basename(vscode.Uri.parse(docUri).path) || 'document';
    return vscode.Uri.from({
      scheme: OUTPUT_SCHEME,
      path: `/${name} · ${blockId}.log`,
      query: JSON.stringify({ uri: docUri, blockId }),
    });
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const args = JSON.parse(uri.query) as { uri: string; blockId: string };
    let out: RunOutput;
    try {
      out = await execute('aintern.runOutput', args);
    } catch (err) {
      return `(no output: ${(err as Error).message})\n`;
    }
    if (out.running) {
      this.live.add(uri.toString());
      this.poll();
    } else {
      this.live.delete(uri.toString());
    }
    if (out.captureId) {
      lastCaptureId = out.captureId;
    }
    return outputDocument(out);
  }

  /** Re-read the views of this block (or of all open views). */
  refresh(docUri?: string, blockId?: string): void {
    const wanted = docUri && blockId ? this.uriFor(docUri, blockId).toString() : undefined;
    for (const doc of vscode.workspace.textDocuments) {
      if (doc.uri.scheme === OUTPUT_SCHEME && (!wanted || doc.uri.toString() === wanted)) {
        this.emitter.fire(doc.uri);
      }
    }
  }

  private poll(): void {
    if (this.timer) {
      return;
    }
    this.timer = setInterval(() => {
      const open = new Set(vscode.workspace.textDocuments.map((d) => d.uri.toString()));
      for (const uri of [...this.live]) {
        if (open.has(uri)) {
          this.emitter.fire(vscode.Uri.parse(uri));
        } else {
          this.live.delete(uri);
        }
      }
      if (this.live.size === 0 && this.timer) {
        clearInterval(this.timer);
        this.timer = undefined;
      }
    }, 500);
  }

  async show(docUri: string, blockId: string): Promise<void> {
    const uri = this.uriFor(docUri, blockId);
    const visible = vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === uri.toString());
    if (visible) {
      this.emitter.fire(uri);
      return;
    }
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc, {
      viewColumn: vscode.ViewColumn.Beside,
      preserveFocus: true,
      preview: true,
    });
  }

  dispose(): void {
    if (this.timer) {
      clearInterval(this.timer);
    }
  }
}

const outputs = new OutputViews();

// ------------------------------------------------------------------ lenses

function refreshLenses(): void {
  try {
    const feature = client?.getFeature('textDocument/codeLens');
    for (const editor of vscode.window.visibleTextEditors) {
      feature?.getProvider(editor.document)?.onDidChangeCodeLensEmitter.fire();
    }
  } catch {
    // a client that is stopping has no lens feature
  }
}

const lensTimers: NodeJS.Timeout[] = [];

/** Refresh lenses shortly, and once more a second later: in code-server a refresh was
 * seen to be lost now and then, leaving a finished block's lens at "running… Stop". */
function refreshLensesSoon(): void {
  lensTimers.splice(0).forEach(clearTimeout);
  for (const delay of [150, 1200]) {
    lensTimers.push(setTimeout(refreshLenses, delay));
  }
}

function rewriteLens(lens: vscode.CodeLens): void {
  const cmd = lens.command;
  if (!cmd) {
    return;
  }
  const arg = cmd.arguments?.[0] as { uri?: string; blockId?: string } | undefined;
  if (cmd.command === 'aintern.run' && arg?.uri && arg.blockId && waiting.has(key(arg.uri, arg.blockId))) {
    cmd.title = '$(question) waiting for your answer';
    return;
  }
  if (cmd.command === 'aintern.showRisk' && isOutcomeTitle(cmd.title)) {
    cmd.command = 'aintern.showOutput';
    cmd.tooltip = 'Show what this run printed';
  }
  cmd.title = withIcons(cmd.title);
}

// --------------------------------------------------------- placeholder values

const TRACE_WARNING =
  ' Warning: the protocol trace is verbose (aintern-ls.trace.server), so the AIntern log will show this value.';

/** Whether vscode-languageclient logs message payloads (trace "verbose" with the log at
 * Trace level): then an answer's values would be in the log, and the person is told. */
function tracesPayloads(): boolean {
  const trace = vscode.workspace.getConfiguration('aintern-ls').get<unknown>('trace.server');
  const verbosity = typeof trace === 'object' && trace ? (trace as { verbosity?: unknown }).verbosity : trace;
  return verbosity === 'verbose' && channel.logLevel === vscode.LogLevel.Trace;
}

/** One value in an input box. The lock button marks it secret (hidden while typed and
 * redacted from the output by the server); names that look secret start locked. The
 * value is only returned: nothing here logs or stores it. */
function askValue(q: Question, token: vscode.CancellationToken): Promise<Asked> {
  return new Promise((resolve) => {
    const box = vscode.window.createInputBox();
    let secret = q.secret;
    const lock = (): vscode.QuickInputButton => ({
      iconPath: new vscode.ThemeIcon(secret ? 'lock' : 'unlock'),
      tooltip: secret
        ? 'Secret: hidden, and redacted from the output (click to treat it as plain text)'
        : 'Mark secret: hide it, and redact it from the output',
    });
    box.title = q.title;
    box.prompt = q.prompt + (tracesPayloads() ? TRACE_WARNING : '');
    box.placeholder = q.hint;
    box.password = secret;
    box.ignoreFocusOut = true;
    box.buttons = [lock()];
    let done = false;
    const subscriptions: vscode.Disposable[] = [];
    const finish = (got: Asked) => {
      if (done) {
        return;
      }
      done = true;
      resolve(got);
      subscriptions.forEach((d) => d.dispose());
      box.value = '';
      box.dispose();
    };
    subscriptions.push(
      box.onDidTriggerButton(() => {
        secret = !secret;
        box.password = secret;
        box.buttons = [lock()];
      }),
      box.onDidAccept(() => finish({ value: box.value, secret })),
      box.onDidHide(() => finish(undefined)),
      token.onCancellationRequested(() => finish(undefined)),
    );
    box.show();
  });
}

/** VS Code shows one input at a time: questions of runs started together wait in turn. */
let promptQueue: Promise<unknown> = Promise.resolve();

async function answerPromptValues(params: unknown, token: vscode.CancellationToken): Promise<unknown> {
  const p = (params ?? {}) as { uri?: unknown; blockId?: unknown };
  const k = typeof p.uri === 'string' && typeof p.blockId === 'string' ? key(p.uri, p.blockId) : undefined;
  const turn = promptQueue.then(async () => {
    if (token.isCancellationRequested) {
      return null;
    }
    if (k) {
      waiting.add(k); // the Run lens says it waits for the answer
      refreshLenses();
      refreshLensesSoon(); // a refresh can be lost while lenses are being fetched
    }
    answering?.close(); // one input at a time: the value prompt wins
    asking += 1;
    try {
      return await answerPrompt(params, (q) => askValue(q, token));
    } finally {
      asking -= 1;
      if (k) {
        waiting.delete(k);
        refreshLenses();
        refreshLensesSoon();
      }
    }
  });
  promptQueue = turn.catch(() => undefined);
  return turn;
}

// --------------------------------------------------- a run waiting for input

let asking = 0; // value prompts open
let answering: { key: string; close: () => void } | undefined; // the open answer box

/** Ask for the answer to a running block's prompt and type it into the run. `auto`: offered
 * because the server said the run waits; it gives way to any other open input. */
async function answerRun(
  block: { uri: string; blockId: string },
  wait: { prompt?: string; secret?: boolean } = {},
  auto = false,
): Promise<void> {
  const k = key(block.uri, block.blockId);
  if (answering?.key === k || (auto && (answering || asking > 0))) {
    return;
  }
  answering?.close();
  const slot = {
    key: k,
    closed: false,
    finish: undefined as (() => void) | undefined,
    close(): void {
      this.closed = true;
      this.finish?.();
    },
  };
  answering = slot;
  let command: string | undefined;
  let { prompt, secret } = wait;
  try {
    const out: RunOutput = await execute('aintern.runOutput', block);
    command = out.command;
    if (prompt === undefined) {
      prompt = out.waitingForInput?.prompt ?? (out.text ?? '').trimEnd().split('\n').pop() ?? '';
      secret = secret ?? out.waitingForInput?.secret;
    }
    if (auto && !out.waitingForInput) {
      slot.closed = true; // answered meanwhile, or the run ended
    }
  } catch {
    // ask without the command's name
  }
  if (slot.closed || answering !== slot) {
    if (answering === slot) {
      answering = undefined;
    }
    return; // the wait ended, or another box took over, while the output was read
  }
  const spec = answerBox({ uri: block.uri, prompt, secret, command });
  const text = await new Promise<string | undefined>((resolve) => {
    const box = vscode.window.createInputBox();
    box.title = spec.title;
    box.prompt = spec.prompt;
    box.password = spec.password;
    box.ignoreFocusOut = true;
    let done = false;
    const finish = (got: string | undefined) => {
      if (!done) {
        done = true;
        resolve(got);
        box.dispose();
      }
    };
    slot.finish = () => finish(undefined);
    box.onDidAccept(() => finish(box.value));
    box.onDidHide(() => finish(undefined));
    box.show();
  });
  if (answering === slot) {
    answering = undefined;
  }
  if (text === undefined) {
    return; // nothing sent: the run keeps waiting (■ Stop ends it)
  }
  try {
    await execute('aintern.run.input', { uri: block.uri, blockId: block.blockId, text });
    outputs.refresh(block.uri, block.blockId);
  } catch (err) {
    reportError(err);
  }
}

// ------------------------------------------------------------------ errors

function reportError(err: unknown): void {
  const message = (err as Error)?.message ?? String(err);
  channel.warn(message.replace(/\s+/g, ' '));
  void vscode.window.showErrorMessage(`aintern: ${message}`);
}

function findExecutable(command: string): string | undefined {
  const isFile = (p: string) => {
    try {
      fs.accessSync(p, fs.constants.X_OK);
      return fs.statSync(p).isFile();
    } catch {
      return false;
    }
  };
  const expanded = command.replace(/^~(?=$|[\\/])/, process.env.HOME ?? '~');
  if (expanded.includes('/') || expanded.includes('\\')) {
    return isFile(expanded) ? expanded : undefined;
  }
  const exts = process.platform === 'win32' ? (process.env.PATHEXT ?? '.EXE').split(';') : [''];
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    for (const ext of exts) {
      const candidate = path.join(dir, expanded + ext);
      if (dir && isFile(candidate)) {
        return candidate;
      }
    }
  }
  return undefined;
}

function startFailed(message: string): void {
  serverState = 'failed';
  updateStatus();
  channel.error(message);
  void vscode.window
    .showErrorMessage(
      `aintern: ${message}. Set "aintern.serverPath" to the aintern-ls executable, ` +
        'then restart the language server.',
      'Open Settings',
      'Restart',
    )
    .then((choice) => {
      if (choice === 'Open Settings') {
        void vscode.commands.executeCommand('workbench.action.openSettings', 'aintern.serverPath');
      } else if (choice === 'Restart') {
        void vscode.commands.executeCommand('aintern.restartServer');
      }
    });
}

// ------------------------------------------------------------------ client

async function onRunResult(command: string, arg: Record<string, any>, result: any): Promise<void> {
  if (command === 'aintern.copy' && result?.text !== undefined) {
    await vscode.env.clipboard.writeText(result.text);
    vscode.window.setStatusBarMessage('$(copy) aintern: command copied', 3000);
  } else if (command === 'aintern.sendToTerminal' && result?.terminalId) {
    showTerminal(result.terminalId, true);
  } else if (command === 'aintern.sendToTerminal' && result?.declined) {
    vscode.window.setStatusBarMessage('aintern: not sent', 3000);
  } else if (command === 'aintern.run' && result) {
    if (result.captureId) {
      lastCaptureId = result.captureId;
    }
    vscode.window.setStatusBarMessage(`aintern: ${describeResult(result)}`, 5000);
    if (arg.uri && arg.blockId) {
      outputs.refresh(arg.uri, arg.blockId);
    }
  } else if (command === 'aintern.runAll' && Array.isArray(result)) {
    const last = result.filter((r) => r?.captureId).pop();
    if (last) {
      lastCaptureId = last.captureId;
    }
  }
}

async function start(context: vscode.ExtensionContext): Promise<void> {
  const config = vscode.workspace.getConfiguration('aintern');
  const configured = config.get<string>('serverPath', 'aintern-ls') || 'aintern-ls';
  serverState = 'starting';
  updateStatus();
  const command = findExecutable(configured);
  if (!command) {
    startFailed(`the language server "${configured}" was not found`);
    return;
  }
  const serverOptions: ServerOptions = {
    command,
    args: config.get<string[]>('serverArgs', ['--stdio']),
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { scheme: 'file', language: 'markdown' },
      { scheme: 'untitled', language: 'markdown' },
      { scheme: 'file', pattern: '**/*.chat.md' },
    ],
    initializationOptions: { aintern: settings() },
    outputChannel: channel,
    revealOutputChannelOn: RevealOutputChannelOn.Never,
    middleware: {
      provideCodeLenses: async (document, token, next) => {
        const lenses = (await next(document, token)) ?? [];
        // lens arguments name their block only (`{blockId, level, needsConfirmation}`:
        // a huge transcript's answer does not repeat the URI in every lens); what runs
        // here reads `uri` too, so it is put back from the document
        const uri = client ? client.code2ProtocolConverter.asUri(document.uri) : document.uri.toString();
        for (const lens of lenses) {
          const arg = lens.command?.arguments?.[0] as Record<string, unknown> | undefined;
          if (arg && typeof arg === 'object' && arg.uri === undefined) {
            arg.uri = uri;
          }
        }
        lenses.forEach(rewriteLens);
        // a running block can be answered (a `read -p` or `[y/N]` prompt): the server
        // shows `✎ Answer` when it sees the run wait; before that (or where it cannot
        // tell) this Answer lens does the same
        const answered = new Set(
          lenses.filter((l) => l.command?.command === 'aintern.run.input').map((l) => l.range.start.line),
        );
        for (const lens of [...lenses]) {
          if (lens.command?.command === 'aintern.cancel' && !answered.has(lens.range.start.line)) {
            lenses.push(
              new vscode.CodeLens(lens.range, {
                title: '$(keyboard) Answer',
                command: 'aintern.answerRun',
                tooltip: 'Type an answer to the command\'s prompt',
                arguments: lens.command.arguments,
              }),
            );
          }
        }
        return lenses;
      },
      // a huge document's lenses come unresolved (range and `data`): VS Code resolves
      // those on screen; the server's answer already has the `uri` in the arguments
      resolveCodeLens: async (codeLens, token, next) => {
        const lens = await next(codeLens, token);
        if (lens) {
          rewriteLens(lens);
        }
        return lens;
      },
      // Server commands run on the server; the editor-only half happens here. The
      // request goes straight to the server so a refusal is one message, not two.
      executeCommand: async (cmd, args) => {
        const arg = (args[0] ?? {}) as Record<string, any>;
        if (needsAnswer(cmd, arg) && arg.uri && arg.blockId) {
          // the ✎ Answer lens: ask here, then send the text
          await answerRun({ uri: arg.uri, blockId: String(arg.blockId) }, { prompt: arg.prompt, secret: arg.secret });
          return undefined;
        }
        const k = arg.uri ? key(arg.uri, cmd === 'aintern.runAll' ? '*' : String(arg.blockId)) : undefined;
        if (k && (cmd === 'aintern.run' || cmd === 'aintern.sendToTerminal' || cmd === 'aintern.runAll')) {
          inFlight.add(k);
        }
        try {
          const result = await execute(cmd, arg);
          await onRunResult(cmd, arg, result);
          return result;
        } catch (err) {
          reportError(err);
          return undefined;
        } finally {
          if (k) {
            inFlight.delete(k);
          }
        }
      },
    },
  };
  const c = new Client('aintern-ls', 'AIntern', serverOptions, clientOptions);
  client = c;
  // tell the server this client answers `aintern/promptValues`
  c.registerFeature({
    fillClientCapabilities: (capabilities) => announce(capabilities),
    initialize: () => undefined,
    getState: () => ({ kind: 'static' }),
    clear: () => undefined,
  });
  clientSubscriptions = [
    c.onNotification('aintern/terminalOutput', (p: { terminalId: string; data: string }) =>
      showTerminal(p.terminalId, false).output(p.data),
    ),
    c.onNotification('aintern/terminalExit', (p: { terminalId: string; exitCode: number | null }) =>
      terminals.get(p.terminalId)?.pty.exited(p.exitCode),
    ),
    c.onNotification('aintern/blockStatus', (p: { uri: string; blockId: string; status: string }) => {
      const k = key(p.uri, p.blockId);
      if (p.status === 'executing') {
        running.add(k);
        const ours = inFlight.has(k) || inFlight.has(key(p.uri, '*'));
        if (ours && vscode.workspace.getConfiguration('aintern').get<boolean>('output.openOnRun', true)) {
          void outputs.show(p.uri, p.blockId);
        }
      } else {
        running.delete(k);
      }
      updateStatus();
      outputs.refresh(p.uri, p.blockId);
      // the server asks VS Code to refresh lenses too, but a refresh that arrives while
      // lenses are being fetched can be lost, leaving a stale "running… Stop" lens
      refreshLensesSoon();
    }),
    // a run waits on a prompt: offer the answer box for runs started here
    c.onNotification(WAITING_NOTIFICATION, (params: unknown) => {
      const w = checkWaiting(params);
      if (!w) {
        return;
      }
      const k = key(w.uri, w.blockId);
      outputs.refresh(w.uri, w.blockId);
      refreshLensesSoon();
      if (!w.waiting) {
        if (answering?.key === k) {
          answering.close(); // answered elsewhere, output resumed, or the run ended
        }
        return;
      }
      const ours = inFlight.has(k) || inFlight.has(key(w.uri, '*'));
      if (ours && vscode.workspace.getConfiguration('aintern').get<boolean>('input.askWhenWaiting', true)) {
        void answerRun(w, { prompt: w.prompt, secret: w.secret }, true);
      }
    }),
    // placeholders (`<your-token>`, `$UNSET`): one input box per value before the run
    c.onRequest(PROMPT_METHOD, answerPromptValues),
    // Dangerous and critical runs ask in a modal dialog the user cannot miss; the
    // block's lens says it waits meanwhile.
    c.onRequest(
      'window/showMessageRequest',
      async (params: { type: number; message: string; actions?: { title: string }[] }) => {
        const asking = [...inFlight].filter((k) => !running.has(k));
        asking.forEach((k) => waiting.add(k));
        refreshLenses();
        try {
          if (asking.length > 0) {
            // VS Code redraws lenses only after the dialog is gone: let it redraw first
            await new Promise((r) => setTimeout(r, 400));
          }
          const [first, ...rest] = params.message.split('\n');
          const actions = (params.actions ?? []).filter((a) => a.title !== 'Cancel');
          const show =
            params.type === 1
              ? vscode.window.showErrorMessage
              : params.type === 2
                ? vscode.window.showWarningMessage
                : vscode.window.showInformationMessage;
          const picked = await show(first, { modal: true, detail: rest.join('\n') || undefined }, ...actions);
          return picked ? { title: picked.title } : null;
        } finally {
          asking.forEach((k) => waiting.delete(k));
          refreshLenses();
        }
      },
    ),
  ];
  try {
    await c.start();
    serverState = 'ready';
    updateStatus();
  } catch (err) {
    clientSubscriptions.forEach((d) => d.dispose());
    clientSubscriptions = [];
    client = undefined;
    try {
      await c.dispose(2000);
    } catch {
      // it never started
    }
    startFailed(`the language server failed to start (${(err as Error).message})`);
  }
  void context;
}

async function stopClient(): Promise<void> {
  const old = client;
  client = undefined;
  clientSubscriptions.forEach((d) => d.dispose());
  clientSubscriptions = [];
  running.clear();
  for (const { pty } of terminals.values()) {
    pty.exited(null);
  }
  terminals.clear();
  if (old) {
    try {
      await old.dispose(2000);
    } catch (err) {
      channel.warn(`stopping the old server: ${(err as Error).message}`);
    }
  }
}

let restarting: Promise<void> = Promise.resolve();

/** Restarts one at a time: a settings change and the Restart command may race. */
function restart(context: vscode.ExtensionContext): Promise<void> {
  restarting = restarting.then(async () => {
    await stopClient();
    await start(context);
  });
  return restarting;
}

// ------------------------------------------------------------------ commands

/** The block of the fence under the cursor (any line of it, fences included). */
async function blockAtCursor(): Promise<{ uri: string; blockId: string } | undefined> {
  const editor = vscode.window.activeTextEditor;
  if (!editor || !client) {
    void vscode.window.showInformationMessage('aintern: open a Markdown document first');
    return undefined;
  }
  const doc = editor.document;
  const fence = fenceAt(doc.getText().split(/\r?\n/), editor.selection.active.line);
  if (!fence) {
    void vscode.window.showInformationMessage('aintern: put the cursor inside a command fence');
    return undefined;
  }
  const uri = client.code2ProtocolConverter.asUri(doc.uri);
  const lenses: { range: { start: { line: number } }; command?: { arguments?: any[] }; data?: unknown }[] =
    (await client.sendRequest('textDocument/codeLens', { textDocument: { uri } })) ?? [];
  // a resolved lens names its block in its arguments, an unresolved one (a huge
  // document) in its `data`: "<blockId>#<index>"
  const idOf = (l: (typeof lenses)[number]): string | undefined =>
    l.command?.arguments?.[0]?.blockId ??
    (typeof l.data === 'string' && l.data.includes('#') ? l.data.slice(0, l.data.lastIndexOf('#')) : undefined);
  const lens = lenses.find((l) => l.range.start.line === fence.start && idOf(l));
  if (!lens) {
    void vscode.window.showInformationMessage('aintern: this fence is not a command block');
    return undefined;
  }
  return { uri, blockId: idOf(lens)! };
}

async function copyForAI(): Promise<void> {
  const active = vscode.window.activeTerminal;
  let args: Record<string, unknown>;
  if (active) {
    const id = ourTerminal(active);
    if (!id) {
      void vscode.window.showWarningMessage(
        `aintern: the active terminal "${active.name}" is not an aintern terminal, so nothing was copied. ` +
          'Focus an aintern terminal, or close the terminal panel to copy the last run.',
      );
      return;
    }
    args = { terminalId: id, mode: 'lastCommand' };
  } else if (lastCaptureId) {
    args = { captureId: lastCaptureId };
  } else {
    args = { mode: 'lastCommand' };
  }
  try {
    const capture = await execute('aintern.capture', args);
    await vscode.env.clipboard.writeText(capture.contextString);
    vscode.window.setStatusBarMessage(
      `$(copy) aintern: ${args.captureId ? 'last run' : 'terminal'} output copied for AI (~${capture.estimatedTokens} tokens)`,
      5000,
    );
  } catch (err) {
    reportError(err);
  }
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  channel = vscode.window.createOutputChannel('AIntern', { log: true });
  statusItem = vscode.window.createStatusBarItem('aintern.status', vscode.StatusBarAlignment.Left, 0);
  statusItem.name = 'AIntern';
  const history = new ShellHistory();
  const withBlock =
    (command: string) =>
    async (arg?: { uri: string; blockId: string }): Promise<void> => {
      const block = arg?.uri ? arg : await blockAtCursor();
      if (block) {
        await vscode.commands.executeCommand(command, block);
      }
    };
  context.subscriptions.push(
    channel,
    statusItem,
    history,
    outputs,
    vscode.workspace.registerTextDocumentContentProvider(OUTPUT_SCHEME, outputs),
    vscode.commands.registerCommand('aintern.copyTerminalContext', copyForAI),
    vscode.commands.registerCommand('aintern.restartServer', () => restart(context)),
    vscode.commands.registerCommand('aintern.showLog', () => channel.show(true)),
    vscode.commands.registerCommand('aintern.runBlockAtCursor', withBlock('aintern.run')),
    vscode.commands.registerCommand('aintern.sendBlockAtCursor', withBlock('aintern.sendToTerminal')),
    vscode.commands.registerCommand('aintern.stop', async (arg?: { uri: string; blockId: string }) => {
      const block = arg?.uri ? arg : await blockAtCursor();
      if (block) {
        await vscode.commands.executeCommand('aintern.cancel', block);
      }
    }),
    vscode.commands.registerCommand('aintern.runAllBlocks', async () => {
      const doc = vscode.window.activeTextEditor?.document;
      if (!doc || !client) {
        return;
      }
      const uri = client.code2ProtocolConverter.asUri(doc.uri);
      await vscode.commands.executeCommand('aintern.runAll', { uri });
    }),
    vscode.commands.registerCommand('aintern.answerRun', async (arg?: { uri: string; blockId: string }) => {
      const block = arg?.uri ? arg : await blockAtCursor();
      if (block) {
        await answerRun(block);
      }
    }),
    vscode.commands.registerCommand('aintern.showOutput', async (arg?: { uri: string; blockId: string }) => {
      const block = arg?.uri ? arg : await blockAtCursor();
      if (block) {
        await outputs.show(block.uri, block.blockId);
      }
    }),
    vscode.workspace.onDidChangeConfiguration(async (e) => {
      if (!e.affectsConfiguration('aintern')) {
        return;
      }
      if (e.affectsConfiguration('aintern.serverPath') || e.affectsConfiguration('aintern.serverArgs')) {
        await restart(context);
      } else if (client?.isRunning()) {
        // settings apply at once, no restart
        await client.sendNotification('workspace/didChangeConfiguration', {
          settings: { aintern: settings() },
        });
        refreshLenses(); // the safety rules may have changed every lens
      }
    }),
    ...registerTools(execute, history, ourTerminal),
  );
  updateStatus();
  restarting = start(context);
  await restarting;
}

export async function deactivate(): Promise<void> {
  await stopClient();
}
