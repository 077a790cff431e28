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

/** A one-line summary of a CommandResult for a notification. */
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
  return `${result.exitCode === 0 ? '✓' : '✗'} exit ${result.exitCode ?? '?'} · ${seconds} s`;
}
