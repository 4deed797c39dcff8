// Worker mode checks action sizes against the limits the page configured, on the page and in the worker's own
// connection (it used the defaults only), over the whole worker path: MessageChannel + comlink, real WebSocket, HostCore.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HostCore } from '../../src/host.js';
import type { AnyAction } from '../../src/protocol/index.js';
import type { WorkerActionFailure } from '../../src/worker/worker-session-store.js';
import { serveOverWebSocket, sessionState, until, workerPages } from './fixtures/host.js';

const SESSION = 'ahp-session:/limits';
const CHAT = 'ahp-chat:/limits-chat';
const turn = (turnId: string, text: string): AnyAction => ({ type: 'chat/turnStarted', turnId, startedAt: new Date().toISOString(), message: { text, origin: { kind: 'user' } } });

test('worker mode: the configured limits apply on the page (refused before sending) and in the worker (larger ones let through)', { timeout: 20_000 }, async () => {
  const big = 384 * 1024; // over the 256 KiB default for message text
  const host = new HostCore({ log: () => {}, limits: { maxMessageTextBytes: 512 * 1024 } });
  host.createSession(SESSION, sessionState());
  host.createChat(SESSION, CHAT, {});
  const ws = await serveOverWebSocket(host);
  const worker = workerPages(ws.url, SESSION, 1, {}, { limits: { maxMessageTextBytes: 512 * 1024, maxActionBytes: 1024 * 1024 } });
  const small = workerPages(ws.url, SESSION, 1, {}, { limits: { maxActionBytes: 300 } });
  const [page] = worker.pages as [(typeof worker.pages)[0]];
  const [strict] = small.pages as [(typeof small.pages)[0]];
  try {
    await Promise.all([page.ready, strict.ready]);
    const failures: WorkerActionFailure[] = [];
    page.store.onActionFailed((f) => failures.push(f as WorkerActionFailure));
    strict.store.onActionFailed((f) => failures.push(f as WorkerActionFailure));

    // Smaller than the defaults: refused on the page at once, nothing reaches the worker or the host.
    const seqBefore = host.serverSeq;
    assert.throws(() => strict.store.dispatch({ type: 'session/titleChanged', title: 't'.repeat(400) }), (err: unknown) => err instanceof RangeError && /the limit is 300 bytes/.test(err.message));
    strict.store.dispatch({ type: 'session/titleChanged', title: 'short' });
    await until(() => host.getSessionState(SESSION)!.title === 'short', 'the small action to reach the host');
    assert.equal(host.serverSeq, seqBefore + 1, 'only the small action reached the host');

    // Larger than the defaults (the host allows it too): the worker's own connection lets it through.
    page.store.watchChat(CHAT);
    await until(() => page.store.getChatState(CHAT) !== undefined, 'the chat to load');
    page.store.dispatch(turn('big-turn', 'x'.repeat(big)), CHAT);
    await until(() => host.getChatState(CHAT)?.activeTurn?.id === 'big-turn' || failures.length > 0, 'the big message to reach the host (or fail)');
    assert.deepEqual(failures.map((f) => f.reason), [], 'nothing refused');
    assert.equal(host.getChatState(CHAT)!.activeTurn!.message.text.length, big);
  } finally {
    await worker.close();
    await small.close();
    await ws.close();
  }
});
