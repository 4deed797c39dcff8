// The store loads the chat reducers on first use (src/store/chat-reducers-lazy.ts: a dynamic import every bundler
// splits and Node runs), in the npm form and the CDN build alike. A chat must not hold state before the reducers are
// here, and nothing that arrives meanwhile may be lost. One scenario per process: the reducers load once, so "before
// they are here" happens once (node --test runs each file in its own process; nothing here loads them first).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ActionEnvelope, AnyAction, Snapshot } from '../../src/protocol/index.js';
import { chatReducer } from '../../src/reducers.js';
import { until } from './fixtures/host.js';
import { CHAT, ME, OTHER, chat, delta, lazyChatStore, started } from './fixtures/lazy-chat.js';

const env = (serverSeq: number, action: AnyAction, channel = CHAT, extra: Partial<ActionEnvelope> = {}): ActionEnvelope => ({ channel, serverSeq, action, ...extra });

describe('SessionStore with the chat reducers loaded on first use', () => {
  it('holds a chat back until the reducers are here, then loads it with everything that arrived meanwhile', async () => {
    const open: ((s: Snapshot) => void)[] = [];
    const { store, sent, subscribed } = lazyChatStore(() => new Promise<Snapshot>((resolve) => open.push(resolve)));
    assert.equal(store.getState()?.title, 'T', 'the session needs no chat reducer');

    store.watchChat(CHAT);
    assert.deepEqual(subscribed, [], 'the chat is subscribed only once its reducers are here');
    // A reconnect snapshot and a live envelope before the reducers are here: kept, not applied to a reducer-less chat.
    store.loadSnapshot({ resource: CHAT, state: chat(CHAT), fromSeq: 10 });
    store.receive(env(11, started));
    store.receive(env(12, delta('a')));
    assert.equal(store.getChatState(CHAT), undefined);
    // A dispatch to another chat is sent at once; its echo settles it whatever the reducers.
    const clientSeq = store.dispatch(started, OTHER);
    assert.deepEqual(sent.map((p) => p.channel), [OTHER]);

    await until(() => store.getChatState(CHAT) !== undefined, 'the chat loaded once the reducers arrived');
    const expected = [started, delta('a')].reduce(chatReducer, chat(CHAT));
    assert.deepEqual(store.getChatState(CHAT), expected);
    await until(() => subscribed.length === 1, 'the chat subscribed after the reducers arrived');
    open.shift()!({ resource: CHAT, state: chat(CHAT), fromSeq: 10 });
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(store.getChatState(CHAT), expected, 'the later subscribe answer does not roll the loaded chat back');

    store.receive(env(13, delta('b')));
    assert.deepEqual(store.getChatState(CHAT), chatReducer(expected, delta('b')), 'live envelopes fold through the loaded reducers');
    store.receive(env(5, started, OTHER, { origin: { clientId: ME, clientSeq } }));
    assert.equal(store.getPendingCount(OTHER), 0, 'the echo settled the action on the other chat');

    store.watchChat(OTHER);
    assert.deepEqual(subscribed, [CHAT, OTHER], 'once loaded, a chat subscribes at once');
  });
});
