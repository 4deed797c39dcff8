// One store contract, two implementations: the same suite runs against the page store (connectSession) and the
// worker-backed store (connectSessionOverEndpoint → session worker API over a MessageChannel with comlink → the
// worker's connectSession). Both talk to a real HostCore; the transport is an in-memory pair so a test can drop it.
import { describe, it, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { expose } from 'comlink';
import type { ConnectionState } from '../../src/client/connection-state.js';
import { createInMemoryPair, type Transport } from '../../src/client/index.js';
import type { SessionHandle } from '../../src/client/session-handle.js';
import { connectSession, type ConnectSessionOptions, type SessionConnection } from '../../src/connection/connect-session.js';
import { HostCore, attachTransport } from '../../src/host.js';
import type { AnyAction, McpServerCustomization, SessionState, ToolCallState } from '../../src/protocol/index.js';
import type { ActionFailure } from '../../src/store/types.js';
import { listMcpServers, selectMcpServer } from '../../src/store/selectors.js';
import type { SessionStoreLike } from '../../src/store/types.js';
import { createSessionWorkerApi } from '../../src/worker/session-worker.js';
import { connectSessionOverEndpoint } from '../../src/worker/worker-store.js';
import { until as pollUntil } from './fixtures/host.js';

const SESSION = 'ahp-session:/contract';
const CHAT = 'ahp-chat:/contract-chat';
const server = (id: string, kind: string): McpServerCustomization => ({ type: 'mcpServer', id, uri: `mcp-config:/${id}`, name: id, state: { kind } as McpServerCustomization['state'] });
const initial = (): SessionState => ({
  provider: 'p', title: 'T', status: 1, lifecycle: 'ready', activeClients: [], chats: [],
  customizations: [server('a', 'ready'), server('b', 'stopped'), { type: 'plugin', id: 'p', uri: 'x:/p', name: 'P', children: [server('c', 'ready')] } as never],
});
const kind = (s: SessionState | undefined, id: string) => selectMcpServer(s, id)?.server.state.kind;
/** What a value looks like after the JSON wire (undefined-valued keys dropped). */
const wire = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

const until = (cond: () => boolean, what: string) => pollUntil(cond, what, 2000);

interface Harness {
  host: HostCore;
  store: SessionStoreLike;
  handle: SessionHandle;
  /** Drops the transport under the connection (the host side closes it). */
  drop(): void;
  /** Refuses new transports while true (the host is "down"). */
  down: boolean;
  close(): Promise<void>;
}

type Mode = { name: string; open(host: HostCore, harness: { drop: () => void; down: boolean }): Promise<Omit<Harness, 'host' | 'drop' | 'down'>> };

function transports(host: HostCore, state: { down: boolean }) {
  const open: Transport[] = [];
  const createTransport = async (): Promise<Transport> => {
    if (state.down) throw new Error('connection refused');
    const [client, serverSide] = createInMemoryPair();
    attachTransport(host, serverSide);
    open.push(serverSide);
    return client;
  };
  return { createTransport, drop: () => open.splice(0).forEach((t) => t.close()) };
}

const connectOptions = (createTransport: () => Promise<Transport>): Partial<ConnectSessionOptions> => ({
  createTransport,
  reconnect: { initialDelayMs: 5, maxDelayMs: 20 },
  pendingTimeoutMs: 2000,
});

const MODES: Mode[] = [
  {
    name: 'page store (connectSession)',
    async open(host, h) {
      const t = transports(host, h);
      h.drop = t.drop;
      const conn = connectSession({ session: SESSION, ...connectOptions(t.createTransport) });
      await conn.ready;
      return { store: conn.store, handle: conn.handle, close: async () => conn.close() };
    },
  },
  {
    name: 'worker-backed store (session worker over comlink)',
    async open(host, h) {
      const t = transports(host, h);
      h.drop = t.drop;
      const connections: SessionConnection[] = [];
      const api = createSessionWorkerApi({
        connect: (options) => {
          const conn = connectSession({ ...options, ...connectOptions(t.createTransport) });
          connections.push(conn);
          return conn;
        },
      });
      const channel = new MessageChannel();
      expose(api, channel.port2);
      const conn = connectSessionOverEndpoint(channel.port1, { url: 'mem://contract', session: SESSION, pendingTimeoutMs: 2000 });
      await conn.ready;
      return {
        store: conn.store,
        handle: conn.handle,
        close: async () => {
          conn.close();
          for (let i = 0; i < 200 && api.stats().attachments > 0; i++) await new Promise((r) => setTimeout(r, 5));
          for (const c of connections) c.close();
          channel.port1.close();
          channel.port2.close();
        },
      };
    },
  },
];

for (const mode of MODES) {
  describe(`store contract: ${mode.name}`, () => {
    let current: Harness | undefined;
    afterEach(async () => {
      await current?.close();
      current?.host.close();
      current = undefined;
    });
    async function open(): Promise<Harness> {
      const host = new HostCore({ log: () => {} });
      host.createSession(SESSION, initial());
      const h = { drop: () => {}, down: false };
      const rest = await mode.open(host, h);
      current = {
        host,
        ...rest,
        drop: () => h.drop(),
        get down() {
          return h.down;
        },
        set down(v: boolean) {
          h.down = v;
        },
      };
      return current;
    }

    it('state and selectors: the loaded view is the host’s session; selectors read it; the store is state only', async () => {
      const { host, store, handle } = await open();
      assert.equal(store.channel, SESSION);
      assert.deepEqual(store.getState(), wire(host.getSessionState(SESSION)));
      assert.deepEqual(listMcpServers(store.getState()).map((e) => e.server.id), ['a', 'b', 'c']);
      assert.equal(kind(store.getState(), 'c'), 'ready');
      for (const name of ['getConnectionState', 'subscribeConnection', 'authenticate', 'mcpChannel']) assert.equal(name in store, false, name);
      await until(() => handle.getConnectionState().kind === 'open', 'open');
    });

    it('pending actions: dispatch is optimistic at once, confirmed by the host’s echo, and the views converge', async () => {
      const { host, store } = await open();
      const changes: number[] = [];
      store.subscribe(() => changes.push(1));
      const wakes: string[] = [];
      for (const id of ['a', 'b', 'c']) store.subscribeMcpServer(id, (s) => wakes.push(`${id}:${s?.state.kind}`));
      const seq = store.dispatch({ type: 'session/mcpServerStartRequested', id: 'b' });
      assert.equal(typeof seq, 'number');
      assert.equal(kind(store.getState(), 'b'), 'starting', 'optimistic before any answer');
      assert.ok(changes.length >= 1, 'listeners woken by the optimistic change');
      store.dispatch({ type: 'session/customizationToggled', id: 'c', enablement: [{ kind: 'global', enabled: false }] } as AnyAction);
      await until(() => kind(host.getSessionState(SESSION), 'b') === 'starting', 'the host to apply it');
      // A later host change is seen after the echoes: by then both actions are confirmed.
      host.dispatchServerAction(SESSION, { type: 'session/titleChanged', title: 'after' } as AnyAction);
      await until(() => store.getState()?.title === 'after', 'the later change');
      assert.deepEqual(wakes, ['b:starting', 'c:ready'], 'each server woke once, for its optimistic change; confirming it wakes nobody');
      host.dispatchServerAction(SESSION, { type: 'session/mcpServerStateChanged', id: 'b', state: { kind: 'ready' } } as AnyAction);
      await until(() => kind(store.getState(), 'b') === 'ready', 'the server state from the host');
      assert.deepEqual(store.getState(), wire(host.getSessionState(SESSION)));
    });

    it('rejections: reported once with the host’s reason and the dispatch’s id; the view rolls back', async () => {
      const { host, store } = await open();
      host.onClientAction(({ action }) => (action.type === 'session/mcpServerStopRequested' ? 'not here' : undefined));
      const failures: ActionFailure[] = [];
      store.onActionFailed((f) => failures.push(f));
      const id = store.dispatch({ type: 'session/mcpServerStopRequested', id: 'a' });
      assert.equal(kind(store.getState(), 'a'), 'stopped');
      await until(() => failures.length === 1, 'the rejection');
      assert.deepEqual([failures[0]!.kind, failures[0]!.clientSeq, failures[0]!.reason, failures[0]!.action.type], ['rejected', id, 'not here', 'session/mcpServerStopRequested']);
      assert.equal(kind(store.getState(), 'a'), 'ready', 'rolled back');
      await new Promise((r) => setTimeout(r, 20));
      assert.equal(failures.length, 1, 'reported once');
    });

    it('dispatch routing: the same TypeErrors for what a client may not send, nothing sent', async () => {
      const { host, store } = await open();
      const seen: string[] = [];
      host.onClientAction(({ action }) => void seen.push(action.type));
      assert.throws(() => store.dispatch({ type: 'session/mcpServerStateChanged', id: 'a', state: { kind: 'error' } } as AnyAction), /not a client-dispatchable action type/);
      assert.throws(() => store.dispatch({ type: 'chat/turnCancelled', turnId: 't' } as AnyAction), /needs a chat channel/);
      assert.throws(() => store.dispatch({ type: 'chat/turnCancelled', turnId: 't' } as AnyAction, SESSION), /needs a chat channel/);
      assert.throws(() => store.dispatch({ type: 'session/mcpServerStartRequested', id: 'b' }, CHAT), /belongs on the session channel/);
      assert.throws(() => store.watchChat(SESSION), /not a chat channel/);
      await new Promise((r) => setTimeout(r, 20));
      assert.deepEqual(seen, []);
    });

    it('wake-ups only for changed objects: servers (top level and in a plugin) and tool calls', async () => {
      const { host, store } = await open();
      const wakes: string[] = [];
      for (const id of ['a', 'b', 'c']) store.subscribeMcpServer(id, (s) => wakes.push(`${id}:${s?.state.kind}`));
      host.dispatchServerAction(SESSION, { type: 'session/mcpServerStateChanged', id: 'c', state: { kind: 'stopped' } } as AnyAction);
      await until(() => kind(store.getState(), 'c') === 'stopped', 'c stopped');
      host.dispatchServerAction(SESSION, { type: 'session/titleChanged', title: 'renamed' } as AnyAction);
      await until(() => store.getState()?.title === 'renamed', 'the title');
      assert.deepEqual(wakes, ['c:stopped'], 'only c; a title change wakes no server');

      host.createChat(SESSION, CHAT, { initialMessage: { text: 'hi', origin: { kind: 'user' } } as never });
      const turnId = host.getChatState(CHAT)!.activeTurn!.id;
      const start = (toolCallId: string) => ({ type: 'chat/toolCallStart', turnId, toolCallId, toolName: 'read', displayName: 'Read' }) as AnyAction;
      const release = store.watchChat(CHAT);
      const chatWakes: number[] = [];
      store.subscribeChat(CHAT, () => chatWakes.push(1));
      const seen: (ToolCallState | undefined)[] = [];
      store.subscribeToolCall(CHAT, 'x', (tc) => seen.push(tc));
      await until(() => store.getChatState(CHAT) !== undefined, 'the chat');
      assert.deepEqual(store.getChatState(CHAT), wire(host.getChatState(CHAT)));
      host.dispatchServerAction(CHAT, start('x'));
      await until(() => seen.length === 1, 'tool call x');
      host.dispatchServerAction(CHAT, start('y'));
      await until(() => JSON.stringify(store.getChatState(CHAT)).includes('"toolCallId":"y"'), 'tool call y');
      assert.equal(seen.length, 1, 'y does not wake x');
      assert.ok(chatWakes.length >= 2);
      release();
      await until(() => store.getChatState(CHAT) === undefined, 'the chat forgotten');
    });

    it('reconnect reports: reconnecting with attempt and next attempt time, then open with what changed meanwhile; unconfirmed work is dropped', async () => {
      const h = await open();
      const { host, store, handle } = h;
      const states: ConnectionState[] = [];
      handle.subscribeConnection((s) => states.push(s));
      const failures: ActionFailure[] = [];
      store.onActionFailed((f) => failures.push(f));
      h.down = true;
      h.drop();
      await until(() => handle.getConnectionState().kind === 'reconnecting', 'reconnecting');
      const reconnecting = handle.getConnectionState() as Extract<ConnectionState, { kind: 'reconnecting' }>;
      assert.ok(reconnecting.attempt >= 1);
      assert.equal(typeof reconnecting.nextAttemptAt, 'number');
      const id = store.dispatch({ type: 'session/mcpServerStartRequested', id: 'b' });
      await until(() => failures.length === 1, 'the action sent while down');
      assert.deepEqual([failures[0]!.kind, failures[0]!.clientSeq], ['dropped', id]);
      assert.equal(kind(store.getState(), 'b'), 'stopped', 'nothing left of it');
      host.dispatchServerAction(SESSION, { type: 'session/mcpServerStateChanged', id: 'a', state: { kind: 'stopped' } } as AnyAction);
      h.down = false;
      await until(() => handle.getConnectionState().kind === 'open', 'open again');
      await until(() => kind(store.getState(), 'a') === 'stopped', 'the change made while down');
      assert.deepEqual(store.getState(), wire(host.getSessionState(SESSION)));
      const kinds = states.map((s) => s.kind);
      assert.equal(kinds.at(-1), 'open');
      assert.ok(kinds.slice(0, -1).every((k) => k === 'reconnecting'), kinds.join(', '));
    });
  });
}
