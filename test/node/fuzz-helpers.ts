// Seeded generators for the random-sequence reducer tests.
import type { AnyAction, ChatState, SessionState } from '../../src/protocol/index.js';
import { chatReducer } from '../../src/reducers/index.js';

/** mulberry32: small, fast, seedable. */
export function createRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const pick = <T>(rnd: () => number, items: readonly T[]): T => items[Math.floor(rnd() * items.length)] as T;

const IDS = ['s1', 's2', 'c-s1', 'plugin', 'dir', 'skill', 'nope', ''];
const KINDS = ['starting', 'ready', 'authRequired', 'error', 'stopped', 'x-future'];
const GARBAGE_VALUES: unknown[] = [null, undefined, 0, -1, 1.5, '', 'x', true, [], {}, [null], { kind: 7 }, { type: null }];

function randomState(rnd: () => number): unknown {
  const kind = pick(rnd, KINDS);
  switch (kind) {
    case 'starting': return { kind, blocking: rnd() < 0.5 };
    case 'error': return { kind, error: { errorType: 'spawn', message: 'boom' } };
    case 'authRequired': return { kind, reason: pick(rnd, ['required', 'expired', 'x-new']), resource: { resource: 'https://r.example/mcp' } };
    default: return { kind };
  }
}

function randomEnablement(rnd: () => number): unknown[] {
  const n = Math.floor(rnd() * 3);
  return Array.from({ length: n }, () => pick(rnd, [
    { kind: 'global', enabled: rnd() < 0.5 },
    { kind: 'session', enabled: rnd() < 0.5 },
    { kind: 'workspace', uri: 'file:///w', enabled: rnd() < 0.5 },
    { kind: 'x-team', enabled: rnd() < 0.5 },
  ]));
}

function randomServer(rnd: () => number, id: string): unknown {
  return { type: 'mcpServer', id, uri: `mcp:${id}`, name: id.toUpperCase(), state: randomState(rnd), enablement: randomEnablement(rnd) };
}

function randomCustomization(rnd: () => number): unknown {
  switch (pick(rnd, ['mcp', 'plugin', 'dir', 'unknown'])) {
    case 'mcp': return randomServer(rnd, pick(rnd, ['s1', 's2']));
    case 'plugin':
      return { type: 'plugin', id: 'plugin', uri: 'p', name: 'P', enabled: rnd() < 0.5, children: [randomServer(rnd, 'c-s1'), { type: 'skill', id: 'skill', uri: 'k', name: 'K' }] };
    case 'dir':
      return { type: 'directory', id: 'dir', uri: 'd', name: 'D', enabled: true, contents: 'skill', writable: false, children: rnd() < 0.5 ? [] : undefined };
    default:
      return { type: 'x-widget', id: 'w', uri: 'w', name: 'W', extra: { keep: true } };
  }
}

/** A session with servers at the top level and inside a plugin. */
export function initialFuzzSession(): SessionState {
  return {
    provider: 'fuzz',
    title: 'Fuzz',
    status: 1 | 32 | 1024,
    lifecycle: 'ready',
    activeClients: [],
    chats: [],
    customizations: [
      { type: 'mcpServer', id: 's1', uri: 'mcp:s1', name: 'S1', state: { kind: 'ready' }, enablement: [{ kind: 'global', enabled: true }] },
      { type: 'plugin', id: 'plugin', uri: 'p', name: 'P', enablement: [], children: [
        { type: 'mcpServer', id: 'c-s1', uri: 'mcp:c', name: 'C', state: { kind: 'stopped' } },
        { type: 'skill', id: 'skill', uri: 'k', name: 'K' },
      ] },
    ],
  } as SessionState;
}

/** A well-typed session action aimed at known and unknown ids. */
export function randomSessionAction(rnd: () => number): Record<string, unknown> {
  const id = pick(rnd, IDS);
  switch (Math.floor(rnd() * 21)) {
    case 0: return { type: 'session/customizationsChanged', customizations: Array.from({ length: Math.floor(rnd() * 4) }, () => randomCustomization(rnd)) };
    case 1: return { type: 'session/customizationUpdated', customization: randomCustomization(rnd) };
    case 2: return { type: 'session/customizationRemoved', id };
    case 3: return { type: 'session/customizationToggled', id, enablement: randomEnablement(rnd) };
    case 4: return { type: 'session/customizationToggled', id, enabled: rnd() < 0.5 };
    case 5: return { type: 'session/mcpServerStateChanged', id, state: randomState(rnd), ...(rnd() < 0.5 ? { channel: `mcp://${id}` } : {}) };
    case 6: return { type: 'session/mcpServerStartRequested', id };
    case 7: return { type: 'session/mcpServerStopRequested', id };
    case 8: return { type: 'session/mcpServerBackgroundRequested', id };
    case 9: return { type: 'session/titleChanged', title: `t${Math.floor(rnd() * 10)}` };
    case 10: return { type: 'session/isReadChanged', isRead: rnd() < 0.5 };
    case 11: return { type: 'session/inputNeededSet', request: { kind: pick(rnd, ['toolConfirmation', 'toolClientExecution', 'chatInput', 'x-new']), id: pick(rnd, ['r1', 'r2']), chat: 'ahp-chat:/c', turnId: 't', toolCall: {} } };
    case 12: return { type: 'session/inputNeededRemoved', id: pick(rnd, ['r1', 'r2', 'r3']) };
    case 13: return { type: 'session/chatAdded', summary: { resource: pick(rnd, ['ahp-chat:/a', 'ahp-chat:/b']), title: 'c', status: 1, modifiedAt: '2026-01-01T00:00:00Z' } };
    case 14: return { type: 'session/chatRemoved', chat: pick(rnd, ['ahp-chat:/a', 'ahp-chat:/b', 'ahp-chat:/z']) };
    case 15: {
      // Mostly complete permutations of the chats the generator adds, sometimes incomplete or with duplicates.
      const all = ['ahp-chat:/a', 'ahp-chat:/b'];
      const chats = rnd() < 0.6 ? (rnd() < 0.5 ? all : [...all].reverse()) : pick(rnd, [['ahp-chat:/a'], ['ahp-chat:/a', 'ahp-chat:/a'], ['ahp-chat:/z', 'ahp-chat:/b'], []]);
      return { type: 'session/chatsReordered', chats, ...(rnd() < 0.3 ? { destination: { kind: 'start' } } : {}) };
    }
    case 16: return { type: 'session/artifactSet', artifact: { type: pick(rnd, ['resource', 'x-bundle']), uri: pick(rnd, ['ahp-content:/1', 'ahp-content:/2']), label: 'A', relations: [] } };
    case 17: return { type: 'session/artifactRemoved', uri: pick(rnd, ['ahp-content:/1', 'ahp-content:/2', 'ahp-content:/9']) };
    case 18: return { type: pick(rnd, ['session/workingDirectorySet', 'session/workingDirectoryRemoved']), directory: pick(rnd, ['file:///a', 'file:///b']) };
    case 19: return { type: 'session/chatUpdated', chat: pick(rnd, ['ahp-chat:/a', 'ahp-chat:/b']), changes: { title: `c${Math.floor(rnd() * 5)}` } };
    default: return { type: 'session/activeClientSet', activeClient: { clientId: pick(rnd, ['me', 'you']), tools: [] } };
  }
}

/** Actions with wrong types, missing fields and unknown type names. */
export function randomGarbage(rnd: () => number): unknown {
  const type = pick(rnd, [
    'session/customizationToggled', 'session/mcpServerStateChanged', 'session/customizationUpdated', 'session/customizationsChanged',
    'session/customizationRemoved', 'session/inputNeededSet', 'session/chatUpdated', 'session/mcpServerStartRequested',
    'x-vendor/thing', 'session/', '', 'chat/toolCallStart', 'session/chatsReordered', 'session/artifactSet', 'session/artifactRemoved',
  ]);
  const fields = ['id', 'state', 'enablement', 'enabled', 'customization', 'customizations', 'request', 'chat', 'changes', 'channel', 'chats', 'artifact', 'uri', 'destination'];
  const action: Record<string, unknown> = { type: rnd() < 0.05 ? pick(rnd, GARBAGE_VALUES) : type };
  for (const f of fields) if (rnd() < 0.4) action[f] = pick(rnd, GARBAGE_VALUES);
  return rnd() < 0.02 ? pick(rnd, GARBAGE_VALUES) : action;
}

// ---- Chat channel ----

const TOOL_CALL_IDS = ['tc0', 'tc1', 'tc2', 'tc3', 'nope', ''];
const TURN_IDS = ['t0', 't1', 't2', 't3', 'unknown-turn'];
const STRING_OR_MARKDOWN = ['Reading', { markdown: '**Write** it' }];

/** An idle chat without turns. */
export function initialFuzzChat(): ChatState {
  return { resource: 'ahp-chat:/fuzz', title: 'Fuzz', status: 1 | 32 | 2048, modifiedAt: '2026-01-01T00:00:00.000Z', turns: [] };
}

function randomContributor(rnd: () => number): unknown {
  return pick(rnd, [undefined, { kind: 'mcp', customizationId: 's1' }, { kind: 'mcp', customizationId: 's2' }, { kind: 'client', clientId: 'me' }, { kind: 'x-agent', agent: 'a' }]);
}

function randomResult(rnd: () => number): unknown {
  const success = rnd() < 0.6;
  return {
    success,
    pastTenseMessage: pick(rnd, STRING_OR_MARKDOWN),
    ...(rnd() < 0.5 ? { content: [pick(rnd, [{ type: 'text', text: 'out' }, { type: 'x-chart', data: [1, 2] }])] } : {}),
    ...(success ? {} : { error: { message: 'failed', code: pick(rnd, ['cancelled', 'x-oops']) } }),
  };
}

/** Tool-call ids of the active turn, so most lifecycle steps hit a real tool call. */
function liveToolCallIds(state: ChatState): string[] {
  const parts = state.activeTurn?.responseParts;
  if (!Array.isArray(parts)) return [];
  const ids: string[] = [];
  for (const p of parts) if (p?.kind === 'toolCall' && typeof p.toolCall?.toolCallId === 'string') ids.push(p.toolCall.toolCallId);
  return ids;
}

/**
 * A well-typed chat action. Most aim at the active turn and its tool calls (valid lifecycles);
 * the rest use unknown turn ids, unknown tool-call ids and unknown enum values.
 */
export function randomChatAction(rnd: () => number, state: ChatState): Record<string, unknown> {
  const active = state.activeTurn?.id;
  const turnId = active !== undefined && rnd() < 0.85 ? active : pick(rnd, TURN_IDS);
  const live = liveToolCallIds(state);
  const toolCallId = live.length > 0 && rnd() < 0.85 ? pick(rnd, live) : pick(rnd, TOOL_CALL_IDS);
  const base = { turnId, toolCallId, ...(rnd() < 0.1 ? { _meta: { ui: { resourceUri: 'ui://app' }, step: Math.floor(rnd() * 9) } } : {}) };
  const partId = pick(rnd, ['m0', 'r0', 'x']);
  const requestId = liveRequestId(state) ?? pick(rnd, ['r0', 'r1']);
  const queued = state.queuedMessages?.map((m) => m.id) ?? [];
  switch (Math.floor(rnd() * 40)) {
    case 0: case 1:
      return { type: 'chat/turnStarted', turnId: rnd() < 0.7 ? `t${Math.floor(rnd() * 1e6)}` : pick(rnd, TURN_IDS), startedAt: '2026-02-01T10:00:00.000Z', message: { text: 'go', origin: { kind: pick(rnd, ['user', 'x-bot']) } } };
    case 2: case 3:
      return { type: 'chat/toolCallStart', ...base, toolCallId: rnd() < 0.8 ? `tc${Math.floor(rnd() * 6)}` : toolCallId, toolName: 'tool', displayName: 'Tool', contributor: randomContributor(rnd) };
    case 4: case 5:
      return { type: 'chat/toolCallDelta', ...base, content: pick(rnd, ['{"a', '":1}', '']), ...(rnd() < 0.3 ? { invocationMessage: pick(rnd, STRING_OR_MARKDOWN) } : {}) };
    case 6: case 7:
      return {
        type: 'chat/toolCallReady', ...base, invocationMessage: pick(rnd, STRING_OR_MARKDOWN), toolInput: pick(rnd, ['{}', { uri: 'ahp-content:/1' }, undefined]),
        contributor: randomContributor(rnd),
        ...(rnd() < 0.5 ? { confirmed: pick(rnd, ['not-needed', 'user-action', 'setting', 'x-policy']) } : { options: [{ id: 'ok', label: 'OK', kind: 'approve' }], confirmationTitle: 'Sure?' }),
      };
    case 8: case 9:
      return rnd() < 0.7
        ? { type: 'chat/toolCallConfirmed', ...base, approved: true, confirmed: pick(rnd, ['user-action', 'setting', 'x-new']), selectedOptionId: 'ok', ...(rnd() < 0.3 ? { editedToolInput: '{"b":2}' } : {}) }
        : { type: 'chat/toolCallConfirmed', ...base, approved: false, reason: pick(rnd, ['denied', 'skipped', 'x-bored']), reasonMessage: 'no' };
    case 10: case 11:
      return { type: 'chat/toolCallComplete', ...base, result: randomResult(rnd), requiresResultConfirmation: rnd() < 0.3 };
    case 12: return { type: 'chat/toolCallResultConfirmed', ...base, approved: rnd() < 0.5 };
    case 13: return { type: 'chat/toolCallContentChanged', ...base, content: [{ type: pick(rnd, ['text', 'x-new']), text: 'partial' }] };
    case 14: case 15:
      return { type: 'chat/toolCallAuthRequired', ...base, auth: { reason: pick(rnd, ['required', 'expired', 'x-revoked']), resource: { resource: 'https://mcp.example/' }, requiredScopes: ['read'] } };
    case 16: return { type: 'chat/toolCallAuthResolved', ...base };
    case 17: return { type: 'chat/responsePart', turnId, part: pick(rnd, [{ kind: 'markdown', id: 'm0', content: 'Hi' }, { kind: 'reasoning', id: 'r0', content: 'hm' }, { kind: 'inputRequest', request: { id: 'q' } }, { kind: 'x-canvas', id: 'c' }]) };
    case 18: return { type: pick(rnd, ['chat/delta', 'chat/reasoning']), turnId, partId, content: 'more' };
    case 19: return { type: 'chat/usage', turnId, usage: { inputTokens: 3, model: 'x' } };
    case 20: return { type: pick(rnd, ['chat/turnComplete', 'chat/turnCancelled']), turnId, duration: pick(rnd, [0, 15, -3, 1e3]) };
    case 21: return { type: 'chat/error', turnId, duration: 4, part: { kind: 'error', error: { errorType: 'x', message: 'boom' }, resumable: rnd() < 0.5 } };
    case 22: return { type: pick(rnd, ['chat/isReadChanged', 'chat/isArchivedChanged']), isRead: rnd() < 0.5, isArchived: rnd() < 0.5 };
    case 23: return { type: 'chat/activityChanged', activity: pick(rnd, ['Thinking', undefined, null]) };
    case 24: case 25:
      return { type: 'chat/pendingMessageSet', kind: pick(rnd, ['steering', 'queued', 'queued', 'x-later']), id: pick(rnd, ['p0', 'p1', 'p2']), message: { text: 'later', origin: { kind: 'user' } } };
    case 26: return { type: 'chat/pendingMessageRemoved', kind: pick(rnd, ['steering', 'queued']), id: pick(rnd, ['p0', 'p1', 'p2', 'p9']) };
    case 27: return { type: 'chat/queuedMessagesReordered', order: rnd() < 0.7 ? [...queued].reverse() : pick(rnd, [['p2', 'p2'], ['p9'], []]) };
    case 28: return { type: 'chat/draftChanged', ...(rnd() < 0.7 ? { draft: { text: `d${Math.floor(rnd() * 3)}`, origin: { kind: 'user' } } } : {}) };
    case 29: case 30:
      return { type: 'chat/inputRequested', request: { id: pick(rnd, ['r0', 'r1']), message: 'Which?', questions: [{ id: 'q', kind: pick(rnd, ['text', 'single-select', 'x-slider']), message: 'Q' }] } };
    case 31: return { type: 'chat/inputAnswerChanged', requestId, questionId: pick(rnd, ['q', 'q2']), ...(rnd() < 0.8 ? { answer: { state: 'draft', value: { kind: 'text', value: 'a' } } } : {}) };
    case 32: return { type: 'chat/inputCompleted', requestId, ...(rnd() < 0.9 ? { response: pick(rnd, ['accept', 'decline', 'cancel', 'x-later']) } : {}), answers: { q: { state: 'submitted', value: { kind: 'text', value: 'b' } } } };
    case 33: {
      const ids = state.turns.map((t) => t.id);
      return rnd() < 0.3 ? { type: 'chat/truncated' } : { type: 'chat/truncated', turnId: ids.length > 0 && rnd() < 0.8 ? pick(rnd, ids) : pick(rnd, TURN_IDS) };
    }
    case 34: {
      const loaded = Array.from({ length: Math.floor(rnd() * 3) }, () => ({
        id: rnd() < 0.7 ? `old${Math.floor(rnd() * 1e6)}` : pick(rnd, TURN_IDS), startedAt: '2026-01-01T00:00:00.000Z', duration: 3,
        message: { text: 'old', origin: { kind: 'user' } }, responseParts: [{ kind: 'markdown', id: 'm', content: 'old' }], usage: undefined, state: pick(rnd, ['complete', 'error']),
      }));
      return { type: 'chat/turnsLoaded', turns: loaded, ...(rnd() < 0.5 ? { turnsNextCursor: 'older' } : {}) };
    }
    case 35: case 36: {
      const last = state.turns[state.turns.length - 1];
      return { type: 'chat/turnResume', turnId: last && rnd() < 0.85 ? last.id : pick(rnd, TURN_IDS) };
    }
    case 37: return { type: pick(rnd, ['chat/workingDirectorySet', 'chat/workingDirectoryRemoved']), directory: pick(rnd, ['file:///a', 'file:///b']) };
    case 38: return rnd() < 0.6
      ? { type: 'chat/backgroundWorkSet', work: { id: pick(rnd, ['w0', 'w1']), kind: pick(rnd, ['shell', 'subagent', 'x-daemon']), label: 'bg' } }
      : { type: 'chat/backgroundWorkRemoved', id: pick(rnd, ['w0', 'w1', 'w9']) };
    default:
      return pick(rnd, [
        { type: 'chat/movableChanged', movable: rnd() < 0.5 },
        { type: 'chat/changesetsChanged', ...(rnd() < 0.6 ? { changesets: [{ uri: 'ahp-changeset:/1' }] } : {}) },
        { type: 'chat/canvasesChanged', ...(rnd() < 0.6 ? { canvases: [{ resource: 'ahp-canvas:/1' }] } : {}) },
      ]);
  }
}

/** Id of an open input request in the active turn, so answers and completions mostly hit one. */
function liveRequestId(state: ChatState): string | undefined {
  const parts = state.activeTurn?.responseParts;
  if (!Array.isArray(parts)) return undefined;
  for (const p of parts) if (p?.kind === 'inputRequest' && p.response === undefined && typeof p.request?.id === 'string') return p.request.id;
  return undefined;
}

/** Chat actions with wrong types, missing fields, unknown type names, and non-object actions (null included). */
export function randomChatGarbage(rnd: () => number): unknown {
  if (rnd() < 0.05) return pick(rnd, [null, undefined, 0, 'chat/delta', true, [], [{ type: 'chat/delta' }]]);
  const type = pick(rnd, [
    'chat/turnStarted', 'chat/toolCallStart', 'chat/toolCallDelta', 'chat/toolCallReady', 'chat/toolCallConfirmed', 'chat/toolCallComplete',
    'chat/toolCallResultConfirmed', 'chat/toolCallContentChanged', 'chat/toolCallAuthRequired', 'chat/toolCallAuthResolved',
    'chat/responsePart', 'chat/delta', 'chat/turnComplete', 'chat/error', 'chat/x-future', 'session/titleChanged', 'toString', '__proto__',
    'chat/turnResume', 'chat/truncated', 'chat/turnsLoaded', 'chat/pendingMessageSet', 'chat/pendingMessageRemoved', 'chat/queuedMessagesReordered',
    'chat/draftChanged', 'chat/inputRequested', 'chat/inputAnswerChanged', 'chat/inputCompleted', 'chat/workingDirectorySet', 'chat/workingDirectoryRemoved',
    'chat/backgroundWorkSet', 'chat/backgroundWorkRemoved', 'chat/movableChanged', 'chat/changesetsChanged', 'chat/canvasesChanged',
  ]);
  const fields = ['turnId', 'toolCallId', 'toolName', 'displayName', 'content', 'invocationMessage', 'result', 'approved', 'confirmed', 'reason',
    'auth', 'part', 'partId', 'duration', 'message', 'startedAt', 'contributor', '_meta', 'options', 'selectedOptionId', 'requiresResultConfirmation',
    'kind', 'id', 'order', 'draft', 'request', 'requestId', 'questionId', 'answer', 'answers', 'response', 'turns', 'turnsNextCursor', 'directory', 'work',
    'movable', 'changesets', 'canvases'];
  const action: Record<string, unknown> = { type: rnd() < 0.05 ? pick(rnd, GARBAGE_VALUES) : type };
  for (const f of fields) if (rnd() < 0.3) action[f] = pick(rnd, [...GARBAGE_VALUES, 't0', 'tc0', { success: 'yes' }, { kind: 'error' }, { resource: null }]);
  return action;
}

/**
 * A chat's action stream for the store and burst tests: `validShare` of the steps are actions that fit the chat built
 * so far, the rest garbage; at most 1,500 steps or 30 turns. Returns the stream and the chat it leads to.
 */
export function randomChatStream(rnd: () => number, validShare: number): { actions: unknown[]; state: ChatState } {
  const actions: unknown[] = [];
  let state = initialFuzzChat();
  for (let step = 0; step < 1500 && state.turns.length < 30; step++) {
    const a = rnd() < validShare ? randomChatAction(rnd, state) : randomChatGarbage(rnd);
    actions.push(a);
    state = chatReducer(state, a as never);
  }
  return { actions, state };
}

/** A session action this client might dispatch: a title, or a toggle of one of the fuzz session's customizations. */
export const randomSessionDispatch = (rnd: () => number): AnyAction =>
  pick(rnd, [
    { type: 'session/titleChanged', title: `mine${Math.floor(rnd() * 3)}` },
    { type: 'session/customizationToggled', id: pick(rnd, ['s1', 'c-s1', 'plugin']), enablement: [{ kind: 'session', enabled: rnd() < 0.5 }] },
  ]) as AnyAction;

/** A chat action this client might dispatch in `state` (confirming a tool call, answering input), or undefined. */
export function randomChatDispatch(rnd: () => number, state: ChatState): AnyAction | undefined {
  const a = randomChatAction(rnd, state) as { type: string };
  return a.type === 'chat/toolCallConfirmed' || a.type === 'chat/inputAnswered' ? (a as unknown as AnyAction) : undefined;
}

/**
 * A session with `size` top-level customizations: mostly servers, some containers (plugins, directories) holding
 * servers and skills, some other entries, a few ids taken twice, so the list spans many 64-entry chunks
 * (reducers/customization-chunks.ts) with containers and duplicates anywhere. Returns the ids in use.
 */
export function bigFuzzSession(rnd: () => number, size: number): { state: SessionState; ids: string[] } {
  const ids: string[] = [];
  const id = () => (ids.length > 0 && rnd() < 0.03 ? pick(rnd, ids) : `id-${ids.push(`id-${ids.length}`) - 1}`);
  const customizations = Array.from({ length: size }, () => {
    const r = rnd();
    if (r < 0.75) return randomServer(rnd, id());
    if (r < 0.9) {
      const children = Array.from({ length: Math.floor(rnd() * 5) }, () => (rnd() < 0.7 ? randomServer(rnd, id()) : { type: 'skill', id: id(), uri: 'k', name: 'K' }));
      return { type: pick(rnd, ['plugin', 'directory']), id: id(), uri: 'p', name: 'P', enabled: rnd() < 0.8, children };
    }
    return { type: 'skill', id: id(), uri: 'k', name: 'K' };
  });
  return { state: { ...initialFuzzSession(), customizations } as SessionState, ids };
}

/** Mostly per-server changes to the ids of a big session, with toggles, whole-entry updates, removals and title changes between. */
export function randomBigSessionAction(rnd: () => number, ids: readonly string[]): AnyAction {
  const id = rnd() < 0.02 ? 'missing' : pick(rnd, ids);
  const r = rnd();
  if (r < 0.6) return { type: 'session/mcpServerStateChanged', id, state: randomState(rnd), ...(rnd() < 0.3 ? { channel: `mcp://${id}` } : {}) } as unknown as AnyAction;
  if (r < 0.75) return { type: pick(rnd, ['session/mcpServerStartRequested', 'session/mcpServerStopRequested', 'session/mcpServerBackgroundRequested']), id } as unknown as AnyAction;
  if (r < 0.85) return { type: 'session/customizationToggled', id, ...(rnd() < 0.5 ? { enablement: randomEnablement(rnd) } : { enabled: rnd() < 0.5 }) } as unknown as AnyAction;
  if (r < 0.9) return { type: 'session/customizationUpdated', customization: randomServer(rnd, id) } as unknown as AnyAction;
  if (r < 0.92) return { type: 'session/customizationRemoved', id } as unknown as AnyAction;
  return { type: 'session/titleChanged', title: `t${Math.floor(rnd() * 10)}` } as unknown as AnyAction;
}
