// The client half of `aintern/promptValues` (server -> client request): before a block
// with placeholders runs, the server asks for their values and the editor asks the
// person, one input box per placeholder. Pure logic here (no `vscode` import) so it can
// be tested with node's test runner; the input box itself lives in extension.ts.
//
// Values typed are held only in memory for the answer: never logged, never written to a
// file, setting or state by this client.

export const PROMPT_METHOD = 'aintern/promptValues';

export type PlaceholderKind = 'angle' | 'upper' | 'template' | 'variable';

export interface Placeholder {
  name: string;
  kind: PlaceholderKind | string;
  /** the placeholder as written in the command: `<your-token>`, `$FOO`, `{{var}}` */
  text: string;
}

export interface PromptParams {
  uri: string;
  blockId: string;
  command: string;
  placeholders: Placeholder[];
}

export interface PromptValue {
  name: string;
  value: string;
  secret?: boolean;
}

/** The answer: the values, or null to cancel the run. */
export type PromptAnswer = { values: PromptValue[] } | null;

/** One input box to show. */
export interface Question {
  name: string;
  kind: string;
  text: string;
  title: string;
  prompt: string;
  /** grey text in the empty box */
  hint: string;
  /** the name looks like a secret: hide what is typed and redact it from the output */
  secret: boolean;
  step: number;
  total: number;
}

/** What the person typed (undefined: Escape). */
export type Asked = { value: string; secret: boolean } | undefined;

/** The experimental capability that tells the server this client answers the request. */
export function announce(capabilities: { experimental?: unknown }): void {
  const experimental =
    capabilities.experimental && typeof capabilities.experimental === 'object'
      ? (capabilities.experimental as Record<string, unknown>)
      : {};
  const previous = experimental.aintern;
  const aintern =
    previous && typeof previous === 'object' ? (previous as Record<string, unknown>) : {};
  capabilities.experimental = { ...experimental, aintern: { ...aintern, promptValues: true } };
}

const SECRET_NAME =
  /pass(word|phrase|wd)|pwd|secret|token|api[-_ ]?key|private[-_ ]?key|access[-_ ]?key|credential|auth([-_ ]|$|orization)|bearer|session[-_ ]?key|(^|[-_ ])(pass|key|pin|otp)($|[-_ ])/i;

/** Whether a placeholder's name says it holds a secret (`<your-token>`, `YOUR_API_KEY`,
 * `$DB_PASSWORD`, `{{secret}}`, `<ssh-key>`). */
export function looksSecret(name: string): boolean {
  return SECRET_NAME.test(name);
}

/** The params of a request, checked: a malformed request gets a clear error back. */
export function checkParams(params: unknown): PromptParams {
  const p = params as Partial<PromptParams> | null | undefined;
  if (!p || typeof p !== 'object') {
    throw new Error(`${PROMPT_METHOD}: expected an object, got ${JSON.stringify(params)}`);
  }
  if (typeof p.command !== 'string' || !Array.isArray(p.placeholders)) {
    throw new Error(`${PROMPT_METHOD}: expected {uri, blockId, command, placeholders: [...]}`);
  }
  for (const ph of p.placeholders as unknown[]) {
    const item = ph as Partial<Placeholder> | null;
    if (!item || typeof item.name !== 'string' || !item.name) {
      throw new Error(`${PROMPT_METHOD}: every placeholder needs a name, got ${JSON.stringify(ph)}`);
    }
  }
  return {
    uri: typeof p.uri === 'string' ? p.uri : '',
    blockId: typeof p.blockId === 'string' ? p.blockId : '',
    command: p.command,
    placeholders: (p.placeholders as Placeholder[]).map((ph) => ({
      name: ph.name,
      kind: typeof ph.kind === 'string' ? ph.kind : 'angle',
      text: typeof ph.text === 'string' && ph.text ? ph.text : ph.name,
    })),
  };
}

/** The block as a person recognises it: its first non-empty line, shortened. */
export function blockLabel(command: string, max = 60): string {
  const line = command.split(/\r?\n/).find((l) => l.trim()) ?? '';
  const trimmed = line.trim();
  const more = command.trim().split(/\r?\n/).length > 1 ? ' …' : '';
  return trimmed.length > max ? `${trimmed.slice(0, max - 1)}…` : `${trimmed}${more}`;
}

/** The document's file name from its URI (`file:///a/b/runbook.md` -> `runbook.md`). */
export function documentName(uri: string): string {
  const last = uri.split(/[\\/]/).pop() ?? '';
  try {
    return decodeURIComponent(last.split(/[?#]/)[0]);
  } catch {
    return last;
  }
}

/** One question per distinct placeholder, in the order the server gave them. */
export function questions(params: PromptParams): Question[] {
  const seen = new Set<string>();
  const unique = params.placeholders.filter((p) => !seen.has(p.name) && seen.add(p.name));
  const doc = documentName(params.uri);
  const block = blockLabel(params.command);
  return unique.map((p, i) => {
    const count = unique.length > 1 ? ` (${i + 1}/${unique.length})` : '';
    const secret = looksSecret(p.name);
    const where =
      p.kind === 'variable'
        ? `${p.text} is not set: the value goes into this run's environment only`
        : `${p.text} is replaced by the value in this run only`;
    return {
      name: p.name,
      kind: p.kind,
      text: p.text,
      title: `Value for ${p.text}${count} · ${doc ? `${doc}: ` : ''}${block}`,
      prompt: `${where}; it is never saved.${secret ? ' Secret: hidden and redacted from the output.' : ''} Escape cancels the run.`,
      hint: p.kind === 'variable' ? p.name : p.text,
      secret,
      step: i + 1,
      total: unique.length,
    };
  });
}

/** Ask the person for every value in turn; Escape on any of them cancels the run (null). */
export async function answer(
  params: unknown,
  ask: (q: Question) => Promise<Asked>,
): Promise<PromptAnswer> {
  const checked = checkParams(params);
  const values: PromptValue[] = [];
  for (const q of questions(checked)) {
    const got = await ask(q);
    if (got === undefined) {
      return null;
    }
    values.push(got.secret ? { name: q.name, value: got.value, secret: true } : { name: q.name, value: got.value });
  }
  return { values };
}

// ------------------------------------------------------- a run waiting for input
// The server says a run waits on a prompt (`aintern/waitingForInput {uri, blockId,
// waiting, prompt, secret}`, and the `✎ Answer` lens: `aintern.run.input` without
// `text`); the editor asks the person and sends `aintern.run.input {uri, blockId, text}`.

export const WAITING_NOTIFICATION = 'aintern/waitingForInput';

export interface Waiting {
  uri: string;
  blockId: string;
  waiting: boolean;
  prompt?: string;
  secret?: boolean;
}

/** The notification's params, checked (undefined when malformed). */
export function checkWaiting(params: unknown): Waiting | undefined {
  const p = params as Partial<Waiting> | null | undefined;
  if (!p || typeof p !== 'object' || typeof p.uri !== 'string' || typeof p.blockId !== 'string') {
    return undefined;
  }
  return {
    uri: p.uri,
    blockId: p.blockId,
    waiting: p.waiting === true,
    prompt: typeof p.prompt === 'string' ? p.prompt : undefined,
    secret: p.secret === true,
  };
}

/** A lens or command argument that wants the editor to ask for the answer. */
export function needsAnswer(command: string, arg: Record<string, unknown>): boolean {
  return command === 'aintern.run.input' && typeof arg.text !== 'string';
}

const SECRET_PROMPT = /pass(word|phrase|code)?\b|passwd|\bpin\b|token|secret|otp\b/i;

/** The input box that answers a waiting run. */
export function answerBox(wait: { uri: string; prompt?: string; secret?: boolean; command?: string }): {
  title: string;
  prompt: string;
  password: boolean;
} {
  const asks = (wait.prompt ?? '').trim().slice(-120);
  const doc = documentName(wait.uri);
  const block = wait.command ? blockLabel(wait.command) : '';
  const where = [doc, block].filter(Boolean).join(': ');
  return {
    title: `Answer the running command${where ? ` · ${where}` : ''}`,
    prompt: `${asks ? `It asks: ${asks} ` : ''}(sent with Enter; Escape sends nothing, Stop ends the run)`,
    password: wait.secret === true || SECRET_PROMPT.test(asks),
  };
}
