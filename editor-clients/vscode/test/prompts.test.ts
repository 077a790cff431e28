import { test } from 'node:test';
import assert from 'node:assert/strict';

import {
  Question,
  announce,
  answer,
  answerBox,
  blockLabel,
  checkWaiting,
  needsAnswer,
  checkParams,
  documentName,
  looksSecret,
  questions,
} from '../src/prompts';

const PARAMS = {
  uri: 'file:///home/me/docs/run%20book.md',
  blockId: 'b1',
  command: 'curl -H "Authorization: Bearer <your-token>" https://<host>/api\necho done',
  placeholders: [
    { name: 'your-token', kind: 'angle', text: '<your-token>' },
    { name: 'host', kind: 'angle', text: '<host>' },
  ],
};

test('the capability is announced without dropping other experimental ones', () => {
  const caps: { experimental?: unknown } = { experimental: { other: 1, aintern: { x: true } } };
  announce(caps);
  assert.deepEqual(caps.experimental, { other: 1, aintern: { x: true, promptValues: true } });
  const bare: { experimental?: unknown } = {};
  announce(bare);
  assert.deepEqual(bare.experimental, { aintern: { promptValues: true } });
});

test('secret-looking names', () => {
  for (const name of ['your-token', 'YOUR_API_KEY', 'DB_PASSWORD', 'secret', 'ssh-key', 'GITHUB_PAT_TOKEN',
    'passphrase', 'AUTH_HEADER', 'pin', 'AWS_SECRET_ACCESS_KEY', 'private_key']) {
    assert.ok(looksSecret(name), name);
  }
  for (const name of ['your-env', 'host', 'user-name', 'YOUR_REGION', 'author', 'keyboard-layout', 'compass',
    'monkey', 'spinner']) {
    assert.ok(!looksSecret(name), name);
  }
});

test('one question per placeholder; the title names the placeholder and the block', () => {
  const qs = questions(checkParams(PARAMS));
  assert.equal(qs.length, 2);
  assert.equal(qs[0].title, 'Value for <your-token> (1/2) · run book.md: curl -H "Authorization: Bearer <your-token>" https://<host>…');
  assert.ok(qs[0].secret && !qs[1].secret);
  assert.match(qs[0].prompt, /never saved.*Secret: hidden and redacted.*Escape cancels/);
  assert.equal(qs[1].title, 'Value for <host> (2/2) · run book.md: curl -H "Authorization: Bearer <your-token>" https://<host>…');
  assert.deepEqual([qs[0].step, qs[1].step, qs[1].total], [1, 2, 2]);
});

test('a single placeholder has no count; an unset variable says it goes to the environment', () => {
  const [q] = questions(
    checkParams({
      uri: 'untitled:Untitled-1',
      blockId: 'x',
      command: 'echo "$DEPLOY_ENV"',
      placeholders: [{ name: 'DEPLOY_ENV', kind: 'variable', text: '$DEPLOY_ENV' }],
    }),
  );
  assert.equal(q.title, 'Value for $DEPLOY_ENV · untitled:Untitled-1: echo "$DEPLOY_ENV"');
  assert.match(q.prompt, /\$DEPLOY_ENV is not set: the value goes into this run's environment only/);
  assert.equal(q.hint, 'DEPLOY_ENV');
});

test('the same name twice is asked once', () => {
  const qs = questions(
    checkParams({ ...PARAMS, placeholders: [PARAMS.placeholders[1], PARAMS.placeholders[1]] }),
  );
  assert.equal(qs.length, 1);
  assert.ok(!qs[0].title.includes('(1/'));
});

test('answers carry the values and the secret mark, in order', async () => {
  const asked: Question[] = [];
  const got = await answer(PARAMS, async (q) => {
    asked.push(q);
    return q.name === 'host' ? { value: 'example.org', secret: false } : { value: 't0k3n', secret: true };
  });
  assert.deepEqual(got, {
    values: [
      { name: 'your-token', value: 't0k3n', secret: true },
      { name: 'host', value: 'example.org' },
    ],
  });
  assert.deepEqual(asked.map((q) => q.name), ['your-token', 'host']);
});

test('the person can mark a value secret, or unmark a secret-looking one', async () => {
  const got = await answer(PARAMS, async (q) => ({ value: 'v', secret: q.name === 'host' }));
  assert.deepEqual(got, { values: [{ name: 'your-token', value: 'v' }, { name: 'host', value: 'v', secret: true }] });
});

test('Escape on any value cancels the run (null) and asks nothing more', async () => {
  let calls = 0;
  const got = await answer(PARAMS, async () => {
    calls += 1;
    return calls === 1 ? { value: 'a', secret: false } : undefined;
  });
  assert.equal(got, null);
  assert.equal(calls, 2);
  const first = await answer(PARAMS, async () => undefined);
  assert.equal(first, null);
});

test('an empty value is a value (the person pressed Enter)', async () => {
  const got = await answer({ ...PARAMS, placeholders: [PARAMS.placeholders[1]] }, async () => ({ value: '', secret: false }));
  assert.deepEqual(got, { values: [{ name: 'host', value: '' }] });
});

test('malformed requests get a clear error', async () => {
  await assert.rejects(answer(null, async () => undefined), /aintern\/promptValues: expected an object/);
  await assert.rejects(answer({ command: 'x' }, async () => undefined), /expected \{uri, blockId, command/);
  await assert.rejects(
    answer({ command: 'x', placeholders: [{ kind: 'angle' }] }, async () => undefined),
    /every placeholder needs a name/,
  );
  // missing kind/text fall back to something showable
  const [q] = questions(checkParams({ command: 'x', placeholders: [{ name: 'n' }] }));
  assert.equal(q.text, 'n');
});

test('labels', () => {
  assert.equal(blockLabel('\n  make deploy  \n'), 'make deploy');
  assert.equal(blockLabel('a\nb'), 'a …');
  assert.equal(blockLabel('x'.repeat(80), 10), `${'x'.repeat(9)}…`);
  assert.equal(documentName('file:///a/b/c%20d.md'), 'c d.md');
  assert.equal(documentName('file:///a/b/%E0%A4'), '%E0%A4');
});

test('the waiting notification is checked', () => {
  assert.deepEqual(checkWaiting({ uri: 'file:///a.md', blockId: 'b', waiting: true, prompt: 'name? ', secret: false }), {
    uri: 'file:///a.md', blockId: 'b', waiting: true, prompt: 'name? ', secret: false,
  });
  assert.deepEqual(checkWaiting({ uri: 'file:///a.md', blockId: 'b', waiting: false }), {
    uri: 'file:///a.md', blockId: 'b', waiting: false, prompt: undefined, secret: false,
  });
  assert.equal(checkWaiting(null), undefined);
  assert.equal(checkWaiting({ uri: 'x' }), undefined);
  assert.equal(checkWaiting('waiting'), undefined);
});

test('the Answer lens (no text) is answered by the editor; a request with text goes to the server', () => {
  assert.ok(needsAnswer('aintern.run.input', { uri: 'u', blockId: 'b', prompt: 'name? ', secret: false }));
  assert.ok(!needsAnswer('aintern.run.input', { uri: 'u', blockId: 'b', text: '' }));
  assert.ok(!needsAnswer('aintern.run', { uri: 'u', blockId: 'b' }));
});

test('the answer box says what the run asks, and hides passwords', () => {
  const box = answerBox({ uri: 'file:///w/demo.md', prompt: 'your name? ', secret: false, command: 'read -p "your name? " n' });
  assert.equal(box.title, 'Answer the running command · demo.md: read -p "your name? " n');
  assert.match(box.prompt, /^It asks: your name\? \(sent with Enter; Escape sends nothing/);
  assert.equal(box.password, false);
  assert.ok(answerBox({ uri: 'u', prompt: 'x', secret: true }).password);
  assert.ok(answerBox({ uri: 'u', prompt: '[sudo] password for me: ' }).password);
  assert.ok(answerBox({ uri: 'u', prompt: 'Enter passphrase for key: ' }).password);
  assert.ok(!answerBox({ uri: 'u', prompt: 'Continue? [y/N] ' }).password);
  const blind = answerBox({ uri: 'untitled:Untitled-1' });
  assert.equal(blind.title, 'Answer the running command · untitled:Untitled-1');
  assert.match(blind.prompt, /^\(sent with Enter/);
});
