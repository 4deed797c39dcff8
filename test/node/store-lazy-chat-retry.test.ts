// The store loads the chat reducers on the first watched chat (src/store/chat-reducers-lazy.ts). When that load fails
// (offline, a deploy in between), the chat is not held half-loaded, the failure is logged, and the reducers are asked
// for again: by the next chat, and by a later snapshot of the failed one (a reconnect). A module resolve hook makes
// the first load fail. One scenario per process: the reducers load once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { register } from 'node:module';
import type { Snapshot } from '../../src/protocol/index.js';
import { chatReducer } from '../../src/reducers.js';
import { until } from './fixtures/host.js';
import { CHAT, OTHER, chat, delta, lazyChatStore, started } from './fixtures/lazy-chat.js';

const HOOK = `let failed = false;
export async function resolve(specifier, context, next) {
  if (!failed && specifier === './chat-code.js' && context.parentURL?.endsWith('/src/store/chat-reducers-lazy.ts')) {
    failed = true;
    throw new Error('chunk unavailable (test)');
  }
  return next(specifier, context);
}`;
register(`data:text/javascript,${encodeURIComponent(HOOK)}`);

test('a chat reducer load that failed is asked for again by the next chat and by a later snapshot', async (t) => {
  const errors = t.mock.method(console, 'error', () => {});
  const { store, subscribed } = lazyChatStore(async (uri) => ({ resource: uri, state: chat(uri), fromSeq: 1 }) satisfies Snapshot);

  store.watchChat(CHAT);
  store.receive({ channel: CHAT, serverSeq: 2, action: started });
  await until(() => errors.mock.callCount() > 0, 'the failed load to be logged');
  assert.match(String(errors.mock.calls[0]!.arguments[0]), /could not load chat ahp-chat:\/c1/);
  assert.match(String(errors.mock.calls[0]!.arguments[1]), /chunk unavailable/);
  assert.deepEqual(subscribed, [], 'nothing subscribed without the reducers');
  assert.equal(store.getChatState(CHAT), undefined, 'no half-loaded chat');

  // The next chat asks for the reducers again, and loads.
  store.watchChat(OTHER);
  await until(() => store.getChatState(OTHER) !== undefined, 'the next chat to load');
  assert.deepEqual(subscribed, [OTHER]);
  assert.deepEqual(store.getChatState(OTHER), chat(OTHER));

  // The failed chat is still watched: a later snapshot (as a reconnect delivers it) loads it, and live envelopes fold.
  assert.deepEqual(store.getWatchedChats(), [CHAT, OTHER]);
  store.loadSnapshot({ resource: CHAT, state: chat(CHAT), fromSeq: 2 });
  store.receive({ channel: CHAT, serverSeq: 3, action: started });
  store.receive({ channel: CHAT, serverSeq: 4, action: delta('a') });
  assert.deepEqual(store.getChatState(CHAT), [started, delta('a')].reduce(chatReducer, chat(CHAT)));
  assert.equal(errors.mock.callCount(), 1, 'one failure, logged once');
  store.dispose();
});
