// axe-core over every element in every state, in light and dark. The element test files check their own states
// too; this matrix covers what they leave out (MCP App phases and display modes, chat with tool calls inside,
// the sign-in panel in each reason, the list's groups, everything in the dark scheme).
import { expect, fixture, html } from '@open-wc/testing';
import type { TemplateResult } from 'lit';
import '../../elements/define-all.js';
import type { AhpMcpApp } from '../../elements/index.js';
import type { McpChannel } from '../../src/client/mcp-channel.js';
import type { McpServerState } from '../../src/protocol/customizations.js';
import type { ResponsePart } from '../../src/protocol/session.js';
import { ALL_CAPABILITIES, FakeChannel } from '../fixtures/apps/fake-channel.js';
import { drivenView } from '../fixtures/apps/view-driver.js';
import { hostileView } from '../fixtures/apps/hostile-view.js';
import { CHAT as CHAT_URI, FakeChatStore as ChatStore, activeTurn, chatState as chatView, md, sessionWithInput, toolCall, turn } from './fixtures/chats.js';
import { FakeStore } from './fixtures/fake-store.js';
import { LIGHT_ICON, STATES, mcpServer, plugin, session } from './fixtures/sessions.js';
import { CALLS, CHAT, FakeChatStore, call, chatState } from './fixtures/tool-calls.js';

const SCHEMES = ['light', 'dark'] as const;

/** Renders `template` inside a wrapper with this color-scheme, waits for every element in it, and runs axe on each. */
async function checkAll(template: TemplateResult, scheme: (typeof SCHEMES)[number], settle?: (wrap: HTMLElement) => Promise<void>) {
  const wrap = await fixture<HTMLElement>(html`<div style=${`color-scheme: ${scheme}; background: Canvas; color: CanvasText`}>${template}</div>`);
  const els = [...wrap.querySelectorAll<HTMLElement & { updateComplete?: Promise<unknown> }>('*')].filter((e) => e.localName.startsWith('ahp-'));
  expect(els.length, 'renders an element').to.be.greaterThan(0);
  await Promise.all(els.map((e) => e.updateComplete));
  await new Promise((r) => setTimeout(r, 10));
  await settle?.(wrap);
  for (const el of els) await expect(el).to.be.accessible();
}

const authStates: Record<string, McpServerState> = {
  'authRequired (required)': STATES.authRequired!,
  'authRequired (expired)': { kind: 'authRequired', reason: 'expired', resource: { resource: 'https://mcp.example.com/' } } as McpServerState,
  'authRequired (insufficientScope)': {
    kind: 'authRequired',
    reason: 'insufficientScope',
    resource: { resource: 'https://mcp.example.com/', scopes_supported: ['read', 'write'] },
    requiredScopes: ['write'],
    description: 'Writing needs the write scope',
  } as McpServerState,
};

const serverStates: Record<string, TemplateResult> = {
  'no store (loading)': html`<ahp-mcp-server server-id="a"></ahp-mcp-server>`,
  'unknown id': html`<ahp-mcp-server server-id="zz" .store=${new FakeStore(session([]))}></ahp-mcp-server>`,
  disabled: html`<ahp-mcp-server server-id="a" .store=${new FakeStore(session([mcpServer('a', STATES.ready!, { enabled: false } as never)]))}></ahp-mcp-server>`,
  'with icon, in a plugin': html`<ahp-mcp-server server-id="a" .store=${new FakeStore(session([plugin('p', 'Plugin', [mcpServer('a', STATES.ready!, { icons: [{ src: LIGHT_ICON }] } as never)])]))}></ahp-mcp-server>`,
  ...Object.fromEntries(
    Object.entries({ ...STATES, ...authStates, 'unknown kind': { kind: 'weird' } as never }).map(([k, state]) => [
      k,
      html`<ahp-mcp-server server-id="a" .store=${new FakeStore(session([mcpServer('a', state)]))}></ahp-mcp-server>`,
    ]),
  ),
};

const listStates: Record<string, TemplateResult> = {
  loading: html`<ahp-mcp-server-list></ahp-mcp-server-list>`,
  empty: html`<ahp-mcp-server-list .store=${new FakeStore(session([]))}></ahp-mcp-server-list>`,
  'top level and a plugin group, every state': html`<ahp-mcp-server-list
    heading-level="2"
    .store=${new FakeStore(session([...Object.entries(STATES).map(([k, s]) => mcpServer(k, s)), plugin('p', 'Plugin tools', [mcpServer('child', STATES.ready!)])]))}
  ></ahp-mcp-server-list>`,
};

const toolCallStore = (status: string, extra: Record<string, unknown> = {}) =>
  new FakeChatStore(session([mcpServer('a', STATES.ready!, { icons: [{ src: LIGHT_ICON }] } as never)]), { [CHAT]: chatState([call(status, extra)]) });
const toolCallStates: Record<string, TemplateResult> = {
  'no store': html`<ahp-tool-call chat=${CHAT} tool-call-id="tc1"></ahp-tool-call>`,
  'not found': html`<ahp-tool-call chat=${CHAT} tool-call-id="nope" .store=${toolCallStore('running')}></ahp-tool-call>`,
  ...Object.fromEntries(Object.keys(CALLS).map((s) => [s, html`<ahp-tool-call chat=${CHAT} tool-call-id="tc1" .store=${toolCallStore(s)}></ahp-tool-call>`])),
  'completed, failed': html`<ahp-tool-call chat=${CHAT} tool-call-id="tc1" .store=${toolCallStore('completed', { success: false, error: { message: 'boom' } })}></ahp-tool-call>`,
  'pending-confirmation with options': html`<ahp-tool-call chat=${CHAT} tool-call-id="tc1" .store=${toolCallStore('pending-confirmation', {
    options: [
      { id: 'once', label: 'Allow once', kind: 'approve' },
      { id: 'never', label: 'Deny', kind: 'deny' },
    ],
  })}></ahp-tool-call>`,
  'completed with an image': html`<ahp-tool-call chat=${CHAT} tool-call-id="tc1" .store=${toolCallStore('completed', {
    content: [{ type: 'image', data: 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', mimeType: 'image/png' }],
  })}></ahp-tool-call>`,
};

const chatWith = (parts: ResponsePart[], running = false) => {
  const store = new ChatStore(session([mcpServer('everything', STATES.ready!)]));
  const calls = [turn('t1', 'Add 1 and 2', [md('m1', 'Sure, **adding**.'), ...parts])];
  store.setChat(CHAT_URI, running ? chatView(calls, activeTurn('t2', 'And again', parts)) : chatView(calls));
  return html`<ahp-chat chat=${CHAT_URI} .store=${store}></ahp-chat>`;
};
const chatStates: Record<string, TemplateResult> = {
  'no store (loading)': html`<ahp-chat chat=${CHAT_URI}></ahp-chat>`,
  'empty chat': chatWith([]),
  'tool calls inside: completed, waiting for confirmation, auth-required': chatWith([
    { kind: 'toolCall', toolCall: toolCall('c1', 'completed', { confirmed: 'not-needed', success: true, pastTenseMessage: 'Added', content: [{ type: 'text', text: '3' }] }) },
    { kind: 'toolCall', toolCall: toolCall('c2', 'pending-confirmation') },
    { kind: 'toolCall', toolCall: toolCall('c3', 'auth-required') },
  ] as ResponsePart[]),
  'a running turn (Stop) with a running tool call': chatWith([{ kind: 'toolCall', toolCall: toolCall('c4', 'running') }] as ResponsePart[], true),
  'cancelled and failed turns': (() => {
    const store = new ChatStore(session([]));
    store.setChat(CHAT_URI, chatView([turn('t1', 'one', [], 'cancelled'), turn('t2', 'two', [md('m', 'partial')], 'error')]));
    return html`<ahp-chat chat=${CHAT_URI} .store=${store}></ahp-chat>`;
  })(),
};

const inputKinds = [
  { id: 'i1', kind: 'toolConfirmation', chat: CHAT_URI, toolCall: toolCall('c1', 'pending-confirmation') },
  { id: 'i2', kind: 'toolResultConfirmation', chat: CHAT_URI, toolCall: toolCall('c2', 'pending-result-confirmation') },
  { id: 'i3', kind: 'auth', chat: CHAT_URI, toolCall: toolCall('c3', 'auth-required') },
  { id: 'i4', kind: 'question', chat: CHAT_URI, message: 'Which file?' },
  { id: 'i5', kind: 'somethingNew', chat: CHAT_URI },
];
const inputStates: Record<string, TemplateResult> = {
  loading: html`<ahp-input-needed></ahp-input-needed>`,
  empty: html`<ahp-input-needed .store=${new FakeStore(sessionWithInput([]))}></ahp-input-needed>`,
  'every kind at once': html`<ahp-input-needed .store=${new FakeStore(sessionWithInput(inputKinds))}></ahp-input-needed>`,
};

const sessionStates: Record<string, TemplateResult> = {
  'with a list and a chat inside': html`<ahp-session .store=${new FakeChatStore(session([mcpServer('a', STATES.ready!)]))}>
    <ahp-mcp-server-list></ahp-mcp-server-list>
  </ahp-session>`,
};

const groups = {
  '<ahp-mcp-server>': serverStates,
  '<ahp-mcp-server-list>': listStates,
  '<ahp-tool-call>': toolCallStates,
  '<ahp-chat>': chatStates,
  '<ahp-input-needed>': inputStates,
  '<ahp-session>': sessionStates,
};

for (const [name, states] of Object.entries(groups)) {
  describe(`a11y ${name}`, () => {
    for (const [state, template] of Object.entries(states)) {
      for (const scheme of SCHEMES) it(`${state} (${scheme})`, () => checkAll(template, scheme));
    }
  });
}

describe('a11y <ahp-mcp-app>', () => {
  let otherOrigin = '';
  before(async () => {
    otherOrigin = (await (await fetch('/__test/env.json')).json()).otherOrigin;
  });
  const waitFor = async (el: AhpMcpApp, ok: () => boolean, what: string) => {
    const t0 = performance.now();
    while (!ok()) {
      if (performance.now() - t0 > 8000) throw new Error(`timed out waiting for ${what}: ${el.shadowRoot!.innerHTML}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };

  for (const scheme of SCHEMES) {
    it(`idle / loading (${scheme})`, () => checkAll(html`<ahp-mcp-app></ahp-mcp-app>`, scheme));

    it(`error: no sandbox, and a same-origin sandbox (${scheme})`, () =>
      checkAll(
        html`<ahp-mcp-app server-id="a" resource-uri="ui://x/app.html" .store=${new FakeStore(session([]))}></ahp-mcp-app>
          <ahp-mcp-app server-id="a" resource-uri="ui://x/app.html" sandbox-url="/same-origin.html" .store=${new FakeStore(session([]))}></ahp-mcp-app>`,
        scheme,
        async (wrap) => {
          for (const el of wrap.querySelectorAll<AhpMcpApp>('ahp-mcp-app')) {
            await waitFor(el, () => el.matches(':state(error)'), 'the error phase');
          }
        },
      ));

    it(`a live View, inline, then full screen with its Exit button (${scheme})`, async () => {
      const channel = new FakeChannel({ html: await drivenView() });
      const template = html`<ahp-mcp-app
        server-id="basic"
        resource-uri="ui://get-time/mcp-app.html"
        sandbox-url=${`${otherOrigin}/sandbox/sandbox-proxy.html`}
        .channel=${channel as McpChannel}
        .capabilities=${ALL_CAPABILITIES}
      ></ahp-mcp-app>`;
      await checkAll(template, scheme, async (wrap) => {
        const el = wrap.querySelector<AhpMcpApp>('ahp-mcp-app')!;
        await waitFor(el, () => !!el.shadowRoot!.querySelector('iframe') && !el.shadowRoot!.querySelector('[part="status"]'), 'the View');
      });
      const el = document.querySelector<AhpMcpApp>('ahp-mcp-app')!;
      el.displayMode = 'fullscreen';
      await el.updateComplete;
      expect(el.shadowRoot!.querySelector('[part="exit"]')).to.exist;
      await expect(el).to.be.accessible();
    });

    it(`a View asking without an interaction (the host-owned prompt), inline and in picture-in-picture (${scheme})`, async () => {
      const channel = new FakeChannel({ html: hostileView(`await message('hello');`) });
      const template = html`<ahp-mcp-app
        server-id="basic"
        resource-uri="ui://get-time/mcp-app.html"
        sandbox-url=${`${otherOrigin}/sandbox/sandbox-proxy.html`}
        .channel=${channel as McpChannel}
        .capabilities=${ALL_CAPABILITIES}
      ></ahp-mcp-app>`;
      await checkAll(template, scheme, async (wrap) => {
        const el = wrap.querySelector<AhpMcpApp>('ahp-mcp-app')!;
        await waitFor(el, () => !!el.shadowRoot!.querySelector('[part~="prompt"]'), 'the prompt');
        expect(el.shadowRoot!.querySelector('iframe')!.title).to.equal('Hostile (MCP App from basic)', 'the frame is named after the App and its server');
      });
      const el = document.querySelector<AhpMcpApp>('ahp-mcp-app')!;
      el.displayMode = 'pip';
      await el.updateComplete;
      await expect(el).to.be.accessible();
    });
  }
});
