import { test } from 'node:test';
import assert from 'node:assert/strict';

import {
  PendingOutput,
  Tail,
  dangerSummary,
  describeResult,
  fenceAt,
  isOutcomeTitle,
  outputDocument,
  page,
  serverSettings,
  withIcons,
} from '../src/settings';

test('server settings are nested and drop client-only keys', () => {
  assert.deepEqual(
    serverSettings({
      serverPath: '/x/aintern-ls',
      serverArgs: ['--stdio'],
      timeoutSeconds: 30,
      historyPath: null,
      'safety.extraBlocked': ['terraform destroy'],
      'safety.trusted': [],
    }),
    { timeoutSeconds: 30, safety: { extraBlocked: ['terraform destroy'], trusted: [] } },
  );
});

test('output written before the terminal opens is replayed in order', () => {
  const pending = new PendingOutput();
  pending.write('a');
  pending.write('b');
  const seen: string[] = [];
  pending.open((d) => seen.push(d));
  pending.write('c');
  assert.deepEqual(seen, ['a', 'b', 'c']);
});

test('pending output is bounded', () => {
  const pending = new PendingOutput(10);
  for (let i = 0; i < 100; i++) {
    pending.write('0123456789');
  }
  const seen: string[] = [];
  pending.open((d) => seen.push(d));
  assert.equal(seen.join('').length, 10);
});

test('results are summarised for the status bar', () => {
  assert.equal(describeResult({ exitCode: 0, durationMs: 1234 }), 'ok: exit 0 · 1.2 s');
  assert.equal(describeResult({ exitCode: 2, durationMs: 100 }), 'failed: exit 2 · 0.1 s');
  assert.equal(describeResult({ timedOut: true, durationMs: 5000 }), 'timed out after 5.0 s');
});

test('the fence under the cursor is found from any line inside it', () => {
  const doc = ['# T', '', '```bash', 'echo a', 'echo b', '```', 'text', '~~~~sh', '```', 'x', '~~~~', '````'];
  assert.deepEqual(fenceAt(doc, 2), { start: 2, end: 5 });
  assert.deepEqual(fenceAt(doc, 4), { start: 2, end: 5 });
  assert.deepEqual(fenceAt(doc, 5), { start: 2, end: 5 });
  assert.equal(fenceAt(doc, 6), undefined);
  assert.equal(fenceAt(doc, 0), undefined);
  assert.deepEqual(fenceAt(doc, 8), { start: 7, end: 10 });
  assert.deepEqual(fenceAt(doc, 11), { start: 11, end: 11 });
});

test('lens symbols become codicons, state lenses are recognised', () => {
  assert.equal(withIcons('▶ Run'), '$(play) Run');
  assert.equal(withIcons('⏳ running… ■ Stop'), '$(loading~spin) running… $(debug-stop) Stop');
  assert.equal(withIcons('⇥ Send to terminal'), '$(terminal) Send to terminal');
  assert.equal(withIcons('plain'), 'plain');
  assert.ok(isOutcomeTitle('✓ exit 0 · 27 ms'));
  assert.ok(isOutcomeTitle('⏱ timed out after 1.0 s'));
  assert.ok(!isOutcomeTitle('⇥ in terminal'));
});

test('the output view shows command, output and outcome', () => {
  const text = outputDocument({ running: false, command: 'echo hi', text: 'hi', exitCode: 0, durationMs: 20 });
  assert.equal(text, '$ echo hi\n\nhi\n\n[ok: exit 0 · 0.0 s]\n');
  assert.match(outputDocument({ running: true, command: 'make', text: 'building' }), /building\n\n\[running…\]/);
  assert.match(
    outputDocument({ running: true, command: 'read -p "name? " n', text: 'name? ', waitingForInput: { prompt: 'name? ' } }),
    /name\? \n\n\[waiting for input: answer it with the Answer lens\]/,
  );
  assert.equal(withIcons('✎ Answer'), '$(edit) Answer');
  assert.equal(withIcons('⌨ waiting for input ■ Stop'), '$(keyboard) waiting for input $(debug-stop) Stop');
  assert.match(outputDocument({ running: false, command: 'x', text: null }), /has not run yet/);
});

test('danger summaries, pages and tails', () => {
  assert.equal(
    dangerSummary({ level: 'dangerous', findings: [{ level: 'dangerous', rule: 'rm-rf', reason: 'deletes files' }, { level: 'moderate', rule: 'm', reason: 'x' }] }),
    'dangerous: deletes files (rm-rf)',
  );
  assert.deepEqual(page('abcdef', 2, 3), { text: 'cde', next: 5 });
  assert.deepEqual(page('abcdef', 4, 10), { text: 'ef', next: null });
  const tail = new Tail(4);
  for (const c of ['ab', 'cd', 'ef']) tail.push(c);
  assert.equal(tail.text(), 'cdef');
});
