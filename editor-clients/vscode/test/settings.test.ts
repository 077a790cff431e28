import { test } from 'node:test';
import assert from 'node:assert/strict';

import { PendingOutput, describeResult, serverSettings } from '../src/settings';

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
  assert.equal(describeResult({ exitCode: 0, durationMs: 1234 }), '✓ exit 0 · 1.2 s');
  assert.equal(describeResult({ exitCode: 2, durationMs: 100 }), '✗ exit 2 · 0.1 s');
  assert.equal(describeResult({ timedOut: true, durationMs: 5000 }), 'timed out after 5.0 s');
});
