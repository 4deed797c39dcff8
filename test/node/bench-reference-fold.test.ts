import assert from 'node:assert/strict';
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { CHILD_ENV, type ReferenceReply } from '../bench/reference-fold.js';

// The reference's process of `bench:store` (AHP_REFERENCE), with our own reducers standing in for the upstream module:
// the project never holds the upstream code, and what is checked here is the process, not whose reducers it folds.
const FOLD = fileURLToPath(new URL('../bench/reference-fold.ts', import.meta.url));
const STAND_IN = fileURLToPath(new URL('../../src/reducers/index.ts', import.meta.url));

function start(module: string): ChildProcess {
  // As the harness forks it: with --expose-gc, so that the memory a fold's state keeps is weighed.
  return fork(FOLD, [], { execArgv: ['--expose-gc', '--import', 'tsx'], env: { ...process.env, AHP_REFERENCE: module, [CHILD_ENV]: '1' }, stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
}

async function ask(child: ChildProcess, key: string): Promise<ReferenceReply> {
  const reply = once(child, 'message');
  child.send({ key });
  return (await reply)[0] as ReferenceReply;
}

test('the reference process folds the workload it is asked for, checks the result, and says what failed', async () => {
  const child = start(STAND_IN);
  try {
    assert.equal((await once(child, 'message'))[0], 'ready');
    const servers = await ask(child, 'w3-1000');
    assert.ok('ms' in servers && servers.ms > 0, `the session reducer folds W3: ${JSON.stringify(servers)}`);
    // 1,000 servers' state, weighed while the fold still holds it (a state dropped before it is weighed weighs nothing).
    assert.ok('bytes' in servers && servers.bytes! > 100_000, `the state is weighed: ${JSON.stringify(servers)}`);
    const chat = await ask(child, 'w2');
    assert.ok('ms' in chat && chat.ms > 0, `the chat reducer folds W2: ${JSON.stringify(chat)}`);
    const unknown = await ask(child, 'w9');
    assert.ok('error' in unknown && unknown.error.includes('no workload "w9"'), JSON.stringify(unknown));
  } finally {
    child.kill();
  }
});

test('a reference module without the two reducers ends the process with an error that names it', async () => {
  const notReducers = fileURLToPath(new URL('../bench/workloads.ts', import.meta.url));
  const child = start(notReducers);
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  assert.notEqual(code, 0);
  assert.ok(stderr.includes(`AHP_REFERENCE=${notReducers} exports no chatReducer/sessionReducer`), stderr);
});

test('the module does nothing when imported outside the reference process', async () => {
  // The harness imports it for AHP_REFERENCE_SAME_PROCESS=1: it must not start answering IPC in the harness.
  const child = fork(FOLD, [], { execArgv: ['--import', 'tsx'], env: { ...process.env, AHP_REFERENCE: STAND_IN, [CHILD_ENV]: '' }, stdio: ['ignore', 'ignore', 'ignore', 'ipc'] });
  const first = await Promise.race([once(child, 'message').then(() => 'answered'), once(child, 'exit').then(() => 'exited')]);
  assert.equal(first, 'exited');
});
