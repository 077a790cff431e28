// Language-model tools: an AI assistant in VS Code (Copilot agent mode, any chat that
// uses vscode.lm tools) runs commands and reads output through the server's gate and
// capture pipeline, and reads the last command of the user's own terminals.
import * as vscode from 'vscode';

import { Tail, dangerSummary, page } from './settings';

export type Execute = (command: string, args: Record<string, unknown>) => Promise<any>;

interface Finished {
  terminal: vscode.Terminal;
  command: string;
  exitCode: number | undefined;
  cwd: string | undefined;
  text: string;
}

/** The last finished command of each of the user's VS Code terminals, from shell
 * integration (VS Code injects it into bash, zsh, fish and PowerShell). */
export class ShellHistory implements vscode.Disposable {
  private readonly live = new Map<vscode.TerminalShellExecution, { tail: Tail; done: Promise<void> }>();
  private readonly last = new Map<vscode.Terminal, Finished>();
  private latest: Finished | undefined;
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor() {
    const w = vscode.window;
    if (!w.onDidStartTerminalShellExecution) {
      return; // a VS Code older than 1.93
    }
    this.subscriptions.push(
      w.onDidStartTerminalShellExecution((e) => this.started(e.execution)),
      w.onDidEndTerminalShellExecution((e) => void this.ended(e)),
      w.onDidCloseTerminal((t) => {
        this.last.delete(t);
        if (this.latest?.terminal === t) {
          this.latest = undefined;
        }
      }),
    );
  }

  private started(execution: vscode.TerminalShellExecution): void {
    const tail = new Tail();
    const done = (async () => {
      for await (const data of execution.read()) {
        tail.push(data);
      }
    })().catch(() => undefined);
    this.live.set(execution, { tail, done });
  }

  private async ended(e: vscode.TerminalShellExecutionEndEvent): Promise<void> {
    const entry = this.live.get(e.execution);
    this.live.delete(e.execution);
    if (entry) {
      // the stream ends just after the end event (later on a busy machine); don't wait
      // forever for it
      await Promise.race([entry.done, new Promise((r) => setTimeout(r, 3000))]);
    }
    const finished: Finished = {
      terminal: e.terminal,
      command: e.execution.commandLine.value,
      exitCode: e.exitCode,
      cwd: e.execution.cwd?.fsPath,
      text: entry?.tail.text() ?? '',
    };
    this.last.set(e.terminal, finished);
    this.latest = finished;
  }

  /** The terminal named `name`, else the active one, else the one that ran last. */
  lastCommand(name?: string): Finished | undefined {
    if (name) {
      return [...this.last.values()].find((f) => f.terminal.name === name);
    }
    const active = vscode.window.activeTerminal;
    return (active && this.last.get(active)) || this.latest;
  }

  dispose(): void {
    for (const s of this.subscriptions) {
      s.dispose();
    }
  }
}

function text(...parts: string[]): vscode.LanguageModelToolResult {
  return new vscode.LanguageModelToolResult(parts.map((p) => new vscode.LanguageModelTextPart(p)));
}

interface RunInput {
  command?: string;
  file?: string;
  blockId?: string;
  cwd?: string;
  timeoutSeconds?: number;
}

/** Registers the aintern tools. `ours` maps a VS Code terminal to its server session. */
export function registerTools(
  execute: Execute,
  history: ShellHistory,
  ours: (terminal: vscode.Terminal) => string | undefined,
): vscode.Disposable[] {
  if (!vscode.lm?.registerTool) {
    return []; // no language-model API in this VS Code
  }

  async function commandOf(input: RunInput): Promise<{ command: string; uri?: string }> {
    if (input.command && !input.file) {
      return { command: input.command };
    }
    if (!input.file || !input.blockId) {
      throw new Error('give either "command", or "file" and "blockId" of a fence');
    }
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(input.file));
    const uri = doc.uri.toString();
    const out = await execute('aintern.runOutput', { uri, blockId: input.blockId });
    return { command: out.command as string, uri };
  }

  async function level(command: string): Promise<{ level: string; summary: string }> {
    const check = await execute('aintern.checkCommand', { command });
    return { level: check.level, summary: dangerSummary(check) };
  }

  const run: vscode.LanguageModelTool<RunInput> = {
    async prepareInvocation(options) {
      const { command } = await commandOf(options.input);
      const { level: lvl, summary } = await level(command);
      if (lvl === 'blocked') {
        // refused in invoke, before anything is asked
        return { invocationMessage: `aintern refuses a blocked command: ${summary}` };
      }
      if (lvl === 'dangerous' || lvl === 'critical') {
        // reasons first: VS Code shows this as plain text outside a chat
        const message = new vscode.MarkdownString();
        message.appendMarkdown(`**${summary}**\n\n`);
        message.appendCodeblock(command, 'sh');
        return {
          invocationMessage: `Running a ${lvl} command`,
          confirmationMessages: { title: `Run a ${lvl} command?`, message },
        };
      }
      return { invocationMessage: `Running \`${command.split('\n')[0].slice(0, 60)}\`` };
    },
    async invoke(options) {
      const { command, uri } = await commandOf(options.input);
      const { level: lvl, summary } = await level(command);
      if (lvl === 'blocked') {
        throw new Error(`blocked, aintern never runs this command: ${summary}`);
      }
      // dangerous and critical commands got here only through VS Code's confirmation
      // (prepareInvocation), so they are confirmed
      const result = uri
        ? await execute('aintern.run', { uri, blockId: options.input.blockId, confirmed: true })
        : await execute('aintern.runCommand', {
            command,
            cwd: options.input.cwd ?? vscode.workspace.workspaceFolders?.[0]?.uri.fsPath,
            timeoutSeconds: options.input.timeoutSeconds,
            confirmed: true,
          });
      const capture = await execute('aintern.capture', { captureId: result.captureId });
      const outcome = result.timedOut
        ? 'timed out'
        : result.cancelled
          ? 'cancelled'
          : `exit code ${result.exitCode}`;
      return text(
        `${outcome} after ${result.durationMs} ms (level: ${lvl}; captureId: ${result.captureId})\n`,
        capture.contextString,
      );
    },
  };

  const readCapture: vscode.LanguageModelTool<{ captureId: string; offset?: number; limit?: number }> = {
    async invoke(options) {
      const capture = await execute('aintern.capture', { captureId: options.input.captureId });
      const p = page(capture.output ?? '', options.input.offset, options.input.limit);
      const more = p.next === null ? 'end of capture' : `more from offset ${p.next}`;
      return text(`${p.text}\n[${more}; exit code ${capture.exitCode ?? 'unknown'}]`);
    },
  };

  const lastCommand: vscode.LanguageModelTool<{ terminal?: string }> = {
    async invoke(options) {
      const name = options.input?.terminal;
      const terminal = name
        ? vscode.window.terminals.find((t) => t.name === name)
        : vscode.window.activeTerminal;
      const session = terminal ? ours(terminal) : undefined;
      if (session) {
        const capture = await execute('aintern.capture', { terminalId: session, mode: 'lastCommand' });
        return text(capture.contextString);
      }
      const finished = history.lastCommand(name);
      if (!finished) {
        throw new Error(
          name
            ? `no finished command seen in terminal "${name}" (it needs shell integration)`
            : 'no finished command seen in any terminal yet (terminals need shell integration)',
        );
      }
      const capture = await execute('aintern.captureText', {
        text: finished.text,
        command: finished.command,
        exitCode: finished.exitCode ?? null,
        cwd: finished.cwd ?? null,
        name: finished.terminal.name,
      });
      return text(capture.contextString);
    },
  };

  const check: vscode.LanguageModelTool<{ command: string; shell?: string }> = {
    async invoke(options) {
      const result = await execute('aintern.checkCommand', options.input);
      const lines = result.findings.map(
        (f: { level: string; rule: string; reason: string }) => `- ${f.level} ${f.rule}: ${f.reason}`,
      );
      return text(`level: ${result.level}\n${lines.join('\n')}`.trim());
    },
  };

  return [
    vscode.lm.registerTool('aintern_runCommand', run),
    vscode.lm.registerTool('aintern_readCapture', readCapture),
    vscode.lm.registerTool('aintern_terminalLastCommand', lastCommand),
    vscode.lm.registerTool('aintern_checkCommand', check),
  ];
}
