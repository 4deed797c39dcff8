// The bridge's View-facing limits and long-running relays: no 30 s cut (a relay ends on the answer, the View's
// cancel, close, or the configured limit), rate and size limits, the View's own tools, and the result _meta.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AppBridgeHost, LIMIT_ERROR_CODE, SANDBOX_POLICY_CAPABILITY } from '../../src/apps/bridge.js';
import { TokenBucket, boundedSize } from '../../src/apps/limits.js';
import { callToolResultOf, MCP_RESULT_META_KEY } from '../../src/apps/tool-call.js';
import type { McpChannel, McpChannelRequestOptions } from '../../src/client/mcp-channel.js';
import type { ToolCallState } from '../../src/protocol/index.js';
import { ALL_CAPABILITIES } from '../fixtures/apps/fake-channel.js';
import { viewTransport } from '../fixtures/apps/view-transport.js';

type Msg = Record<string, any>;
const INIT = { appInfo: { name: 'v', version: '1' }, appCapabilities: { tools: { listChanged: true } }, protocolVersion: '2026-01-26' };

function pair() {
  const { transport, sent, deliver } = viewTransport();
  return { transport, sent, deliver: (m: Msg) => deliver({ jsonrpc: '2.0', ...m }) };
}

const until = async (what: string, check: () => unknown) => {
  for (let i = 0; i < 500; i++) {
    if (check()) return;
    await new Promise((r) => setTimeout(r, 2));
  }
  throw new Error(`timed out: ${what}`);
};

/** A channel whose requests stay open until the test settles them; records the options each got. */
class HangingChannel implements McpChannel {
  readonly calls: { method: string; options: McpChannelRequestOptions | undefined; resolve: (v: unknown) => void; aborted: boolean }[] = [];
  request<R>(method: string, _params?: Record<string, unknown>, options?: McpChannelRequestOptions): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      const call = { method, options, resolve: resolve as (v: unknown) => void, aborted: false };
      this.calls.push(call);
      options?.signal?.addEventListener('abort', () => {
        call.aborted = true;
        reject(options.signal!.reason);
      });
    });
  }
  notify(): void {}
  onNotification(): () => void {
    return () => {};
  }
  available(): boolean {
    return true;
  }
}

test('a relayed View request gets the long relay limit (not the client default), ends on the View\'s cancel without an answer, and on close', async () => {
  const { transport, sent, deliver } = pair();
  const channel = new HangingChannel();
  const bridge = new AppBridgeHost({ transport, channel, capabilities: ALL_CAPABILITIES, relayTimeoutMs: 180_000 }).start();
  deliver({ id: 1, method: 'resources/read', params: { uri: 'ui://x' } });
  await until('relayed', () => channel.calls.length === 1);
  assert.equal(channel.calls[0]!.options?.timeoutMs, 180_000);
  deliver({ method: 'notifications/cancelled', params: { requestId: 1, reason: 'user' } });
  await until('aborted', () => channel.calls[0]!.aborted);
  await new Promise((r) => setTimeout(r, 10));
  assert.equal(sent.filter((m) => m.id === 1).length, 0, 'a cancelled request is not answered');

  deliver({ id: 2, method: 'resources/read', params: { uri: 'ui://y' } });
  await until('relayed', () => channel.calls.length === 2);
  channel.calls[1]!.resolve({ contents: [] });
  await until('answered', () => sent.some((m) => m.id === 2 && m.result));

  deliver({ id: 3, method: 'resources/read', params: { uri: 'ui://z' } });
  await until('relayed', () => channel.calls.length === 3);
  bridge.close();
  assert.equal(channel.calls[2]!.aborted, true, 'close ends every relay');
  await new Promise((r) => setTimeout(r, 10));
  assert.equal(sent.filter((m) => m.id === 3).length, 0, 'nothing is sent after close');
  const defaults = new AppBridgeHost({ transport: pair().transport, channel, capabilities: ALL_CAPABILITIES }).start();
  (defaults as unknown as { receive(m: unknown): void }).receive({ jsonrpc: '2.0', id: 9, method: 'resources/list', params: {} });
  await until('relayed', () => channel.calls.length === 4);
  assert.equal(channel.calls[3]!.options?.timeoutMs, 300_000, 'default limit 300 s: long-polls of 120 s fit');
  defaults.close();
});

test('a View request that reuses the id of one still in flight ends the earlier relay; only the newer one is answered', async () => {
  const { transport, sent, deliver } = pair();
  const channel = new HangingChannel();
  const bridge = new AppBridgeHost({ transport, channel, capabilities: ALL_CAPABILITIES }).start();
  deliver({ id: 5, method: 'resources/read', params: { uri: 'ui://first' } });
  await until('relayed', () => channel.calls.length === 1);
  deliver({ id: 5, method: 'resources/read', params: { uri: 'ui://second' } });
  await until('second relayed', () => channel.calls.length === 2);
  assert.equal(channel.calls[0]!.aborted, true, 'the earlier relay ends');
  assert.equal(channel.calls[1]!.aborted, false);
  channel.calls[1]!.resolve({ contents: [{ uri: 'ui://second' }] });
  await until('answered', () => sent.some((m) => m.id === 5));
  await new Promise((r) => setTimeout(r, 10));
  assert.deepEqual(sent.filter((m) => m.id === 5), [{ jsonrpc: '2.0', id: 5, result: { contents: [{ uri: 'ui://second' }] } }]);
  bridge.close();
});

test('rate limit: a flood is cut to the burst, requests over it get an error (bounded), the rest is dropped', async () => {
  const { transport, sent, deliver } = pair();
  // The buckets refill by Date.now: the clock stands still while the bridge is made and the flood arrives (both
  // synchronous), so a slow machine's elapsed milliseconds refill nothing and the counts are exact.
  const realNow = Date.now;
  const frozen = realNow();
  Date.now = () => frozen;
  let bridge: AppBridgeHost;
  try {
    bridge = new AppBridgeHost({ transport, limits: { messagesPerSecond: 10, burst: 20 } }).start();
    for (let i = 0; i < 1000; i++) deliver({ id: i, method: 'ping', params: {} });
  } finally {
    Date.now = realNow;
  }
  const answered = () => sent.filter((m) => m.result).length;
  await until('the burst answered', () => answered() >= 20);
  const refused = sent.filter((m) => m.error?.code === LIMIT_ERROR_CODE).length;
  assert.equal(answered(), 20, 'the burst answered');
  assert.equal(refused, 20, 'errors only while their own budget lasts');
  assert.equal(bridge.dropped, 980);
});

test('size limit: an oversized request is refused with an error; the measure stops at the limit', async () => {
  const { transport, sent, deliver } = pair();
  let opened = 0;
  new AppBridgeHost({ transport, limits: { maxMessageBytes: 1000 }, handlers: { openLink: () => (opened++, true) } }).start();
  deliver({ id: 1, method: 'ui/open-link', params: { url: 'https://example.com/' + 'x'.repeat(2000) } });
  await until('refused', () => sent.some((m) => m.id === 1));
  assert.equal(sent.find((m) => m.id === 1)!.error.code, LIMIT_ERROR_CODE);
  assert.match(sent.find((m) => m.id === 1)!.error.message, /too large/);
  assert.equal(opened, 0);
  assert.ok(boundedSize({ a: 'x'.repeat(50) }, 1000) < 100);
  assert.ok(boundedSize(new Array(10_000_000).fill(1), 1000) > 1000);
  const bucket = new TokenBucket(1, 2, () => 0);
  assert.deepEqual([bucket.take(), bucket.take(), bucket.take()], [true, true, false]);
});

test('a model context JSON cannot carry (a bigint, nesting past the stack) is refused with -32602 and the previous one kept', async () => {
  const { transport, sent, deliver } = pair();
  const contexts: unknown[] = [];
  const bridge = new AppBridgeHost({ transport, handlers: { updateModelContext: (c) => void contexts.push(c) } }).start();
  let deep: Msg = {};
  for (let i = 0; i < 200_000; i++) deep = { d: deep };
  deliver({ id: 1, method: 'ui/update-model-context', params: { content: [{ type: 'text', text: 'kept' }] } });
  deliver({ id: 2, method: 'ui/update-model-context', params: { structuredContent: { n: 10n } } });
  deliver({ id: 3, method: 'ui/update-model-context', params: { structuredContent: deep } });
  await until('all answered', () => [1, 2, 3].every((id) => sent.some((m) => m.id === id)));
  const answer = (id: number) => sent.find((m) => m.id === id)!;
  assert.deepEqual(answer(1).result, {});
  for (const id of [2, 3]) assert.deepEqual(answer(id).error, { code: -32602, message: 'ui/update-model-context needs JSON content' });
  assert.deepEqual(bridge.modelContext, { content: [{ type: 'text', text: 'kept' }] });
  assert.equal(contexts.length, 1, 'only the JSON context reached the page');
});

test('View tools: listed and called on the View, list_changed honoured only for a View that declared tools; sandbox policy reported', async () => {
  const { transport, sent, deliver } = pair();
  let changed = 0;
  const bridge = new AppBridgeHost({ transport, sandboxPolicy: 'compat', sandbox: {}, handlers: { viewToolsChanged: () => changed++ } }).start();
  deliver({ id: 'i', method: 'ui/initialize', params: INIT });
  await until('init answered', () => sent.some((m) => m.id === 'i'));
  const caps = sent.find((m) => m.id === 'i')!.result.hostCapabilities;
  assert.deepEqual(caps.experimental[SANDBOX_POLICY_CAPABILITY], { policy: 'compat' });
  assert.deepEqual(caps.sandbox.csp, {}, 'no declared domains applied');
  const listing = bridge.listViewTools();
  const list = sent.find((m) => m.method === 'tools/list')!;
  deliver({ id: list.id, result: { tools: [{ name: 'pick', inputSchema: { type: 'object' } }] } });
  assert.deepEqual((await listing).map((t) => t.name), ['pick']);
  const calling = bridge.callViewTool('pick', { n: 1 });
  const call = sent.find((m) => m.method === 'tools/call')!;
  assert.deepEqual(call.params, { name: 'pick', arguments: { n: 1 } });
  deliver({ id: call.id, result: { content: [{ type: 'text', text: 'picked' }] } });
  assert.equal((await calling).content[0]!['text'], 'picked');
  deliver({ method: 'notifications/tools/list_changed', params: {} });
  assert.equal(changed, 1);
  const slow = bridge.callViewTool('pick', {}, { timeoutMs: 20 });
  await assert.rejects(slow, /did not answer/);

  const plain = pair();
  const noTools = new AppBridgeHost({ transport: plain.transport, handlers: { viewToolsChanged: () => changed++ } }).start();
  plain.deliver({ id: 'i', method: 'ui/initialize', params: { ...INIT, appCapabilities: {} } });
  await until('init answered', () => plain.sent.some((m) => m.id === 'i'));
  await assert.rejects(noTools.listViewTools(), /declared no tools/);
  plain.deliver({ method: 'notifications/tools/list_changed', params: {} });
  assert.equal(changed, 1, 'ignored from a View without tools');
});

test('the MCP result _meta rides in the tool call _meta and reaches the View\'s CallToolResult', () => {
  const tc = {
    toolCallId: 't', toolName: 'display_pdf', displayName: 'PDF', status: 'completed', success: true, pastTenseMessage: 'ok',
    invocationMessage: '', toolInput: '{}', confirmed: 'not-needed',
    content: [{ type: 'text', text: 'shown' }],
    _meta: { ui: { resourceUri: 'ui://pdf' }, [MCP_RESULT_META_KEY]: { viewUUID: 'u-1', interactEnabled: true } },
  } as unknown as ToolCallState;
  assert.deepEqual(callToolResultOf(tc)?._meta, { viewUUID: 'u-1', interactEnabled: true });
  const without = { ...tc, _meta: { ui: { resourceUri: 'ui://pdf' } } } as unknown as ToolCallState;
  assert.equal('_meta' in callToolResultOf(without)!, false);
});

test('the UI resource read and the listing go out together (one round trip, not two); the content item wins', async () => {
  const { readUiResource } = await import('../../src/apps/resource.js');
  const order: string[] = [];
  let releaseRead: (() => void) | undefined;
  const channel = {
    async request<R>(method: string): Promise<R> {
      order.push(method);
      if (method === 'resources/read') {
        await new Promise<void>((r) => (releaseRead = r));
        return { contents: [{ uri: 'ui://a', mimeType: 'text/html;profile=mcp-app', text: '<p>a</p>', _meta: { ui: { prefersBorder: true } } }] } as R;
      }
      return { resources: [{ uri: 'ui://a', name: 'a', _meta: { ui: { prefersBorder: false, domain: 'a.example' } } }] } as R;
    },
  } as unknown as McpChannel;
  const reading = readUiResource(channel, 'ui://a');
  await until('both requests sent', () => order.length === 2);
  assert.deepEqual(order.sort(), ['resources/list', 'resources/read'], 'the listing did not wait for the read');
  releaseRead!();
  assert.deepEqual((await reading).meta, { prefersBorder: true, domain: 'a.example' });
});
