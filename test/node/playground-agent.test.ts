// The playground's scripted agent end to end: real server-everything over stdio, the playground in-process,
// driven over its WebSocket with connectSession + watchChat, as a page would.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import WebSocket from 'ws';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { connectSession, type SessionConnection } from '../../src/connection/connect-session.js';
import type { ActionEnvelope, ChatState, ResponsePart, ToolCallState, Turn } from '../../src/protocol/index.js';
import type { ActionFailure } from '../../src/store/types.js';
import { startPlayground, type Playground } from '../../examples/playground/playground.js';

const WAIT_MS = 20_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until<T>(what: string, read: () => T | undefined | false, describeNow: () => string = () => ''): Promise<T> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const value = read();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${WAIT_MS} ms waiting for ${what}; now: ${describeNow()}`);
    await sleep(15);
  }
}

const toolCalls = (parts: readonly ResponsePart[] | undefined): ToolCallState[] =>
  (parts ?? []).flatMap((p) => (p.kind === 'toolCall' ? [p.toolCall] : []));
const markdownOf = (parts: readonly ResponsePart[] | undefined): string =>
  (parts ?? []).flatMap((p) => (p.kind === 'markdown' ? [p.content] : [])).join('\n');
const textOf = (tc: ToolCallState | undefined): string =>
  ((tc as { content?: { type: string; text?: string }[] } | undefined)?.content ?? []).flatMap((c) => (c.type === 'text' ? [c.text ?? ''] : [])).join('\n');

describe('playground agent (real server-everything through the playground)', () => {
  let playground: Playground;
  let conn: SessionConnection;
  let chat: string;
  const failures: ActionFailure[] = [];
  const envelopes: ActionEnvelope[] = [];

  const chatState = (uri = chat): ChatState | undefined => conn.store.getChatState(uri);
  const describeChat = (uri = chat) => JSON.stringify(chatState(uri)?.activeTurn ?? chatState(uri)?.turns.at(-1)).slice(0, 1500);

  /** Starts a user turn as a page would; returns its id. */
  function send(text: string, uri = chat): string {
    const turnId = randomUUID();
    conn.store.dispatch({ type: 'chat/turnStarted', turnId, startedAt: new Date().toISOString(), message: { text, origin: { kind: 'user' } } }, uri);
    return turnId;
  }
  const ended = (turnId: string, uri = chat): Promise<Turn> =>
    until(`turn ${turnId} to end`, () => chatState(uri)?.turns.find((t) => t.id === turnId), () => describeChat(uri));
  const activeToolCall = (turnId: string, status: string): Promise<ToolCallState> =>
    until(`a ${status} tool call in ${turnId}`, () => {
      const turn = chatState()?.activeTurn;
      return turn?.id === turnId ? toolCalls(turn.responseParts).find((tc) => tc.status === status) : undefined;
    }, () => describeChat());
  const actionsOf = (toolCallId: string) =>
    envelopes.filter((e) => (e.action as { toolCallId?: unknown }).toolCallId === toolCallId).map((e) => e.action as Record<string, unknown>);
  const inputNeeded = () => conn.store.getState()?.inputNeeded ?? [];

  before(async () => {
    playground = await startPlayground({ port: 0 });
    await playground.startServers();
    conn = connectSession({ url: playground.wsUrl, session: playground.sessionUri, WebSocket: WebSocket as never });
    conn.store.onActionFailed((f) => failures.push(f));
    conn.client.onAction((env) => envelopes.push(env));
    await conn.ready;
    chat = playground.chatUri;
    conn.store.watchChat(chat);
    await until('the main chat', () => chatState());
  });
  after(async () => {
    conn?.close();
    await playground?.close();
  });

  it('creates the main chat at startup as the session default chat', () => {
    const session = conn.store.getState()!;
    assert.equal(chat, 'ahp-chat:/playground-main');
    assert.equal(session.defaultChat, chat);
    assert.equal(session.chats.find((c) => c.resource === chat)?.title, 'Main chat');
  });

  it('/call everything get-sum {"a":1,"b":2}: the real lifecycle, MCP contributor, completed with 3', async () => {
    const turnId = send('/call everything get-sum {"a":1,"b":2}');
    const turn = await ended(turnId);
    assert.equal(turn.state, 'complete');
    assert.equal(typeof turn.duration, 'number');
    const [tc] = toolCalls(turn.responseParts);
    assert.ok(tc, describeChat());
    assert.equal(tc.status, 'completed');
    assert.deepEqual(tc.contributor, { kind: 'mcp', customizationId: 'everything' });
    assert.equal(tc.toolName, 'get-sum');
    assert.equal(tc.displayName, 'Get Sum Tool');
    assert.match(textOf(tc), /\b3\b/);
    assert.equal((tc as { success?: boolean }).success, true);
    assert.equal((tc as { confirmed?: string }).confirmed, 'not-needed');
    assert.equal((tc as { toolInput?: string }).toolInput, '{"a":1,"b":2}');
    assert.match(markdownOf(turn.responseParts), /Calling \*\*Get Sum Tool\*\*/);

    const types = actionsOf(tc.toolCallId).map((a) => a.type);
    assert.equal(types[0], 'chat/toolCallStart');
    assert.ok(types.filter((t) => t === 'chat/toolCallDelta').length >= 2, `arguments stream in pieces: ${types.join(' ')}`);
    assert.deepEqual(types.slice(-2), ['chat/toolCallReady', 'chat/toolCallComplete']);
    const streamed = actionsOf(tc.toolCallId).filter((a) => a.type === 'chat/toolCallDelta').map((a) => a.content).join('');
    assert.equal(streamed, '{"a":1,"b":2}');
    const ready = actionsOf(tc.toolCallId).find((a) => a.type === 'chat/toolCallReady')!;
    assert.equal(ready.confirmed, 'not-needed');
    assert.equal(ready.options, undefined);
    const order = envelopes.filter((e) => e.channel === chat && (e.action as { turnId?: string }).turnId === turnId).map((e) => e.action.type);
    assert.deepEqual([order[0], order.at(-1)], ['chat/turnStarted', 'chat/turnComplete']);
    assert.ok(order.includes('chat/responsePart'));
  });

  it('/echo and get-tiny-image: text and an embedded PNG', async () => {
    const echo = await ended(send('/echo hello agent'));
    assert.equal(textOf(toolCalls(echo.responseParts)[0]), 'Echo: hello agent');

    const image = await ended(send('/call everything get-tiny-image'));
    const tc = toolCalls(image.responseParts)[0] as ToolCallState & { content?: { type: string; data?: string; contentType?: string }[] };
    assert.equal(tc.status, 'completed');
    const png = tc.content?.find((c) => c.type === 'embeddedResource');
    assert.equal(png?.contentType, 'image/png');
    assert.ok(Buffer.from(png!.data!, 'base64').subarray(1, 4).toString() === 'PNG', 'base64 PNG data');
    assert.equal(tc.content?.filter((c) => c.type === 'text').length, 2);
  });

  it('a tool that needs no confirmation but fails in the server completes as a failed call', async () => {
    const turn = await ended(send('/call everything get-sum {"a":"one","b":2}'));
    assert.equal(turn.state, 'complete');
    const tc = toolCalls(turn.responseParts)[0] as ToolCallState & { success?: boolean; error?: { message: string } };
    assert.equal(tc.status, 'completed');
    assert.equal(tc.success, false);
    assert.ok(tc.error?.message, 'an error message');
    assert.match(markdownOf(turn.responseParts), /failed/);
  });

  it('carries the MCP tool _meta (MCP Apps ui) onto the tool call', async () => {
    const turn = await ended(send('/call basic-vanillajs get-time'));
    const tc = toolCalls(turn.responseParts)[0]!;
    assert.equal(tc.status, 'completed', describeChat());
    assert.deepEqual(tc.contributor, { kind: 'mcp', customizationId: 'basic-vanillajs' });
    assert.equal((tc._meta?.ui as { resourceUri?: string } | undefined)?.resourceUri, 'ui://get-time/mcp-app.html');
  });

  it('trigger-long-running-operation shows progress as content changes; cancelling the turn cancels the MCP request', async () => {
    const runtime = playground.servers.get('everything')!;
    const wire: { at: number; direction: string; message: JSONRPCMessage }[] = [];
    const untap = runtime.onMessage((direction, message) => wire.push({ at: Date.now(), direction, message }));
    try {
      // 1.5 s in 3 steps: without the cancel the server would answer ~1.5 s after the tools/call.
      const turnId = send('/long 1.5');
      await until('a progress line', () => /Step 1 of 3/.test(textOf(toolCalls(chatState()?.activeTurn?.responseParts).find((t) => t.status === 'running'))), () => describeChat());
      const running = toolCalls(chatState()!.activeTurn!.responseParts)[0]!;
      assert.equal(running.toolName, 'trigger-long-running-operation');
      const call = wire.find((w) => w.direction === 'sent' && 'method' in w.message && w.message.method === 'tools/call');
      const requestId = call && 'id' in call.message ? call.message.id : undefined;
      assert.notEqual(requestId, undefined, 'the tools/call request went out');

      conn.store.dispatch({ type: 'chat/turnCancelled', turnId, duration: 1 }, chat);
      const turn = await ended(turnId);
      assert.equal(turn.state, 'cancelled');
      const tc = toolCalls(turn.responseParts)[0]!;
      assert.equal(tc.status, 'cancelled');
      assert.equal((tc as { reason?: string }).reason, 'skipped');

      const cancels = () =>
        wire.filter((w) => w.direction === 'sent' && 'method' in w.message && w.message.method === 'notifications/cancelled')
          .map((w) => (w.message as { params?: { requestId?: unknown } }).params?.requestId);
      await until('notifications/cancelled', () => cancels().length > 0);
      assert.deepEqual(cancels(), [requestId], 'exactly the running tools/call is cancelled (not the finished tools/list)');
      const contentChangesBefore = actionsOf(tc.toolCallId).filter((a) => a.type === 'chat/toolCallContentChanged').length;
      assert.ok(contentChangesBefore >= 1, 'progress reached the tool call');
      // Past the time the operation would have answered: the server dropped the request, no result came back.
      await sleep(call!.at + 1500 + 800 - Date.now());
      const answered = wire.some((w) => w.direction === 'received' && 'id' in w.message && w.message.id === requestId);
      assert.equal(answered, false, 'the server sent no result for the cancelled request');
      assert.equal(actionsOf(tc.toolCallId).filter((a) => a.type === 'chat/toolCallContentChanged').length, contentChangesBefore, 'no progress after the cancel');
    } finally {
      untap();
    }
    // The agent goes on.
    const next = await ended(send('/sum 2 3'));
    assert.match(textOf(toolCalls(next.responseParts)[0]), /\b5\b/);
  });

  it('runtime.callTool: aborting the signal rejects the SDK call with an abort error; progress reaches onProgress', async () => {
    const runtime = playground.servers.get('everything')!;
    const controller = new AbortController();
    const steps: number[] = [];
    const call = runtime.callTool('trigger-long-running-operation', { duration: 2, steps: 4 }, {
      signal: controller.signal,
      onProgress: (p) => {
        steps.push(p.progress);
        controller.abort();
      },
    });
    await assert.rejects(call, /AbortError/);
    assert.deepEqual(steps, [1]);
  });

  it('long-running progress reads "Step n of m" and the call completes when left alone', async () => {
    const turnId = send('/long 1');
    const turn = await ended(turnId);
    const tc = toolCalls(turn.responseParts)[0]!;
    assert.equal(tc.status, 'completed');
    const progress = actionsOf(tc.toolCallId).filter((a) => a.type === 'chat/toolCallContentChanged').map((a) => (a.content as { text: string }[])[0]!.text);
    // The SDK may drop the last notification when the result arrives in the same read; the first one always shows.
    assert.equal(progress[0], 'Step 1 of 2');
    assert.ok(progress.every((line, i) => line === `Step ${i + 1} of 2`), progress.join(', '));
    assert.match(textOf(tc), /Long running operation completed/);
  });

  describe('confirmation (get-env is listed in servers.json "confirm")', () => {
    it('waits in pending-confirmation with options and an inputNeeded entry; approve → completed, entry removed', async () => {
      const turnId = send('/env');
      const pending = (await activeToolCall(turnId, 'pending-confirmation')) as ToolCallState & { options?: { id: string; kind: string; group?: number }[] };
      assert.deepEqual(pending.options?.map((o) => [o.id, o.kind]), [['allow-once', 'approve'], ['allow-session', 'approve'], ['deny', 'deny']]);
      assert.equal(pending.options?.[1]?.group, 1);
      assert.equal((pending as { editable?: boolean }).editable, true);
      const entry = await until('the inputNeeded entry', () => inputNeeded().find((r) => r.kind === 'toolConfirmation'));
      assert.ok(entry.kind === 'toolConfirmation');
      assert.equal(entry.chat, chat);
      assert.equal(entry.turnId, turnId);
      assert.equal(entry.toolCall.toolCallId, pending.toolCallId);
      assert.equal(entry.toolCall.status, 'pending-confirmation');

      conn.store.dispatch({ type: 'chat/toolCallConfirmed', turnId, toolCallId: pending.toolCallId, approved: true, confirmed: 'user-action', selectedOptionId: 'allow-once' }, chat);
      const turn = await ended(turnId);
      const tc = toolCalls(turn.responseParts)[0] as ToolCallState & { success?: boolean; selectedOption?: { id: string } };
      assert.equal(tc.status, 'completed');
      assert.equal(tc.success, true);
      assert.equal(tc.selectedOption?.id, 'allow-once');
      assert.match(textOf(tc), /PATH|HOME/);
      await until('the entry to go', () => inputNeeded().length === 0);
    });

    it('a second page that only watches the session resolves the confirmation from inputNeeded', async () => {
      const other = connectSession({ url: playground.wsUrl, session: playground.sessionUri, WebSocket: WebSocket as never });
      const otherFailures: ActionFailure[] = [];
      other.store.onActionFailed((f) => otherFailures.push(f));
      try {
        await other.ready;
        const turnId = send('/env');
        const entry = await until('the entry on the other page', () => other.store.getState()?.inputNeeded?.find((r) => r.kind === 'toolConfirmation'));
        assert.ok(entry.kind === 'toolConfirmation');
        other.store.dispatch({ type: 'chat/toolCallConfirmed', turnId: entry.turnId, toolCallId: entry.toolCall.toolCallId, approved: true, confirmed: 'user-action', selectedOptionId: 'allow-once' }, entry.chat);
        const tc = toolCalls((await ended(turnId)).responseParts)[0]!;
        assert.equal(tc.status, 'completed');
        await until('the entry to go on the other page', () => (other.store.getState()?.inputNeeded ?? []).length === 0);
        await sleep(100);
        // Known gap (reported, src/ is not ours): the host echoes only to the chat's subscribers, so this store's pending
        // action would still expire as a 'timeout' failure after pendingTimeoutMs (10 s) unless the page watches the chat.
        assert.deepEqual(otherFailures.map((f) => f.reason), []);
      } finally {
        other.close();
      }
    });

    it('deny → cancelled {reason: denied}, the MCP tool never runs, the turn completes', async () => {
      const runtime = playground.servers.get('everything')!;
      const calls: string[] = [];
      const untap = runtime.onMessage((direction, m) => {
        if (direction === 'sent' && 'method' in m && m.method === 'tools/call') calls.push(String((m.params as { name?: unknown }).name));
      });
      try {
        const turnId = send('/env');
        const pending = await activeToolCall(turnId, 'pending-confirmation');
        await until('the inputNeeded entry', () => inputNeeded().length === 1);
        conn.store.dispatch({ type: 'chat/toolCallConfirmed', turnId, toolCallId: pending.toolCallId, approved: false, reason: 'denied', selectedOptionId: 'deny' }, chat);
        const turn = await ended(turnId);
        assert.equal(turn.state, 'complete');
        const tc = toolCalls(turn.responseParts)[0]!;
        assert.equal(tc.status, 'cancelled');
        assert.equal((tc as { reason?: string }).reason, 'denied');
        assert.match(markdownOf(turn.responseParts), /did not run/);
        await until('the entry to go', () => inputNeeded().length === 0);
        assert.deepEqual(calls, [], 'get-env was not called');
      } finally {
        untap();
      }
    });

    it('cancelling the turn while it waits removes the inputNeeded entry', async () => {
      const turnId = send('/env');
      await activeToolCall(turnId, 'pending-confirmation');
      await until('the inputNeeded entry', () => inputNeeded().length === 1);
      conn.store.dispatch({ type: 'chat/turnCancelled', turnId, duration: 1 }, chat);
      await ended(turnId);
      await until('the entry to go', () => inputNeeded().length === 0);
    });

    it('an edited input is what runs; an edit that is not a JSON object fails the call without running it', async () => {
      const runtime = playground.servers.get('everything')!;
      const sent: unknown[] = [];
      const untap = runtime.onMessage((direction, m) => {
        if (direction === 'sent' && 'method' in m && m.method === 'tools/call') sent.push((m.params as { arguments?: unknown }).arguments);
      });
      try {
        const edited = send('/env');
        const pending = await activeToolCall(edited, 'pending-confirmation');
        conn.store.dispatch({ type: 'chat/toolCallConfirmed', turnId: edited, toolCallId: pending.toolCallId, approved: true, confirmed: 'user-action', editedToolInput: '{"note":"edited"}' }, chat);
        const done = toolCalls((await ended(edited)).responseParts)[0] as ToolCallState & { toolInput?: string };
        assert.equal(done.status, 'completed');
        assert.equal(done.toolInput, '{"note":"edited"}');
        assert.deepEqual(sent, [{ note: 'edited' }]);

        const broken = send('/env');
        const again = await activeToolCall(broken, 'pending-confirmation');
        conn.store.dispatch({ type: 'chat/toolCallConfirmed', turnId: broken, toolCallId: again.toolCallId, approved: true, confirmed: 'user-action', editedToolInput: '[1]' }, chat);
        const tc = toolCalls((await ended(broken)).responseParts)[0] as ToolCallState & { success?: boolean; error?: { message: string } };
        assert.equal(tc.status, 'completed');
        assert.equal(tc.success, false);
        assert.match(tc.error?.message ?? '', /not a JSON object/);
        assert.equal(sent.length, 1, 'the broken edit was not sent to the server');
      } finally {
        untap();
      }
    });

    it('"Always allow in this session" skips the question next time (confirmed: setting)', async () => {
      const first = send('/env');
      const pending = await activeToolCall(first, 'pending-confirmation');
      conn.store.dispatch({ type: 'chat/toolCallConfirmed', turnId: first, toolCallId: pending.toolCallId, approved: true, confirmed: 'user-action', selectedOptionId: 'allow-session' }, chat);
      await ended(first);
      const second = await ended(send('/env'));
      const tc = toolCalls(second.responseParts)[0] as ToolCallState & { confirmed?: string };
      assert.equal(tc.status, 'completed');
      assert.equal(tc.confirmed, 'setting');
    });
  });

  describe('result confirmation (get-resource-links is listed in "confirmResult")', () => {
    it('waits in pending-result-confirmation with the mapped links; deny → cancelled {reason: result-denied}', async () => {
      const turnId = send('/links 2');
      const pending = (await activeToolCall(turnId, 'pending-result-confirmation')) as ToolCallState & { content?: { type: string; uri?: string; contentType?: string }[] };
      const links = pending.content?.filter((c) => c.type === 'resource') ?? [];
      assert.equal(links.length, 2);
      assert.ok(links.every((l) => typeof l.uri === 'string' && l.uri.length > 0 && typeof l.contentType === 'string'));
      const entry = await until('the inputNeeded entry', () => inputNeeded().find((r) => r.kind === 'toolConfirmation'));
      assert.equal(entry.kind === 'toolConfirmation' && entry.toolCall.status, 'pending-result-confirmation');

      conn.store.dispatch({ type: 'chat/toolCallResultConfirmed', turnId, toolCallId: pending.toolCallId, approved: false }, chat);
      const turn = await ended(turnId);
      const tc = toolCalls(turn.responseParts)[0]!;
      assert.equal(tc.status, 'cancelled');
      assert.equal((tc as { reason?: string }).reason, 'result-denied');
      assert.match(markdownOf(turn.responseParts), /discarded/);
      await until('the entry to go', () => inputNeeded().length === 0);
    });

    it('approve → completed', async () => {
      const turnId = send('/links 1');
      const pending = await activeToolCall(turnId, 'pending-result-confirmation');
      conn.store.dispatch({ type: 'chat/toolCallResultConfirmed', turnId, toolCallId: pending.toolCallId, approved: true }, chat);
      const tc = toolCalls((await ended(turnId)).responseParts)[0]!;
      assert.equal(tc.status, 'completed');
      await until('the entry to go', () => inputNeeded().length === 0);
    });
  });

  it('answers bad input in markdown without a tool call: unknown server, unknown tool, bad JSON, unknown command, plain text', async () => {
    const cases: [string, RegExp][] = [
      ['/call nope get-sum {}', /no MCP server `nope`/],
      ['/call everything no-such-tool {}', /has no tool `no-such-tool`/],
      ['/call everything get-sum {"a":1,', /not valid JSON/],
      ['/call everything get-sum [1,2]', /must be a JSON object/],
      ['/call everything', /Usage: `\/call/],
      ['/sum one two', /Usage: `\/sum/],
      ['/frobnicate', /Unknown command `\/frobnicate`/],
      ['hello there', /scripted demo agent[\s\S]*\/call/],
      ['/help', /\/call <serverId> <tool>/],
    ];
    for (const [text, expected] of cases) {
      const turn = await ended(send(text));
      assert.equal(turn.state, 'complete', text);
      assert.equal(toolCalls(turn.responseParts).length, 0, text);
      assert.match(markdownOf(turn.responseParts), expected, text);
    }
  });

  it('/tools lists the tools of a server with what needs confirmation', async () => {
    const turn = await ended(send('/tools everything'));
    const md = markdownOf(turn.responseParts);
    assert.match(md, /`get-env`.*asks for confirmation/);
    assert.match(md, /`get-resource-links`.*result needs confirmation/);
    assert.match(md, /`trigger-long-running-operation`/);
  });

  it('a server that is not ready gets a clear answer', async () => {
    const runtime = playground.servers.get('basic-vanillajs')!;
    await runtime.stop();
    try {
      const turn = await ended(send('/call basic-vanillajs get-time'));
      assert.equal(toolCalls(turn.responseParts).length, 0);
      assert.match(markdownOf(turn.responseParts), /`basic-vanillajs` is not ready \(it is stopped\)/);
    } finally {
      await runtime.start();
    }
  });

  it('answers in a chat a client creates with an initial message', async () => {
    const other = 'ahp-chat:/agent-test-second';
    await conn.client.request('createChat', { channel: playground.sessionUri, chat: other, initialMessage: { text: '/sum 20 22', origin: { kind: 'user' } } });
    conn.store.watchChat(other);
    const turn = await until('the first turn of the new chat', () => chatState(other)?.turns[0], () => describeChat(other));
    assert.equal(turn.state, 'complete');
    assert.match(textOf(toolCalls(turn.responseParts)[0]), /\b42\b/);
    // and later turns there too
    const next = await ended(send('/echo again', other), other);
    assert.equal(textOf(toolCalls(next.responseParts)[0]), 'Echo: again');
  });

  it('no client action was refused along the way', () => {
    assert.deepEqual(failures.map((f) => f.reason), []);
  });
});
