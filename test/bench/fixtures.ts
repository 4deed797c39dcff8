// Session, chat and store fixtures for the store benchmarks.
import type { ActionEnvelope, AnyAction, ChatState, Customization, McpServerCustomization, SessionState } from '../../src/protocol/index.js';
import { chatReducer } from '../../src/reducers/index.js';
import { SessionStore } from '../../src/store/index.js';

export const SESSION = 'ahp-session:/bench';
export const CHAT = 'ahp-chat:/bench';
export const ME = 'bench-client';
export const TURN = 'turn-0';

const server = (id: string): McpServerCustomization => ({
  type: 'mcpServer', id, uri: `file:///servers/${id}`, name: `Server ${id}`, state: { kind: 'ready' },
  enablement: [{ kind: 'global', enabled: true }],
});

/** Ids of the benchmark session's MCP servers. */
export const serverIds = (count: number): string[] => Array.from({ length: count }, (_, i) => `srv-${i}`);

/** A session with `count` MCP servers: most at the top level, 100 inside two plugins. */
export function sessionWithServers(count = 1000): SessionState {
  const ids = serverIds(count);
  const nested = Math.min(100, count);
  const top = ids.slice(0, count - nested).map(server);
  const plugins: Customization[] = [0, 1].map((p) => ({
    type: 'plugin', id: `plugin-${p}`, uri: `file:///plugins/${p}`, name: `Plugin ${p}`,
    children: ids.slice(count - nested).filter((_, i) => i % 2 === p).map(server),
  }));
  return { provider: 'bench', title: 'Bench', status: 1, lifecycle: 'ready', activeClients: [], chats: [], customizations: [...top, ...plugins] };
}

/** Tool-call action aimed at the benchmark turn. */
export const tc = (type: string, toolCallId: string, extra: Record<string, unknown> = {}): AnyAction => ({ type, turnId: TURN, toolCallId, ...extra });

/** A chat with an active turn holding `streaming` streaming tool calls and `pending` ones waiting for confirmation. */
export function chatWithToolCalls(streaming: number, pending = 0): ChatState {
  let s: ChatState = { resource: CHAT, title: 'Bench', status: 1, modifiedAt: '2026-01-01T00:00:00.000Z', turns: [] };
  s = chatReducer(s, { type: 'chat/turnStarted', turnId: TURN, startedAt: '2026-01-01T00:00:00.000Z', message: { text: 'go', origin: { kind: 'user' } } });
  for (let i = 0; i < streaming; i++) {
    s = chatReducer(s, tc('chat/toolCallStart', `s-${i}`, { toolName: 'read', displayName: 'Read', contributor: { kind: 'mcp', customizationId: `srv-${i}` } }));
  }
  for (let i = 0; i < pending; i++) {
    s = chatReducer(s, tc('chat/toolCallStart', `p-${i}`, { toolName: 'write', displayName: 'Write' }));
    s = chatReducer(s, tc('chat/toolCallReady', `p-${i}`, { invocationMessage: 'Write it', toolInput: '{}' }));
  }
  return s;
}

/** A loaded store for the benchmark session, watching the benchmark chat (loaded when `chat` is given). */
export function benchStore(session: SessionState, chat?: ChatState): SessionStore {
  let seq = 0;
  const store = new SessionStore({ channel: SESSION, clientId: ME, send: () => {}, nextClientSeq: () => ++seq, pendingTimeoutMs: 3_600_000 });
  store.loadSnapshot({ resource: SESSION, state: session, fromSeq: 1 });
  if (chat) {
    store.watchChat(CHAT);
    store.loadSnapshot({ resource: CHAT, state: chat, fromSeq: 1 });
  }
  return store;
}

/** Monotonic serverSeq source shared by a benchmark run. */
export function sequence(start = 2): (channel: string, action: AnyAction) => ActionEnvelope {
  let serverSeq = start;
  return (channel, action) => ({ channel, serverSeq: serverSeq++, action });
}
