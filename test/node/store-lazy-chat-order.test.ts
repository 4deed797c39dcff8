// The npm form of the store loads the chat reducers on the first watched chat (src/store/chat-reducers-lazy.ts).
// Everything a chat receives before they are here (a burst, single envelopes, our own dispatch, a stale replay) waits
// and is applied in order once they are, and the chat's and its tool calls' listeners hear of it. One scenario per
// process: the reducers load once (node --test runs each file in its own process; nothing here loads them first).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ActionEnvelope, AnyAction, Snapshot } from '../../src/protocol/index.js';
import { chatReducer } from '../../src/reducers.js';
import { until } from './fixtures/host.js';
import { CHAT, ME, chat as chatOf, delta, lazyChatStore, started, toolStart } from './fixtures/lazy-chat.js';

const chat = () => chatOf(CHAT);
const T = 't1';
const draft: AnyAction = { type: 'chat/draftChanged', draft: { text: 'typing' } } as AnyAction;
const env = (serverSeq: number, action: AnyAction, extra: Partial<ActionEnvelope> = {}): ActionEnvelope => ({ channel: CHAT, serverSeq, action, ...extra });

test('actions for a chat that arrive before its reducers are here are applied in order once they are', async () => {
  // The host's answer is there at once; the store still asks only once the reducers are here.
  const { store, sent } = lazyChatStore(async () => ({ resource: CHAT, state: chat(), fromSeq: 3 }) satisfies Snapshot);
  let chatWakes = 0;
  const toolCalls: (string | undefined)[] = [];
  store.subscribeChat(CHAT, () => chatWakes++);
  store.subscribeToolCall(CHAT, 'read-1', (tc) => void toolCalls.push(tc?.status));
  store.watchChat(CHAT);

  // All of it before the reducers can have arrived (no await since watchChat).
  store.receiveAll([env(4, started), env(5, delta('a')), env(2, delta('stale: before the snapshot'))]);
  store.receive(env(6, toolStart));
  const clientSeq = store.dispatch(draft, CHAT);
  store.receive(env(7, delta('b')));
  assert.equal(store.getChatState(CHAT), undefined, 'no state before the reducers and the snapshot');
  assert.deepEqual(sent.map((p) => p.clientSeq), [clientSeq], 'the dispatch went out at once');
  assert.equal(store.getPendingCount(CHAT), 1);

  await until(() => store.getChatState(CHAT) !== undefined, 'the chat to load');
  const confirmed = [started, delta('a'), toolStart, delta('b')].reduce(chatReducer, chat());
  assert.deepEqual(store.getChatState(CHAT), chatReducer(confirmed, draft), 'confirmed actions in serverSeq order, then our pending one');
  assert.equal(store.getChatState(CHAT)?.draft?.text, 'typing', 'our pending action shows');
  assert.equal(store.getCursor(CHAT), 7);
  assert.ok(chatWakes > 0, 'the chat listener heard of the load');
  assert.deepEqual(toolCalls, ['streaming'], 'the tool-call listener heard of the tool call that arrived meanwhile');

  // Our echo settles the pending action; the state is the same.
  store.receive(env(8, draft, { origin: { clientId: ME, clientSeq } }));
  assert.equal(store.getPendingCount(CHAT), 0);
  assert.deepEqual(store.getChatState(CHAT), chatReducer(confirmed, draft));
  store.receive(env(9, { type: 'chat/toolCallReady', turnId: T, toolCallId: 'read-1', invocationMessage: 'Reading', toolInput: '{}', confirmed: 'not-needed' } as AnyAction));
  assert.equal(toolCalls.length, 2, 'tool-call listeners follow the loaded chat');
  store.dispose();
});
