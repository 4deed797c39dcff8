// The CDN build's store loads the chat reducers on first use: rollup.config.mjs resolves the store's
// `./chat-reducers.js` to src/store/chat-reducers-lazy.ts. The same swap is made here with a module resolve hook.
// A chat must not hold state before the reducers are here, and nothing that arrives meanwhile may be lost.
// One scenario per process: the reducers load once, so "before they are here" happens once.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { register } from 'node:module';
import type { ActionEnvelope, AnyAction, ChatState, DispatchActionParams, SessionState, Snapshot } from '../../src/protocol/index.js';
import { chatReducer } from '../../src/reducers/index.js';

const HOOK = `export async function resolve(specifier, context, next) {
  if (specifier === './chat-reducers.js' && context.parentURL?.endsWith('/src/store/session-store.ts')) return next('./chat-reducers-lazy.js', context);
  return next(specifier, context);
}`;
register(`data:text/javascript,${encodeURIComponent(HOOK)}`);
// Imported after the hook (a static import of the store, or of a module that imports it, would load the static one).
const { SessionStore } = await import('../../src/store/session-store.js');
const { until } = await import('./fixtures/host.js');

const SESSION = 'ahp-session:/s1';
const CHAT = 'ahp-chat:/c1';
const OTHER = 'ahp-chat:/c2';
const ME = 'client-me';
const T = 't1';

const session = (): SessionState => ({ provider: 'p', title: 'T', status: 1, lifecycle: 'ready', activeClients: [], chats: [] });
const chat = (resource: string): ChatState => ({ resource, title: 'C', status: 1, modifiedAt: '2026-01-01T00:00:00.000Z', turns: [] });
const started: AnyAction = { type: 'chat/turnStarted', turnId: T, startedAt: '2026-02-01T00:00:00.000Z', message: { text: 'hi', origin: { kind: 'user' } } };
const delta = (content: string): AnyAction => ({ type: 'chat/delta', turnId: T, content });
const env = (serverSeq: number, action: AnyAction, channel = CHAT, extra: Partial<ActionEnvelope> = {}): ActionEnvelope => ({ channel, serverSeq, action, ...extra });

describe('SessionStore with the chat reducers loaded on first use (the CDN build)', () => {
  it('holds a chat back until the reducers are here, then loads it with everything that arrived meanwhile', async () => {
    const sent: DispatchActionParams[] = [];
    const subscribed: string[] = [];
    const open: ((s: Snapshot) => void)[] = [];
    let seq = 0;
    const store = new SessionStore({
      channel: SESSION,
      clientId: ME,
      nextClientSeq: () => ++seq,
      send: (p) => void sent.push(p),
      subscribeChannel: (uri) => {
        subscribed.push(uri);
        return new Promise<Snapshot>((resolve) => open.push(resolve));
      },
    });
    store.loadSnapshot({ resource: SESSION, state: session(), fromSeq: 1 });
    assert.equal(store.getState()?.title, 'T', 'the session needs no chat reducer');

    store.watchChat(CHAT);
    assert.deepEqual(subscribed, [], 'the chat is subscribed only once its reducers are here (the static module subscribes at once)');
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
