import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AppBridgeHost, isAppVisible } from '../../src/apps/bridge.js';
import { FakeChannel, ALL_CAPABILITIES } from '../fixtures/apps/fake-channel.js';
import { viewTransport } from '../fixtures/apps/view-transport.js';

type Msg = Record<string, any>;

/** A transport whose other end is the test (playing the View). */
function pair() {
  const { transport, sent, deliver } = viewTransport();
  let nextId = 1;
  const view = {
    sent,
    notify: (method: string, params: Msg = {}) => deliver({ jsonrpc: '2.0', method, params }),
    async request(method: string, params: Msg = {}): Promise<Msg> {
      const id = nextId++;
      deliver({ jsonrpc: '2.0', id, method, params });
      for (let i = 0; i < 50; i++) {
        const answer = sent.find((m) => m.id === id && !m.method);
        if (answer) return answer;
        await new Promise((r) => setTimeout(r, 1));
      }
      throw new Error(`no answer to ${method}`);
    },
    methods: () => sent.filter((m) => m.method).map((m) => m.method as string),
  };
  return { transport, view };
}

const INIT = { appInfo: { name: 'v', version: '1' }, appCapabilities: {}, protocolVersion: '2026-01-26' };

test('handshake: nothing before initialized; tool-input once then the buffered result', async () => {
  const { transport, view } = pair();
  const bridge = new AppBridgeHost({ transport, handlers: { openLink: () => true }, hostContext: { theme: 'dark' } }).start();
  bridge.sendToolResult({ content: [{ type: 'text', text: 'done' }] });
  bridge.sendToolInput({ a: 1 });
  bridge.setHostContext({ theme: 'light' });
  assert.equal(view.sent.length, 0, 'nothing goes to the View before it initializes');
  const answer = await view.request('ui/initialize', INIT);
  assert.equal(answer.result.protocolVersion, '2026-01-26');
  assert.equal(answer.result.hostContext.theme, 'light');
  assert.equal(answer.result.hostContext.platform, 'web');
  assert.deepEqual(answer.result.hostCapabilities.openLinks, {});
  assert.deepEqual(view.methods(), [], 'still nothing before initialized');
  view.notify('ui/notifications/initialized');
  assert.deepEqual(view.methods(), ['ui/notifications/tool-input', 'ui/notifications/tool-result']);
  assert.deepEqual(view.sent.find((m) => m.method === 'ui/notifications/tool-input')!.params, { arguments: { a: 1 } });
  bridge.sendToolInput({ b: 2 });
  bridge.sendToolResult({ content: [] });
  bridge.sendToolCancelled('late');
  assert.equal(view.methods().length, 2, 'input and result are sent exactly once');
});

test('a repeated ui/initialize is answered; cancellation before input sends {} input then tool-cancelled', async () => {
  const { transport, view } = pair();
  const bridge = new AppBridgeHost({ transport }).start();
  await view.request('ui/initialize', INIT);
  const again = await view.request('ui/initialize', INIT);
  assert.equal(again.result.protocolVersion, '2026-01-26');
  bridge.sendToolInputPartial({ x: 'par' });
  view.notify('ui/notifications/initialized');
  bridge.sendToolInputPartial({ x: 'part' });
  bridge.sendToolCancelled('user stopped it');
  assert.deepEqual(view.methods(), ['ui/notifications/tool-input-partial', 'ui/notifications/tool-input-partial', 'ui/notifications/tool-input', 'ui/notifications/tool-cancelled']);
  assert.deepEqual(view.sent.at(-2)!.params, { arguments: {} });
  assert.deepEqual(view.sent.at(-1)!.params, { reason: 'user stopped it' });
});

test('malformed ui/initialize is refused with -32602', async () => {
  const { transport, view } = pair();
  new AppBridgeHost({ transport }).start();
  const answer = await view.request('ui/initialize', { protocolVersion: '2026-01-26' });
  assert.equal(answer.error.code, -32602);
});

test('tools/call: app-visible (or no visibility) relayed, model-only refused, unknown refused; tools/list cached', async () => {
  const { transport, view } = pair();
  const channel = new FakeChannel();
  new AppBridgeHost({ transport, channel, capabilities: ALL_CAPABILITIES }).start();
  await view.request('ui/initialize', INIT);
  view.notify('ui/notifications/initialized');
  const ok = await view.request('tools/call', { name: 'get-time', arguments: {} });
  assert.equal(ok.result.structuredContent.time, 'TIME-FROM-get-time');
  assert.ok((await view.request('tools/call', { name: 'app-only' })).result);
  assert.ok((await view.request('tools/call', { name: 'no-visibility' })).result);
  const refused = await view.request('tools/call', { name: 'model-only' });
  assert.ok(refused.error, 'a model-only tool is refused');
  assert.ok((await view.request('tools/call', { name: 'nope' })).error);
  assert.equal(channel.count('tools/call'), 3);
  assert.equal(channel.count('tools/list'), 1, 'the tool list is fetched once');
  channel.emit('notifications/tools/list_changed');
  await view.request('tools/call', { name: 'get-time' });
  assert.equal(channel.count('tools/list'), 1, 'no listChanged capability → no forwarding');
});

test('MCP methods relay only when the capabilities serve them; ui/* unknown and others are -32601', async () => {
  const { transport, view } = pair();
  const channel = new FakeChannel();
  new AppBridgeHost({ transport, channel, capabilities: { serverResources: {} } }).start();
  await view.request('ui/initialize', INIT);
  assert.ok((await view.request('resources/list')).result.resources);
  assert.equal((await view.request('tools/call', { name: 'get-time' })).error.code, -32601);
  assert.equal((await view.request('sampling/createMessage', {})).error.code, -32601);
  assert.equal((await view.request('ui/unknown', {})).error.code, -32601);
  assert.equal((await view.request('prompts/list', {})).error.code, -32601);
  assert.equal((await view.request('ping')).result !== undefined, true);
  const noChannel = pair();
  new AppBridgeHost({ transport: noChannel.transport, capabilities: ALL_CAPABILITIES }).start();
  assert.equal((await noChannel.view.request('resources/list')).error.code, -32601, 'no channel → nothing relayed');
  const caps = (await noChannel.view.request('ui/initialize', INIT)).result.hostCapabilities;
  assert.equal(caps.serverTools, undefined, 'server capabilities are only offered with a channel');
});

test('display modes honour the app and host lists and report the mode in force', async () => {
  const { transport, view } = pair();
  const asked: string[] = [];
  new AppBridgeHost({
    transport,
    hostContext: { displayMode: 'inline', availableDisplayModes: ['inline', 'fullscreen'] },
    handlers: { requestDisplayMode: (m) => (asked.push(m), m) },
  }).start();
  await view.request('ui/initialize', { ...INIT, appCapabilities: { availableDisplayModes: ['inline', 'fullscreen', 'pip'] } });
  view.notify('ui/notifications/initialized');
  assert.equal((await view.request('ui/request-display-mode', { mode: 'pip' })).result.mode, 'inline', 'host lacks pip');
  assert.equal((await view.request('ui/request-display-mode', { mode: 'fullscreen' })).result.mode, 'fullscreen');
  assert.deepEqual(asked, ['fullscreen']);
  const diff = view.sent.find((m) => m.method === 'ui/notifications/host-context-changed');
  assert.deepEqual(diff?.params, { displayMode: 'fullscreen' }, 'the change goes out as a diff');
  assert.equal((await view.request('ui/request-display-mode', { mode: 'huge' })).error.code, -32602);

  const other = pair();
  new AppBridgeHost({ transport: other.transport, hostContext: { availableDisplayModes: ['inline', 'fullscreen'] }, handlers: { requestDisplayMode: (m) => m } }).start();
  await other.view.request('ui/initialize', { ...INIT, appCapabilities: { availableDisplayModes: ['inline'] } });
  assert.equal((await other.view.request('ui/request-display-mode', { mode: 'fullscreen' })).result.mode, 'inline', 'app did not declare fullscreen');
});

test('local requests reach the handlers: link, message, model context (last wins), download names sanitized, size, teardown request', async () => {
  const { transport, view } = pair();
  const seen: unknown[] = [];
  const bridge = new AppBridgeHost({
    transport,
    handlers: {
      openLink: (url) => (seen.push(['link', url]), url.startsWith('https:')),
      message: (m) => (seen.push(['message', m.content[0]?.['text']]), true),
      updateModelContext: (c) => seen.push(['context', c]),
      downloadFile: (r) => (seen.push(['download', r.contents.map((c) => c.fileName)]), true),
      sizeChanged: (s) => seen.push(['size', s]),
      requestTeardown: () => seen.push(['teardown']),
    },
  }).start();
  await view.request('ui/initialize', INIT);
  assert.deepEqual((await view.request('ui/open-link', { url: 'https://example.com/' })).result, {});
  assert.deepEqual((await view.request('ui/open-link', { url: 'javascript:alert(1)' })).result, { isError: true });
  await view.request('ui/message', { role: 'user', content: [{ type: 'text', text: 'hi' }] });
  await view.request('ui/update-model-context', { content: [{ type: 'text', text: 'one' }] });
  await view.request('ui/update-model-context', { structuredContent: { two: 2 } });
  assert.deepEqual(bridge.modelContext, { structuredContent: { two: 2 } });
  await view.request('ui/download-file', { contents: [{ type: 'resource', resource: { uri: 'file:///etc/../..%2Fpasswd', text: 'x' } }, { type: 'resource_link', uri: 'https://x.test/a/re:port?.csv', name: 'r' }] });
  view.notify('ui/notifications/size-changed', { width: 300, height: 120.5 });
  view.notify('ui/notifications/request-teardown');
  assert.deepEqual(seen, [
    ['link', 'https://example.com/'],
    ['link', 'javascript:alert(1)'],
    ['message', 'hi'],
    ['context', { content: [{ type: 'text', text: 'one' }] }],
    ['context', { structuredContent: { two: 2 } }],
    ['download', ['passwd', 're_port']],
    ['size', { width: 300, height: 120.5 }],
    ['teardown'],
  ]);
});

test('teardown waits for the answer, but only so long', async () => {
  const { transport, view } = pair();
  const bridge = new AppBridgeHost({ transport, teardownTimeoutMs: 50 }).start();
  const t0 = Date.now();
  assert.equal(await bridge.teardown(), false, 'no answer → false after the timeout');
  assert.ok(Date.now() - t0 < 1000);
  assert.equal(view.sent[0]!.method, 'ui/resource-teardown');

  const second = pair();
  const b2 = new AppBridgeHost({ transport: second.transport }).start();
  const done = b2.teardown();
  const req = second.view.sent[0]!;
  // The View answers the teardown request.
  (b2 as unknown as { receive(m: unknown): void }).receive({ jsonrpc: '2.0', id: req.id, result: {} });
  assert.equal(await done, true);
});

test('visibility helper: absent means both', () => {
  assert.equal(isAppVisible({ name: 'x' }), true);
  assert.equal(isAppVisible({ _meta: { ui: { visibility: ['model'] } } }), false);
  assert.equal(isAppVisible({ _meta: { ui: { visibility: ['app'] } } }), true);
});
