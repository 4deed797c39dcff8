// The W1-W3 action streams of issue 15, with the states they start from. Plain data, no reducer: the same
// streams can be folded by any AHP reducer (ours here; the upstream reference when compared side by side).
import type { AnyAction, ChatState, Customization, McpServerCustomization, SessionState } from '../../src/protocol/index.js';

export interface Workload<S> {
  name: string;
  initial: () => S;
  actions: AnyAction[];
  /** Throws when the folded state is not what the stream should produce (a fold that skipped work). */
  check(state: S): void;
}

const STARTED_AT = '2026-01-01T00:00:00.000Z';
const CHAT = 'ahp-chat:/bench';

const idleChat = (): ChatState => ({ resource: CHAT, title: 'Bench', status: 1, modifiedAt: STARTED_AT, turns: [] });
const turnStarted = (turnId: string): AnyAction =>
  ({ type: 'chat/turnStarted', turnId, startedAt: STARTED_AT, message: { text: 'go', origin: { kind: 'user' } } }) as AnyAction;

/** Deterministic pseudo-random sequence (the same stream in every process). */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** W1: `deltas` `chat/delta` actions streamed into four markdown parts of one active turn. */
export function w1ChatDeltas(deltas = 200_000): Workload<ChatState> {
  const turnId = 'turn-w1';
  const parts = ['md-0', 'md-1', 'md-2', 'md-3'];
  const setup: AnyAction[] = [turnStarted(turnId)];
  for (const id of parts) setup.push({ type: 'chat/responsePart', turnId, part: { kind: 'markdown', id, content: '' } } as AnyAction);
  const actions: AnyAction[] = [...setup];
  for (let i = 0; i < deltas; i++) {
    actions.push({ type: 'chat/delta', turnId, partId: parts[Math.floor((i * parts.length) / deltas)]!, content: 'word ' } as AnyAction);
  }
  return {
    name: `W1 ${deltas.toLocaleString('en-US')} chat/delta`,
    initial: idleChat,
    actions,
    check(state) {
      const part = state.activeTurn?.responseParts.at(-1) as { content?: string } | undefined;
      if (part?.content?.length !== (deltas / parts.length) * 5) throw new Error('W1: deltas were not applied');
    },
  };
}

export const W2_DELTAS = 8;
export const W2_CALLS_PER_TURN = 50;

/** W2: `calls` tool-call lifecycles (start, 8 deltas, ready, confirmed, complete), 50 per turn. */
export function w2ToolCalls(calls = 20_000): Workload<ChatState> {
  const actions: AnyAction[] = [];
  let turnId = '';
  for (let i = 0; i < calls; i++) {
    if (i % W2_CALLS_PER_TURN === 0) {
      if (turnId) actions.push({ type: 'chat/turnComplete', turnId, duration: 10 } as AnyAction);
      turnId = `turn-${i / W2_CALLS_PER_TURN}`;
      actions.push(turnStarted(turnId));
    }
    const base = { turnId, toolCallId: `call-${i}` };
    actions.push({ type: 'chat/toolCallStart', ...base, toolName: 'read_file', displayName: 'Read file', contributor: { kind: 'mcp', customizationId: `srv-${i % 100}` } } as AnyAction);
    for (let d = 0; d < W2_DELTAS; d++) actions.push({ type: 'chat/toolCallDelta', ...base, content: '{"path":' } as AnyAction);
    actions.push({ type: 'chat/toolCallReady', ...base, invocationMessage: 'Read file', toolInput: '{"path":"a.txt"}' } as AnyAction);
    actions.push({ type: 'chat/toolCallConfirmed', ...base, approved: true, confirmed: 'user-action' } as AnyAction);
    actions.push({ type: 'chat/toolCallComplete', ...base, result: { success: true, pastTenseMessage: 'Read file', content: [{ type: 'text', text: 'ok' }] } } as AnyAction);
  }
  actions.push({ type: 'chat/turnComplete', turnId, duration: 10 } as AnyAction);
  return {
    name: `W2 ${calls.toLocaleString('en-US')} tool-call lifecycles`,
    initial: idleChat,
    actions,
    check(state) {
      const last = state.turns.at(-1)?.responseParts.at(-1) as { toolCall?: { status?: string } } | undefined;
      if (state.turns.length !== Math.ceil(calls / W2_CALLS_PER_TURN) || last?.toolCall?.status !== 'completed') throw new Error('W2: lifecycles were not applied');
    },
  };
}

const server = (id: string): McpServerCustomization => ({
  type: 'mcpServer', id, uri: `file:///servers/${id}`, name: `Server ${id}`, state: { kind: 'ready' },
});

/** A session with `count` top-level MCP servers `srv-0…`. */
export function sessionWithServers(count: number): SessionState {
  const customizations: Customization[] = Array.from({ length: count }, (_, i) => server(`srv-${i}`));
  return { provider: 'bench', title: 'Bench', status: 1, lifecycle: 'ready', activeClients: [], chats: [], customizations };
}

const W3_STATES = [{ kind: 'starting' }, { kind: 'ready' }, { kind: 'stopped' }, { kind: 'error', message: 'exited' }];

/** W3: `changes` `session/mcpServerStateChanged` actions, each to a random one of `servers` servers. */
export function w3ServerStates(servers: number, changes = 100_000): Workload<SessionState> {
  const next = random(servers);
  const actions: AnyAction[] = [];
  for (let i = 0; i < changes; i++) {
    const id = `srv-${Math.floor(next() * servers)}`;
    actions.push({ type: 'session/mcpServerStateChanged', id, state: W3_STATES[i % W3_STATES.length] } as AnyAction);
  }
  const lastId = (actions.at(-1) as unknown as { id: string }).id;
  return {
    name: `W3 ${changes.toLocaleString('en-US')} mcpServerStateChanged, ${servers.toLocaleString('en-US')} servers`,
    initial: () => sessionWithServers(servers),
    actions,
    check(state) {
      const last = state.customizations?.find((c) => c.id === lastId) as McpServerCustomization | undefined;
      if (state.customizations?.length !== servers || last?.state.kind !== W3_STATES[(changes - 1) % W3_STATES.length]!.kind) throw new Error('W3: changes were not applied');
    },
  };
}
