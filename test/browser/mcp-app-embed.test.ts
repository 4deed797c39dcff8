import { expect, fixture, html } from '@open-wc/testing';
import '../../elements/define-all.js';
import { AhpMcpApp } from '../../elements/mcp-app/mcp-app.js';
import type { AhpToolCall } from '../../elements/tool-call/tool-call.js';
import type { McpChannel } from '../../src/client/mcp-channel.js';
import type { SessionState } from '../../src/protocol/session.js';
import type { ToolCallState } from '../../src/protocol/tool-calls.js';
import { MAX_VIEW_URI_LENGTH } from '../../src/apps/tool-call.js';
import { ALL_CAPABILITIES, FakeChannel } from '../fixtures/apps/fake-channel.js';
import { drivenView } from '../fixtures/apps/view-driver.js';
import { FakeHandle } from './fixtures/fake-handle.js';
import { CHAT, FakeChatStore, chatState } from './fixtures/tool-calls.js';

const server = (extra: Record<string, unknown>) => ({ type: 'mcpServer', id: 'basic', uri: 'mcp-config:/basic', name: 'Basic', state: { kind: 'ready' }, ...extra });
const session = (s: Record<string, unknown>) =>
  ({ provider: 't', title: 'S', status: 1, lifecycle: 'ready', activeClients: [], chats: [], customizations: [s] }) as unknown as SessionState;
const call = (meta: Record<string, unknown> | undefined) =>
  ({
    toolCallId: 'tc1', toolName: 'get-time', displayName: 'Get time', contributor: { kind: 'mcp', customizationId: 'basic' },
    status: 'completed', invocationMessage: 'Getting time', toolInput: '{}', confirmed: 'not-needed', success: true, pastTenseMessage: 'Got time',
    content: [{ type: 'text', text: 'noon' }], ...(meta && { _meta: meta }),
  }) as unknown as ToolCallState;

describe('<ahp-tool-call> embeds <ahp-mcp-app>', () => {
  let otherOrigin = '';
  before(async () => {
    otherOrigin = (await (await fetch('/__test/env.json')).json()).otherOrigin;
    AhpMcpApp.sandboxUrlFor = ({ serverId }) => (serverId === 'basic' ? `${otherOrigin}/sandbox/sandbox-proxy.html` : undefined);
  });
  after(() => (AhpMcpApp.sandboxUrlFor = undefined));

  async function render(serverExtra: Record<string, unknown>, meta: Record<string, unknown> | undefined) {
    const channel = new FakeChannel({ html: await drivenView({}) });
    const handle = new FakeHandle({ channels: () => channel as McpChannel });
    const store = new FakeChatStore(session(server(serverExtra)), { [CHAT]: chatState([call(meta)]) });
    const el = await fixture<AhpToolCall>(html`<ahp-tool-call .store=${store} .handle=${handle} chat=${CHAT} tool-call-id="tc1"></ahp-tool-call>`);
    return { el, channel };
  }

  it('for an App call on a server with mcpApp and a channel: the View loads and initializes', async () => {
    const { el, channel } = await render({ channel: 'mcp://basic', mcpApp: { capabilities: ALL_CAPABILITIES } }, { ui: { resourceUri: 'ui://get-time/mcp-app.html' } });
    const app = el.shadowRoot!.querySelector<AhpMcpApp>('ahp-mcp-app[part="app"]');
    expect(app).to.be.instanceOf(AhpMcpApp);
    const t0 = performance.now();
    while (!app!.bridge?.initialized && performance.now() - t0 < 8000) await new Promise((r) => setTimeout(r, 20));
    expect(app!.bridge?.initialized).to.equal(true);
    expect(channel.requests.map((r) => r.method)).to.include('resources/read');
  });

  it('not without resourceUri, mcpApp or channel, nor for a URI too long to name a View (the call renders normally)', async () => {
    const apps = { channel: 'mcp://basic', mcpApp: { capabilities: ALL_CAPABILITIES } };
    for (const [extra, meta] of [
      [apps, undefined],
      [apps, { ui: { resourceUri: `ui://get-time/${'x'.repeat(MAX_VIEW_URI_LENGTH)}` } }],
      [{ channel: 'mcp://basic' }, { ui: { resourceUri: 'ui://get-time/mcp-app.html' } }],
      [{ mcpApp: { capabilities: ALL_CAPABILITIES } }, { ui: { resourceUri: 'ui://get-time/mcp-app.html' } }],
    ] as const) {
      const { el } = await render(extra, meta);
      expect(el.shadowRoot!.querySelector('ahp-mcp-app')).to.equal(null);
      expect(el.shadowRoot!.querySelector('.card')).to.not.equal(null);
    }
  });
});
