// Pure helpers (no `vscode` import) so they can be tested with node's test runner.

/** Client-only settings the server does not need to see. */
export const CLIENT_ONLY = new Set(['serverPath', 'serverArgs']);

/** The `aintern` settings object sent to the server: nested, without client-only keys. */
export function serverSettings(flat: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(flat)) {
    if (CLIENT_ONLY.has(key) || value === null || value === undefined) {
      continue;
    }
    const parts = key.split('.');
    let node = out;
    for (const part of parts.slice(0, -1)) {
      node[part] = (node[part] as Record<string, unknown>) ?? {};
      node = node[part] as Record<string, unknown>;
    }
    node[parts[parts.length - 1]] = value;
  }
  return out;
}

/** Output bytes may arrive before VS Code opens the terminal: keep them until then. */
export class PendingOutput {
  private chunks: string[] = [];
  private size = 0;
  private sink: ((data: string) => void) | undefined;

  constructor(private readonly limit = 1 << 20) {}

  write(data: string): void {
    if (this.sink) {
      this.sink(data);
      return;
    }
    this.chunks.push(data);
    this.size += data.length;
    while (this.size > this.limit && this.chunks.length > 1) {
      this.size -= this.chunks.shift()!.length;
    }
  }

  open(sink: (data: string) => void): void {
    this.sink = sink;
    for (const chunk of this.chunks) {
      sink(chunk);
    }
    this.chunks = [];
    this.size = 0;
  }
}

/** A one-line summary of a CommandResult. */
export function describeResult(result: {
  exitCode?: number | null;
  durationMs?: number;
  timedOut?: boolean;
  cancelled?: boolean;
  output?: string;
}): string {
  if (result.timedOut) {
    return `timed out after ${((result.durationMs ?? 0) / 1000).toFixed(1)} s`;
  }
  if (result.cancelled) {
    return result.output ? result.output : 'cancelled';
  }
  const seconds = ((result.durationMs ?? 0) / 1000).toFixed(1);
  return `${result.exitCode === 0 ? 'ok' : 'failed'}: exit ${result.exitCode ?? '?'} · ${seconds} s`;
}

/** Client-only settings (never sent to the server). */
for (const key of ['output.openOnRun', 'input.askWhenWaiting']) {
  CLIENT_ONLY.add(key);
}

/** The fence (opening and closing line numbers) that contains `line`, CommonMark-style:
 * an opener of three or more backticks or tildes (indented at most three spaces), closed
 * by a line of the same character at least as long; an unclosed fence runs to the end. */
export function fenceAt(lines: string[], line: number): { start: number; end: number } | undefined {
  let open: { start: number; char: string; size: number } | undefined;
  for (let i = 0; i < lines.length; i++) {
    const text = lines[i];
    if (!open) {
      const m = /^ {0,3}(`{3,}|~{3,})(.*)$/.exec(text);
      if (m && !(m[1][0] === '`' && m[2].includes('`'))) {
        open = { start: i, char: m[1][0], size: m[1].length };
      } else if (i >= line) {
        return undefined;
      }
      continue;
    }
    const close = /^ {0,3}(`{3,}|~{3,})\s*$/.exec(text);
    if (close && close[1][0] === open.char && close[1].length >= open.size) {
      if (line >= open.start && line <= i) {
        return { start: open.start, end: i };
      }
      open = undefined;
      if (i >= line) {
        return undefined;
      }
    }
  }
  return open && line >= open.start ? { start: open.start, end: lines.length - 1 } : undefined;
}

/** Server lens titles start with a symbol some UI fonts lack; VS Code has its own icons
 * (codicons, always there), so the extension shows those instead. */
const ICONS: [string, string][] = [
  ['▶', '$(play)'],
  ['⇥', '$(terminal)'],
  ['⎘', '$(copy)'],
  ['⛔', '$(circle-slash)'],
  ['⏳', '$(loading~spin)'],
  ['✓', '$(pass)'],
  ['✗', '$(error)'],
  ['⏱', '$(watch)'],
  ['⊘', '$(circle-slash)'],
  ['⌨', '$(keyboard)'],
  ['✎', '$(edit)'],
];

export function withIcons(title: string): string {
  for (const [glyph, icon] of ICONS) {
    if (title.startsWith(glyph)) {
      title = icon + title.slice(glyph.length);
      break;
    }
  }
  return title.replace(' ■ Stop', ' $(debug-stop) Stop');
}

/** The state lens of a block that ran (exit code, timed out, cancelled). */
export function isOutcomeTitle(title: string): boolean {
  return /^(✓|✗|⏱|⊘) /.test(title);
}

export interface RunOutput {
  running: boolean;
  command?: string;
  cwd?: string | null;
  text?: string | null;
  wasTruncated?: boolean;
  exitCode?: number | null;
  durationMs?: number;
  timedOut?: boolean;
  cancelled?: boolean;
  captureId?: string | null;
  /** set while the run waits on a prompt */
  waitingForInput?: { prompt?: string; secret?: boolean } | null;
}

/** The text of the read-only output view of one block. */
export function outputDocument(out: RunOutput): string {
  const lines: string[] = [];
  for (const [i, line] of (out.command ?? '').split('\n').entries()) {
    lines.push(`${i === 0 ? '$' : '>'} ${line}`);
  }
  lines.push('');
  if (out.text === null || out.text === undefined) {
    lines.push(out.running ? '' : '(this block has not run yet)');
  } else {
    lines.push(out.text);
  }
  lines.push('');
  if (out.running && out.waitingForInput) {
    lines.push('[waiting for input: answer it with the Answer lens]');
  } else if (out.running) {
    lines.push('[running…]');
  } else if (out.text !== null && out.text !== undefined) {
    lines.push(`[${describeResult(out)}${out.wasTruncated ? ' · output truncated' : ''}]`);
  }
  return lines.join('\n') + '\n';
}

/** The danger summary an AI tool's confirmation shows, from `aintern.checkCommand`. */
export function dangerSummary(check: {
  level: string;
  findings: { level: string; rule: string; reason: string }[];
}): string {
  const worst = check.findings.filter((f) => f.level === check.level);
  if (worst.length === 0) {
    return check.level;
  }
  return `${check.level}: ` + worst.map((f) => `${f.reason} (${f.rule})`).join('; ');
}

/** A page of a capture's text, as `read_capture` does. */
export function page(text: string, offset = 0, limit = 20000): { text: string; next: number | null } {
  const start = Math.max(0, Math.min(offset, text.length));
  const end = Math.min(text.length, start + Math.max(1, limit));
  return { text: text.slice(start, end), next: end < text.length ? end : null };
}

/** Keeps the last `limit` characters of a stream (a terminal command's output). */
export class Tail {
  private parts: string[] = [];
  private size = 0;
  constructor(private readonly limit = 1 << 20) {}
  push(data: string): void {
    this.parts.push(data);
    this.size += data.length;
    while (this.size > this.limit && this.parts.length > 1) {
      this.size -= this.parts.shift()!.length;
    }
  }
  text(): string {
    return this.parts.join('');
  }
}
