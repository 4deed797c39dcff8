import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import '../../elements/tool-call/define.js';
import '../../elements/session/define.js';
import type { AhpToolCall } from '../../elements/tool-call/tool-call.js';
import type { ToolCallState } from '../../src/protocol/tool-calls.js';
import { CALLS, CHAT, FakeChatStore, IMAGE_DATA, TURN, call, chatState } from './fixtures/tool-calls.js';
import { PLAIN_ICON, DARK_ICON, STATES, mcpServer, session } from './fixtures/sessions.js';

const $ = <T extends HTMLElement = HTMLElement>(el: AhpToolCall, sel: string) => el.shadowRoot!.querySelector<T>(sel);
const $$ = (el: AhpToolCall, sel: string) => [...el.shadowRoot!.querySelectorAll<HTMLElement>(sel)];
const part = (el: AhpToolCall, name: string) => $(el, `[part~="${name}"]`);
const button = (el: AhpToolCall, action: string) => $<HTMLButtonElement>(el, `[data-action="${action}"]`);
const live = (el: AhpToolCall) => $(el, '[aria-live="polite"]')!.textContent!.trim();
const focusedAction = (el: AhpToolCall) => (el.shadowRoot!.activeElement as HTMLElement | null)?.dataset.action;

/** An element selected by chat + id from a FakeChatStore holding `calls` in the active turn. */
async function render(calls: ToolCallState | ToolCallState[], serverState = STATES.ready!) {
  const store = new FakeChatStore(session([mcpServer('a', serverState, { icons: [{ src: PLAIN_ICON }] })]), {
    [CHAT]: chatState(Array.isArray(calls) ? calls : [calls]),
  });
  const el = await fixture<AhpToolCall>(html`<ahp-tool-call chat=${CHAT} tool-call-id="tc1" .store=${store}></ahp-tool-call>`);
  return { el, store };
}

async function update(el: AhpToolCall, store: FakeChatStore, calls: ToolCallState[]) {
  store.setChat(CHAT, chatState(calls));
  await el.updateComplete;
}

const BADGES: Record<string, string> = {
  streaming: 'Preparing…',
  'pending-confirmation': 'Needs approval',
  running: 'Running…',
  'auth-required': 'Needs access',
  'pending-result-confirmation': 'Review result',
  completed: 'Completed',
  cancelled: 'Denied',
};
const BUTTONS: Record<string, string[]> = {
  streaming: [],
  'pending-confirmation': ['approve', 'deny'],
  running: [],
  'auth-required': ['grant-access', 'cancel'],
  'pending-result-confirmation': ['accept', 'reject'],
  completed: [],
  cancelled: [],
};

describe('<ahp-tool-call> statuses', () => {
  for (const [status, tc] of Object.entries(CALLS)) {
    it(`renders ${status}: badge, buttons, custom state, accessible`, async () => {
      const { el } = await render(tc);
      const badge = part(el, 'status')!;
      expect(badge.textContent!.trim()).to.equal(BADGES[status]);
      expect(badge.dataset.status).to.equal(status);
      expect(badge.dataset.known).to.equal('true');
      expect($(el, '.name')!.textContent).to.equal('Get sum');
      expect($$(el, '[data-action]').map((b) => b.dataset.action)).to.deep.equal(BUTTONS[status]);
      expect(el.matches(`:state(${status})`)).to.be.true;
      for (const other of Object.keys(CALLS).filter((s) => s !== status)) expect(el.matches(`:state(${other})`)).to.be.false;
      await expect(el).to.be.accessible();
    });
  }

  it('shows an unknown status as its raw text on a neutral badge', async () => {
    const { el } = await render(call('queued-remotely'));
    const badge = part(el, 'status')!;
    expect(badge.textContent!.trim()).to.equal('queued-remotely');
    expect(badge.dataset.known).to.equal('false');
    expect(el.matches(':state(unknown)')).to.be.true;
    expect($$(el, '[data-action]')).to.deep.equal([]);
    await expect(el).to.be.accessible();
  });

  it('shows the cancellation reason and its message', async () => {
    const { el, store } = await render(CALLS.cancelled!);
    expect($(el, '.reason strong')!.textContent).to.equal('now');
    for (const [reason, text] of [['skipped', 'Skipped'], ['result-denied', 'Result rejected'], ['odd', 'Cancelled']]) {
      await update(el, store, [call('cancelled', { reason, reasonMessage: undefined })]);
      expect(part(el, 'status')!.textContent!.trim()).to.equal(text);
      expect($(el, '.reason')).to.equal(null);
    }
  });

  it('marks a failed completion and shows the error message', async () => {
    const { el } = await render(call('completed', { success: false, content: [], error: { message: 'Division by zero', code: 'E1' } }));
    expect(part(el, 'status')!.textContent!.trim()).to.equal('Failed');
    expect(part(el, 'status')!.dataset.outcome).to.equal('failed');
    expect($(el, '[data-error]')!.textContent).to.equal('Division by zero');
    expect(el.matches(':state(failed)')).to.be.true;
    await expect(el).to.be.accessible();
  });

  it('survives garbage fields', async () => {
    const { el } = await render({ toolCallId: 'tc1', status: 7, displayName: null, contributor: 'x', content: 'no' } as never);
    expect(part(el, 'status')!.textContent!.trim()).to.equal('unknown');
    expect($(el, '.name')!.textContent).to.equal('Tool call');
  });
});

describe('<ahp-tool-call> messages and input', () => {
  it('renders the invocation message as safe markdown and the intention as text', async () => {
    const { el } = await render(
      call('running', { intention: 'Add <b>numbers</b>', invocationMessage: { markdown: 'Sum **it** <script>alert(1)</script> [x](javascript:alert(1))' } }),
    );
    expect($(el, '.intention')!.textContent).to.equal('Add <b>numbers</b>');
    expect($(el, '.message strong')!.textContent).to.equal('it');
    expect($(el, '.message')!.textContent).to.contain('<script>alert(1)</script>');
    expect($(el, 'script, .intention b, .message a')).to.equal(null);
  });

  it('shows the past-tense message once completed', async () => {
    const { el } = await render(CALLS.completed!);
    expect($(el, '.message')!.textContent!.trim()).to.equal('Added 1 and 2');
    expect($(el, '.message em')).to.exist;
  });

  it('pretty-prints JSON input in a closed <details>, plain text otherwise', async () => {
    const { el, store } = await render(CALLS.running!);
    const input = part(el, 'input') as HTMLDetailsElement;
    expect(input.tagName).to.equal('DETAILS');
    expect(input.open).to.be.false;
    expect(input.dataset.input).to.equal('inline');
    expect(input.querySelector('pre')!.textContent).to.equal('{\n  "a": 1,\n  "b": 2\n}');
    await update(el, store, [call('running', { toolInput: 'not json {' })]);
    expect(part(el, 'input')!.querySelector('pre')!.textContent).to.equal('not json {');
  });

  it('shows the streaming partial input, then nothing without input', async () => {
    const { el, store } = await render(CALLS.streaming!);
    expect(part(el, 'input')!.dataset.input).to.equal('partial');
    expect(part(el, 'input')!.querySelector('pre')!.textContent).to.equal('{"a":1,');
    await update(el, store, [call('running', { toolInput: undefined })]);
    expect(part(el, 'input')).to.equal(null);
  });

  it('shows a ContentRef input as a label without a link', async () => {
    const { el } = await render(call('running', { toolInput: { uri: 'javascript:alert(1)', sizeHint: 2048, contentType: 'application/json' } }));
    expect(part(el, 'input')!.dataset.input).to.equal('ref');
    expect(part(el, 'input')!.textContent).to.contain('javascript:alert(1) (application/json, 2.0 kB)');
    expect($(el, 'a')).to.equal(null);
  });
});

describe('<ahp-tool-call> result content', () => {
  const content = [
    { type: 'text', text: 'line 1\n<b>line 2</b>' },
    { type: 'embeddedResource', data: IMAGE_DATA, contentType: 'image/png' },
    { type: 'embeddedResource', data: 'AAAAAA==', contentType: 'application/pdf' },
    { type: 'embeddedResource', data: 'AAAA', contentType: 'text/html' },
    { type: 'resource', uri: 'file:///tmp/out.csv', contentType: 'text/csv', sizeHint: 10 },
    { type: 'fileEdit', before: { uri: 'file:///a.ts', content: { uri: 'x:1' } }, after: { uri: 'file:///a.ts', content: { uri: 'x:2' } }, diff: { added: 3, removed: 1 } },
    { type: 'fileEdit', after: { uri: 'file:///new.ts', content: { uri: 'x:3' } } },
    { type: 'terminal', resource: 'term:/1', title: 'npm test', result: { exitCode: 1, preview: 'FAIL', truncated: true } },
    { type: 'subagent', resource: 'ahp-chat:/sub', title: 'Research', agentName: 'scout', description: 'Looks things up' },
    { type: 'hologram', beam: 1 },
  ];

  it('renders every content type, images only for image/*', async () => {
    const { el } = await render(call('completed', { content, structuredContent: { sum: 3 } }));
    const items = $$(el, '[data-content-type]');
    expect(items.map((i) => i.dataset.contentType)).to.deep.equal(content.map((c) => c.type));
    expect(items[0]!.querySelector('.text')!.textContent).to.equal('line 1\n<b>line 2</b>');
    expect(items[0]!.querySelector('b')).to.equal(null);
    const img = items[1]!.querySelector('img')!;
    expect(img.getAttribute('src')).to.equal(`data:image/png;base64,${IMAGE_DATA}`);
    expect(img.alt).to.equal('Image result (image/png)');
    expect(items[2]!.querySelector('img')).to.equal(null);
    expect(items[2]!.textContent!.trim()).to.equal('Embedded application/pdf (4 bytes)');
    expect(items[3]!.querySelector('img, iframe')).to.equal(null);
    expect(items[4]!.textContent!.trim()).to.equal('Resource: file:///tmp/out.csv (text/csv, 10 bytes)');
    expect(items[5]!.textContent!.trim()).to.equal('Edited file:///a.ts (+3 −1)');
    expect(items[6]!.textContent!.trim()).to.equal('Created file:///new.ts');
    expect(items[7]!.textContent).to.contain('Terminal: npm test').and.contain('(exit code 1)');
    expect(items[7]!.querySelector('pre')!.textContent).to.equal('FAIL\n…');
    expect(items[8]!.textContent).to.contain('Subagent: Research (scout)').and.contain('Looks things up');
    expect(items[9]!.textContent!.trim()).to.equal('Unsupported content (hologram)');
    expect($(el, 'a')).to.equal(null);
    const structured = $(el, '.structured') as HTMLDetailsElement;
    expect(structured.open).to.be.false;
    expect(structured.querySelector('pre')!.textContent).to.equal('{\n  "sum": 3\n}');
    await expect(el).to.be.accessible();
  });

  it('refuses a non-base64 image payload', async () => {
    const { el } = await render(call('completed', { content: [{ type: 'embeddedResource', data: '" onerror="x', contentType: 'image/png' }] }));
    expect($(el, '[data-content-type] img')).to.equal(null);
  });

  it('shows live content while running', async () => {
    const { el, store } = await render(CALLS.running!);
    expect(part(el, 'result')).to.equal(null);
    await update(el, store, [call('running', { content: [{ type: 'text', text: 'step 1/3' }] })]);
    expect(part(el, 'result')!.textContent!.trim()).to.equal('step 1/3');
  });
});

describe('<ahp-tool-call> confirmation', () => {
  it('approve and deny dispatch chat/toolCallConfirmed on the chat channel', async () => {
    const { el, store } = await render(CALLS['pending-confirmation']!);
    expect($(el, '.confirm .title')!.textContent).to.equal('Run get-sum?');
    button(el, 'approve')!.click();
    button(el, 'deny')!.click();
    expect(store.sent).to.deep.equal([
      { channel: CHAT, action: { type: 'chat/toolCallConfirmed', turnId: TURN, toolCallId: 'tc1', approved: true, confirmed: 'user-action' } },
      { channel: CHAT, action: { type: 'chat/toolCallConfirmed', turnId: TURN, toolCallId: 'tc1', approved: false, reason: 'denied' } },
    ]);
  });

  it('offers the options as buttons (ordered by group) and sends the selected option id', async () => {
    const options = [
      { id: 'never', label: 'Never', kind: 'deny', group: 2 },
      { id: 'once', label: 'Allow once', kind: 'approve', group: 1 },
      { id: 'always', label: 'Always allow', kind: 'approve', group: 1 },
      { id: 'bogus', label: 'Bogus', kind: 'maybe' },
    ];
    const { el, store } = await render(call('pending-confirmation', { options }));
    const buttons = $$(el, '[part~="actions"] button');
    expect(buttons.map((b) => [b.textContent, b.dataset.action, b.dataset.optionId])).to.deep.equal([
      ['Allow once', 'approve', 'once'],
      ['Always allow', 'approve', 'always'],
      ['Never', 'deny', 'never'],
    ]);
    buttons[1]!.click();
    buttons[2]!.click();
    expect(store.sent.map((s) => s.action)).to.deep.equal([
      { type: 'chat/toolCallConfirmed', turnId: TURN, toolCallId: 'tc1', approved: true, confirmed: 'user-action', selectedOptionId: 'always' },
      { type: 'chat/toolCallConfirmed', turnId: TURN, toolCallId: 'tc1', approved: false, reason: 'denied', selectedOptionId: 'never' },
    ]);
    await expect(el).to.be.accessible();
  });

  it('shows the risk assessment', async () => {
    const { el, store } = await render(call('pending-confirmation', { riskAssessment: { kind: 'judge', status: 'loading' } }));
    expect($(el, '[data-risk]')!.textContent).to.equal('Assessing risk…');
    await update(el, store, [call('pending-confirmation', { riskAssessment: { kind: 'judge', status: 'complete', safety: 0.2, reason: { markdown: 'Deletes **files**' } } })]);
    const risk = $(el, '[data-risk]')!;
    expect(risk.dataset.risk).to.equal('high');
    expect(risk.textContent).to.contain('High risk').and.contain('20%');
    expect(risk.querySelector('strong + * strong, .md strong')!.textContent).to.equal('files');
    await expect(el).to.be.accessible();
  });

  it('lets editable input be edited and sends editedToolInput only when changed', async () => {
    const { el, store } = await render(call('pending-confirmation', { editable: true }));
    const area = $<HTMLTextAreaElement>(el, 'textarea[data-edit-input]')!;
    expect(area.value).to.equal('{"a":1,"b":2}');
    button(el, 'approve')!.click();
    expect(store.sent[0]!.action).not.to.have.property('editedToolInput');
    area.focus();
    area.select();
    await sendKeys({ type: '{"a":5,"b":2}' });
    const approved = oneEvent(el, 'ahp-tool-call-approve');
    button(el, 'approve')!.click();
    expect((await approved).detail.editedToolInput).to.equal('{"a":5,"b":2}');
    expect(store.sent[1]!.action).to.deep.equal({
      type: 'chat/toolCallConfirmed', turnId: TURN, toolCallId: 'tc1', approved: true, confirmed: 'user-action', editedToolInput: '{"a":5,"b":2}',
    });
    await expect(el).to.be.accessible();
  });

  it('has no textarea when the input is not editable or not inline', async () => {
    const { el, store } = await render(CALLS['pending-confirmation']!);
    expect($(el, 'textarea')).to.equal(null);
    await update(el, store, [call('pending-confirmation', { editable: true, toolInput: { uri: 'x:/in' } })]);
    expect($(el, 'textarea')).to.equal(null);
  });

  it('accept and reject dispatch chat/toolCallResultConfirmed', async () => {
    const { el, store } = await render(CALLS['pending-result-confirmation']!);
    expect(part(el, 'result')!.textContent!.trim()).to.equal('3');
    button(el, 'accept')!.click();
    button(el, 'reject')!.click();
    expect(store.sent).to.deep.equal([
      { channel: CHAT, action: { type: 'chat/toolCallResultConfirmed', turnId: TURN, toolCallId: 'tc1', approved: true } },
      { channel: CHAT, action: { type: 'chat/toolCallResultConfirmed', turnId: TURN, toolCallId: 'tc1', approved: false } },
    ]);
  });
});

describe('<ahp-tool-call> events', () => {
  const cases = [
    ['pending-confirmation', 'approve', 'ahp-tool-call-approve'],
    ['pending-confirmation', 'deny', 'ahp-tool-call-deny'],
    ['pending-result-confirmation', 'accept', 'ahp-tool-call-result-confirm'],
    ['pending-result-confirmation', 'reject', 'ahp-tool-call-result-confirm'],
    ['auth-required', 'cancel', 'ahp-tool-call-cancel'],
  ] as const;
  for (const [status, action, name] of cases) {
    it(`${action} fires a bubbling, composed, cancelable ${name} first; preventDefault suppresses the dispatch`, async () => {
      const { el, store } = await render(CALLS[status]!);
      const seen: Event[] = [];
      const onEvent = (e: Event) => {
        seen.push(e);
        expect(store.sent.length, 'event comes before the dispatch').to.equal(0);
      };
      document.addEventListener(name, onEvent);
      button(el, action)!.click();
      document.removeEventListener(name, onEvent);
      expect(seen.length).to.equal(1);
      const e = seen[0] as Event & { detail: { chat: string; turnId: string; toolCallId: string; action: unknown } };
      expect([e.bubbles, e.composed, e.cancelable]).to.deep.equal([true, true, true]);
      expect(e.detail).to.include({ chat: CHAT, turnId: TURN, toolCallId: 'tc1' });
      expect(e.detail.action).to.deep.equal(store.sent[0]!.action);
      el.addEventListener(name, (ev) => ev.preventDefault(), { once: true });
      button(el, action)!.click();
      expect(store.sent.length).to.equal(1);
    });
  }

  it('a given .toolCall with .chat and .turnId dispatches; without a chat it only fires the event', async () => {
    const store = new FakeChatStore(session([]));
    const tc = CALLS['pending-confirmation']!;
    const el = await fixture<AhpToolCall>(html`<ahp-tool-call .store=${store} .toolCall=${tc} .chat=${CHAT} .turnId=${'t9'}></ahp-tool-call>`);
    expect(store.watches.size).to.equal(0);
    button(el, 'approve')!.click();
    expect(store.sent).to.deep.equal([
      { channel: CHAT, action: { type: 'chat/toolCallConfirmed', turnId: 't9', toolCallId: 'tc1', approved: true, confirmed: 'user-action' } },
    ]);
    el.chat = undefined;
    await el.updateComplete;
    const fired = oneEvent(el, 'ahp-tool-call-deny');
    button(el, 'deny')!.click();
    expect((await fired).detail.chat).to.equal(undefined);
    expect(store.sent.length).to.equal(1);
  });
});

describe('<ahp-tool-call> authentication', () => {
  it('a running call whose server flips to authRequired offers Grant access and Cancel', async () => {
    const { el, store } = await render(CALLS.running!);
    expect($(el, '[data-auth]')).to.equal(null);
    store.setState(session([mcpServer('a', STATES.authRequired!, { name: 'Calc' })]));
    await el.updateComplete;
    expect($(el, '[data-auth]')!.textContent).to.contain('Calc needs access');
    expect(el.matches(':state(auth-blocked)')).to.be.true;
    expect(el.matches(':state(running)')).to.be.true;
    expect(live(el)).to.equal('Get sum: Running…, access needed');
    await expect(el).to.be.accessible();
    const requested = oneEvent(el, 'ahp-auth-request');
    button(el, 'grant-access')!.click();
    const e = await requested;
    expect(e.cancelable && e.bubbles && e.composed).to.be.true;
    expect(e.detail).to.deep.equal({
      kind: 'toolCall', chat: CHAT, turnId: TURN, toolCallId: 'tc1', customizationId: 'a',
      auth: { reason: 'required', resource: { resource: 'https://mcp.example.com/' } },
    });
    expect(store.sent).to.deep.equal([]);
    store.setState(session([mcpServer('a', STATES.ready!)]));
    await el.updateComplete;
    expect($(el, '[data-auth]')).to.equal(null);
    expect(el.matches(':state(auth-blocked)')).to.be.false;
  });

  it('an auth-required call requests auth with its own requirement and cancel completes it as failed', async () => {
    const { el, store } = await render(CALLS['auth-required']!);
    expect($(el, '[data-auth]')!.textContent).to.contain('Scope sum:write needed');
    const requested = oneEvent(el, 'ahp-auth-request');
    button(el, 'grant-access')!.click();
    expect((await requested).detail.auth).to.deep.equal((CALLS['auth-required'] as { auth: unknown }).auth);
    button(el, 'cancel')!.click();
    expect(store.sent).to.deep.equal([
      {
        channel: CHAT,
        action: {
          type: 'chat/toolCallComplete', turnId: TURN, toolCallId: 'tc1',
          result: { success: false, pastTenseMessage: 'Cancelled', error: { message: 'Cancelled by the user', code: 'cancelled' } },
        },
      },
    ]);
  });

  it('no affordance for a completed call on an authRequired server, nor for a client tool', async () => {
    const { el, store } = await render(CALLS.completed!, STATES.authRequired!);
    expect($(el, '[data-auth]')).to.equal(null);
    await update(el, store, [call('running', { contributor: { kind: 'client', clientId: 'c' } })]);
    expect($(el, '[data-auth]')).to.equal(null);
    expect(part(el, 'server')).to.equal(null);
  });
});

describe('<ahp-tool-call> server, live region, keyboard, lifecycle', () => {
  it('shows the contributing server name and icon and follows changes live', async () => {
    const { el, store } = await render(CALLS.running!);
    const server = part(el, 'server')!;
    expect(server.dataset.serverId).to.equal('a');
    expect(server.textContent!.trim()).to.equal('Server a');
    expect(server.querySelector('img')!.getAttribute('src')).to.equal(PLAIN_ICON);
    expect(server.querySelector('img')!.alt).to.equal('');
    store.setState(session([mcpServer('a', STATES.ready!, { name: 'Calculator', icons: [{ src: DARK_ICON }] })]));
    await el.updateComplete;
    expect(part(el, 'server')!.textContent!.trim()).to.equal('Calculator');
    expect(part(el, 'server')!.querySelector('img')!.getAttribute('src')).to.equal(DARK_ICON);
    store.setState(session([]));
    await el.updateComplete;
    expect(part(el, 'server')!.textContent!.trim()).to.equal('a');
    expect(part(el, 'server')!.querySelector('img')).to.equal(null);
  });

  it('announces status changes politely, only when the status changes', async () => {
    const { el, store } = await render(CALLS['pending-confirmation']!);
    const region = $(el, '[aria-live="polite"]')!;
    expect(region.getAttribute('role')).to.equal('status');
    expect(live(el)).to.equal('');
    await update(el, store, [call('pending-confirmation', { confirmationTitle: 'Other title' })]);
    expect(live(el)).to.equal('');
    await update(el, store, [CALLS.running!]);
    expect(live(el)).to.equal('Get sum: Running…');
    await update(el, store, [call('running', { content: [{ type: 'text', text: 'more' }] })]);
    expect(live(el)).to.equal('Get sum: Running…');
    await update(el, store, [call('completed', { success: false })]);
    expect(live(el)).to.equal('Get sum: Failed');
    expect($(el, '[aria-live="polite"]')).to.equal(region);
  });

  it('is keyboard operable: Tab to Approve, Enter dispatches, focus stays in the call', async () => {
    const { el, store } = await render(CALLS['pending-confirmation']!);
    const before = document.createElement('button');
    before.textContent = 'before';
    el.before(before);
    before.focus();
    await sendKeys({ press: 'Tab' }); // the input <summary>
    expect((el.shadowRoot!.activeElement as HTMLElement).tagName).to.equal('SUMMARY');
    await sendKeys({ press: 'Enter' });
    expect((part(el, 'input') as HTMLDetailsElement).open).to.be.true;
    await sendKeys({ press: 'Tab' });
    expect(focusedAction(el)).to.equal('approve');
    await sendKeys({ press: 'Tab' });
    expect(focusedAction(el)).to.equal('deny');
    await sendKeys({ down: 'Shift' });
    await sendKeys({ press: 'Tab' });
    await sendKeys({ up: 'Shift' });
    await sendKeys({ press: 'Enter' });
    expect(store.sent.map((s) => s.action.approved)).to.deep.equal([true]);
    // The fake store does not apply the action; show the state the host would echo. Focus moves to the new actions.
    await update(el, store, [CALLS['pending-result-confirmation']!]);
    expect(focusedAction(el)).to.equal('accept');
    await sendKeys({ press: 'Space' });
    expect(store.sent[1]!.action).to.include({ type: 'chat/toolCallResultConfirmed', approved: true });
    before.remove();
  });

  it('watches the chat while connected and lets it go on disconnect', async () => {
    const { el, store } = await render(CALLS.running!);
    expect(store.watches.get(CHAT)).to.equal(1);
    expect(store.chatListenerCount).to.be.greaterThan(0);
    el.remove();
    expect(store.watches.get(CHAT)).to.equal(0);
    expect(store.chatListenerCount).to.equal(0);
    expect(store.listenerCount).to.equal(0);
  });

  it('shows loading until the chat arrives, then not-found for an unknown id, and follows a new id', async () => {
    const store = new FakeChatStore(session([mcpServer('a', STATES.ready!)]));
    const el = await fixture<AhpToolCall>(html`<ahp-tool-call chat=${CHAT} tool-call-id="zz" .store=${store}></ahp-tool-call>`);
    expect($(el, '[data-empty]')!.dataset.empty).to.equal('loading');
    expect(el.matches(':state(loading)')).to.be.true;
    store.setChat(CHAT, chatState([CALLS.running!]));
    await el.updateComplete;
    expect($(el, '[data-empty]')!.dataset.empty).to.equal('not-found');
    expect(el.matches(':state(not-found)')).to.be.true;
    await expect(el).to.be.accessible();
    el.toolCallId = 'tc1';
    await el.updateComplete;
    expect(part(el, 'status')!.dataset.status).to.equal('running');
    expect(store.watches.get(CHAT)).to.equal(1);
  });

  it('treats a non-chat channel as not found without throwing', async () => {
    const store = new FakeChatStore(session([]));
    const el = await fixture<AhpToolCall>(html`<ahp-tool-call chat="ahp-session:/x" tool-call-id="tc1" .store=${store}></ahp-tool-call>`);
    expect($(el, '[data-empty]')!.dataset.empty).to.equal('not-found');
    expect(el.matches(':state(not-found)')).to.be.true;
  });

  it('uses the store provided by an ancestor <ahp-session>', async () => {
    const store = new FakeChatStore(session([mcpServer('a', STATES.ready!)]), { [CHAT]: chatState([CALLS['pending-confirmation']!]) });
    const wrap = await fixture<HTMLElement>(
      html`<ahp-session .store=${store}><ahp-tool-call chat=${CHAT} tool-call-id="tc1"></ahp-tool-call></ahp-session>`,
    );
    const el = wrap.querySelector('ahp-tool-call')!;
    await el.updateComplete;
    expect(part(el, 'status')!.dataset.status).to.equal('pending-confirmation');
    button(el, 'approve')!.click();
    expect(store.sent[0]).to.deep.include({ channel: CHAT });
  });
});

describe('<ahp-tool-call> styles', () => {
  it('uses no undefined private token, sets no public one, and follows a dark color-scheme', async () => {
    const ctor = customElements.get('ahp-tool-call') as unknown as { elementStyles: { cssText?: string }[] };
    const css = ctor.elementStyles.map((s) => s.cssText ?? '').join('\n');
    const defined = new Set([...css.matchAll(/(--_[\w-]+)\s*:/g)].map((m) => m[1]));
    const missing = [...css.matchAll(/var\(\s*(--_[\w-]+)/g)].map((m) => m[1]).filter((t) => !defined.has(t));
    expect(missing).to.deep.equal([]);
    expect(css).not.to.match(/--ahp-[\w-]+\s*:/);
    const { el } = await render(CALLS['pending-confirmation']!);
    el.style.colorScheme = 'dark';
    expect(getComputedStyle($(el, '.name')!).color).to.equal('rgb(230, 237, 243)');
    await expect(el).to.be.accessible();
  });
});
