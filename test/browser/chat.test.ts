import { expect, fixture, html, oneEvent, waitUntil } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import '../../elements/chat/define.js';
import type { AhpChat } from '../../elements/chat/chat.js';
import { elapsedSince, newTurnId } from '../../src/intents/turn-id.js';
import type { ChatAction } from '../../src/protocol/actions.js';
import type { ResponsePart } from '../../src/protocol/session.js';
import { CHAT, FakeChatStore, OTHER_CHAT, activeTurn, chatState, md, toolCall, turn } from './fixtures/chats.js';
import { session } from './fixtures/sessions.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const $ = <T extends Element = HTMLElement>(el: AhpChat, sel: string) => el.shadowRoot!.querySelector<T & Element>(sel) as T | null;
const $$ = (el: AhpChat, sel: string) => [...el.shadowRoot!.querySelectorAll<HTMLElement>(sel)];
const input = (el: AhpChat) => $<HTMLTextAreaElement>(el, '[part="input"]')!;
const sendButton = (el: AhpChat) => $<HTMLButtonElement>(el, '[part="send"]')!;
const stopButton = (el: AhpChat) => $<HTMLButtonElement>(el, '[part="stop"]');
const actionsOf = (store: FakeChatStore) => store.sent.map((s) => s.action);

async function render(chat = chatState(), uri = CHAT) {
  const store = new FakeChatStore(session([]));
  store.setChat(uri, chat);
  const el = await fixture<AhpChat>(html`<ahp-chat chat=${uri} .store=${store}></ahp-chat>`);
  return { el, store };
}

async function type(el: AhpChat, text: string) {
  input(el).focus();
  await sendKeys({ type: text });
}

describe('<ahp-chat> watching', () => {
  it('shows loading until the snapshot, then the empty state', async () => {
    const store = new FakeChatStore(session([]));
    const el = await fixture<AhpChat>(html`<ahp-chat chat=${CHAT} .store=${store}></ahp-chat>`);
    expect($(el, '[data-empty="loading"]')!.textContent).to.equal('Loading…');
    expect($(el, '[part="transcript"]')).to.equal(null);
    expect(sendButton(el).disabled).to.be.true;
    expect(el.matches(':state(loading)')).to.be.true;
    await expect(el).to.be.accessible();

    store.setChat(CHAT, chatState());
    await el.updateComplete;
    expect($(el, '[data-empty="empty"]')!.textContent).to.equal('No messages yet');
    expect(el.matches(':state(empty)')).to.be.true;
    expect(el.matches(':state(loading)')).to.be.false;
    expect(sendButton(el).disabled).to.be.false;
    await expect(el).to.be.accessible();
  });

  it('watches the chat while connected and releases it on disconnect and on a chat change', async () => {
    const store = new FakeChatStore(session([]));
    store.setChat(CHAT, chatState([turn('t1', 'first chat')]));
    store.setChat(OTHER_CHAT, chatState([turn('t2', 'second chat')], undefined, OTHER_CHAT));
    const el = await fixture<AhpChat>(html`<ahp-chat chat=${CHAT} .store=${store}></ahp-chat>`);
    expect(store.watches.get(CHAT)).to.equal(1);
    expect(store.chatListenerCount(CHAT)).to.equal(1);
    expect($(el, '.text')!.textContent).to.equal('first chat');

    el.chat = OTHER_CHAT;
    await el.updateComplete;
    expect(store.watches.get(CHAT)).to.equal(0);
    expect(store.chatListenerCount(CHAT)).to.equal(0);
    expect(store.watches.get(OTHER_CHAT)).to.equal(1);
    expect($(el, '.text')!.textContent).to.equal('second chat');

    el.remove();
    expect(store.watches.get(OTHER_CHAT)).to.equal(0);
    expect(store.chatListenerCount(OTHER_CHAT)).to.equal(0);
    document.body.append(el);
    await el.updateComplete;
    expect(store.watches.get(OTHER_CHAT)).to.equal(1);
  });

  it('follows a replaced store', async () => {
    const { el, store } = await render(chatState([turn('t1', 'old store')]));
    const next = new FakeChatStore(session([]));
    next.setChat(CHAT, chatState([turn('t9', 'new store')]));
    el.store = next;
    await el.updateComplete;
    expect(store.watches.get(CHAT)).to.equal(0);
    expect(next.watches.get(CHAT)).to.equal(1);
    expect($(el, '.text')!.textContent).to.equal('new store');
  });
});

describe('<ahp-chat> transcript', () => {
  const PARTS: ResponsePart[] = [
    md('m1', 'Hello **world** <script>window.__pwned = 1</script> [bad](javascript:alert(1)) [ok](https://example.com/)'),
    { kind: 'reasoning', id: 'r1', content: 'Thinking it over' },
    { kind: 'toolCall', toolCall: toolCall('tc1', 'completed', { success: true, pastTenseMessage: 'Added', confirmed: 'not-needed' }) },
    { kind: 'systemNotification', content: { markdown: 'Server *restarted*' } },
    { kind: 'contentRef', uri: 'file:///report.pdf', contentType: 'application/pdf' },
    { kind: 'inputRequest', request: { id: 'q1', message: 'Which file?' }, response: 'accept' },
    { kind: 'error', error: { errorType: 'rate-limit', message: 'Too many requests' } },
    { kind: 'hologram', id: 'h1' } as unknown as ResponsePart,
  ];

  it('renders every part kind safely', async () => {
    const { el } = await render(chatState([turn('t1', 'Add 1 and 2', PARTS)]));
    const kinds = $$(el, '[data-part]').map((p) => p.dataset.part);
    expect(kinds).to.deep.equal(['markdown', 'reasoning', 'toolCall', 'systemNotification', 'contentRef', 'inputRequest', 'error']);

    const markdown = $(el, '[data-part="markdown"]')!;
    expect(markdown.querySelector('strong')!.textContent).to.equal('world');
    expect(markdown.textContent).to.contain('<script>window.__pwned = 1</script>');
    expect(el.shadowRoot!.querySelectorAll('script').length).to.equal(0);
    const hrefs = [...markdown.querySelectorAll('a')].map((a) => a.getAttribute('href'));
    expect(hrefs).to.include('https://example.com/');
    expect(hrefs.every((h) => /^https?:/.test(h ?? ''))).to.be.true;

    const reasoning = $<HTMLDetailsElement>(el, '[data-part="reasoning"]')!;
    expect(reasoning.localName).to.equal('details');
    expect(reasoning.open).to.be.false;
    expect(reasoning.querySelector('summary')!.textContent).to.equal('Reasoning');
    expect(reasoning.textContent).to.contain('Thinking it over');

    const tool = $(el, '[data-part="toolCall"]')!;
    expect(tool.localName).to.equal('ahp-tool-call');
    expect(tool.getAttribute('chat')).to.equal(CHAT);
    expect(tool.getAttribute('tool-call-id')).to.equal('tc1');

    expect($(el, '[data-part="systemNotification"] em')!.textContent).to.equal('restarted');
    expect($(el, '[data-part="contentRef"]')!.textContent).to.contain('file:///report.pdf');
    expect($(el, '[data-part="inputRequest"]')!.textContent).to.contain('Which file?');
    expect($(el, '[data-part="error"]')!.textContent).to.contain('Too many requests');
    expect((window as { __pwned?: number }).__pwned).to.equal(undefined);

    const message = $(el, '[part="message"]')!;
    expect(message.dataset.origin).to.equal('user');
    expect(message.querySelector('.text')!.textContent).to.equal('Add 1 and 2');
    await expect(el).to.be.accessible();
  });

  it('a turn an MCP App\'s ui/message started shows the App as its sender, not "You"', async () => {
    const fromApp = turn('t-app', '/call everything get-sum', []);
    fromApp.message._meta = { 'ahp-elements/fromMcpApp': { serverId: 'budget', server: 'Budget App' } };
    const { el } = await render(chatState([turn('t-user', 'hello'), fromApp]));
    const who = $$(el, '[part="message"] .who').map((w) => w.textContent);
    expect(who).to.deep.equal(['You', 'Budget App (App)']);
    expect($$(el, '[part="message"]')[1]!.dataset['origin']).to.equal('app');
  });

  it('shows the user message as text, never as markup', async () => {
    const { el } = await render(chatState([turn('t1', '<img src=x onerror="window.__pwned = 1"> **not bold**')]));
    expect($(el, '.text')!.textContent).to.equal('<img src=x onerror="window.__pwned = 1"> **not bold**');
    expect($(el, '[part="message"] img, [part="message"] strong')).to.equal(null);
  });

  it('marks cancelled and failed turns', async () => {
    const { el } = await render(
      chatState([
        turn('t1', 'one', [md('a', 'partial')], 'cancelled'),
        turn('t2', 'two', [], 'error'),
        turn('t3', 'three', [{ kind: 'error', error: { errorType: 'x', message: 'Boom' } }], 'error'),
      ]),
    );
    const turns = $$(el, '[part="turn"]');
    expect(turns.map((t) => t.dataset.state)).to.deep.equal(['cancelled', 'error', 'error']);
    expect(turns[0]!.querySelector('[data-turn-state]')!.textContent).to.equal('Cancelled');
    expect(turns[1]!.querySelector('[data-turn-state]')!.textContent).to.equal('The response failed.');
    expect(turns[2]!.querySelector('[data-turn-state]')).to.equal(null);
    expect(turns[2]!.querySelector('[data-part="error"]')!.textContent).to.contain('Boom');
    await expect(el).to.be.accessible();
  });

  it('is a polite log that keeps past turns (and a completing turn) in place', async () => {
    const { el, store } = await render(chatState([turn('t1', 'one', [md('a', 'first answer')])], activeTurn('t2', 'two', [md('b', 'stream')])));
    const log = $(el, '[part="transcript"]')!;
    expect(log.getAttribute('role')).to.equal('log');
    expect(log.getAttribute('aria-live')).to.equal('polite');
    expect(log.getAttribute('aria-relevant')).to.equal('additions');
    const [past, active] = $$(el, '[part="turn"]');
    expect(active!.dataset.state).to.equal('active');
    expect(active!.getAttribute('aria-busy')).to.equal('true');
    const paragraph = active!.querySelector('[data-part="markdown"] p')!;

    store.setChat(CHAT, chatState([turn('t1', 'one', [md('a', 'first answer')])], activeTurn('t2', 'two', [md('b', 'streamed more')])));
    await el.updateComplete;
    expect(active!.querySelector('[data-part="markdown"] p')).to.equal(paragraph);
    expect(paragraph.textContent).to.equal('streamed more');

    store.setChat(CHAT, chatState([turn('t1', 'one', [md('a', 'first answer')]), turn('t2', 'two', [md('b', 'streamed more')])]));
    await el.updateComplete;
    const after = $$(el, '[part="turn"]');
    expect(after[0]).to.equal(past);
    expect(after[1]).to.equal(active);
    expect(after[1]!.dataset.state).to.equal('complete');
    expect(after[1]!.getAttribute('aria-busy')).to.equal('false');
    expect($(el, '[part="transcript"]')).to.equal(log);
  });

  it('scrolls to the newest content unless the user scrolled up', async () => {
    const many = Array.from({ length: 30 }, (_, i) => turn(`t${i}`, `message ${i}`, [md(`m${i}`, `answer ${i}`)]));
    const store = new FakeChatStore(session([]));
    store.setChat(CHAT, chatState(many));
    const el = await fixture<AhpChat>(html`<ahp-chat style="--ahp-chat-transcript-max-height: 200px" chat=${CHAT} .store=${store}></ahp-chat>`);
    const log = $(el, '[part="transcript"]')!;
    const atEnd = () => log.scrollHeight - log.scrollTop - log.clientHeight <= 2;
    expect(log.scrollHeight).to.be.greaterThan(log.clientHeight);
    expect(atEnd()).to.be.true;

    store.setChat(CHAT, chatState([...many, turn('n1', 'new one', [md('n', 'more')])]));
    await el.updateComplete;
    expect(atEnd()).to.be.true;

    log.scrollTop = 0;
    log.dispatchEvent(new Event('scroll'));
    store.setChat(CHAT, chatState([...many, turn('n1', 'new one'), turn('n2', 'new two')]));
    await el.updateComplete;
    expect(log.scrollTop).to.equal(0);

    log.scrollTop = log.scrollHeight;
    log.dispatchEvent(new Event('scroll'));
    store.setChat(CHAT, chatState([...many, turn('n1', 'new one'), turn('n2', 'new two'), turn('n3', 'new three')]));
    await el.updateComplete;
    expect(atEnd()).to.be.true;
  });
});

describe('<ahp-chat> composer', () => {
  it('sends chat/turnStarted on the chat channel after a cancelable ahp-chat-send', async () => {
    const { el, store } = await render();
    input(el).value = '  Add 1 and 2  ';
    const before = Date.now();
    setTimeout(() => sendButton(el).click());
    const event = await oneEvent(el, 'ahp-chat-send');
    expect(event.detail).to.deep.equal({ chat: CHAT, text: 'Add 1 and 2' });
    expect(event.cancelable && event.bubbles && event.composed).to.be.true;
    expect(store.sent).to.have.length(1);
    const { action, channel } = store.sent[0]!;
    expect(channel).to.equal(CHAT);
    const started = action as unknown as Extract<ChatAction, { type: 'chat/turnStarted' }>;
    expect(Object.keys(started).sort()).to.deep.equal(['message', 'startedAt', 'turnId', 'type']);
    expect(started.type).to.equal('chat/turnStarted');
    expect(started.turnId).to.match(UUID);
    expect(new Date(started.startedAt).toISOString()).to.equal(started.startedAt);
    expect(Date.parse(started.startedAt)).to.be.within(before - 1, Date.now() + 1);
    expect(started.message).to.deep.equal({ text: 'Add 1 and 2', origin: { kind: 'user' } });
    expect(input(el).value).to.equal('');
  });

  it('uses a fresh turn id per message', async () => {
    const { el, store } = await render();
    input(el).value = 'one';
    sendButton(el).click();
    input(el).value = 'two';
    sendButton(el).click();
    const ids = store.sent.map((s) => (s.action as unknown as { turnId: string }).turnId);
    expect(ids).to.have.length(2);
    expect(ids[0]).not.to.equal(ids[1]);
  });

  it('keeps the text and dispatches nothing when ahp-chat-send is cancelled', async () => {
    const { el, store } = await render();
    el.addEventListener('ahp-chat-send', (e) => e.preventDefault());
    input(el).value = 'handled by the page';
    sendButton(el).click();
    expect(store.sent).to.deep.equal([]);
    expect(input(el).value).to.equal('handled by the page');
  });

  it('Enter sends, Shift+Enter adds a line, blank text sends nothing', async () => {
    const { el, store } = await render();
    input(el).focus();
    await sendKeys({ press: 'Enter' });
    expect(store.sent).to.deep.equal([]);
    await type(el, 'line one');
    await sendKeys({ down: 'Shift' });
    await sendKeys({ press: 'Enter' });
    await sendKeys({ up: 'Shift' });
    await type(el, 'line two');
    expect(input(el).value).to.equal('line one\nline two');
    expect(store.sent).to.deep.equal([]);
    await sendKeys({ press: 'Enter' });
    expect(actionsOf(store).map((a) => a.type)).to.deep.equal(['chat/turnStarted']);
    expect((store.sent[0]!.action as unknown as { message: { text: string } }).message.text).to.equal('line one\nline two');
    expect(input(el).value).to.equal('');
    expect(el.shadowRoot!.activeElement).to.equal(input(el));
  });

  it('cannot send while a turn is active, and offers Stop', async () => {
    const { el, store } = await render(chatState([], activeTurn('t1', 'running')));
    expect(sendButton(el).disabled).to.be.true;
    expect(stopButton(el)).not.to.equal(null);
    expect(el.matches(':state(active)')).to.be.true;
    await type(el, 'queued thought');
    await sendKeys({ press: 'Enter' });
    expect(store.sent).to.deep.equal([]);
    expect(input(el).value).to.equal('queued thought');
    await expect(el).to.be.accessible();

    store.setChat(CHAT, chatState([turn('t1', 'running')]));
    await el.updateComplete;
    expect(sendButton(el).disabled).to.be.false;
    expect(stopButton(el)).to.equal(null);
  });

  it('Stop dispatches chat/turnCancelled with the turn id and elapsed duration after ahp-chat-cancel', async () => {
    const { el, store } = await render(chatState([], activeTurn('t1', 'running', [], 1500)));
    setTimeout(() => stopButton(el)!.click());
    const event = await oneEvent(el, 'ahp-chat-cancel');
    expect(event.detail).to.deep.equal({ chat: CHAT, turnId: 't1' });
    expect(event.cancelable).to.be.true;
    expect(store.sent).to.have.length(1);
    const { action, channel } = store.sent[0]!;
    expect(channel).to.equal(CHAT);
    const cancelled = action as unknown as Extract<ChatAction, { type: 'chat/turnCancelled' }>;
    expect(Object.keys(cancelled).sort()).to.deep.equal(['duration', 'turnId', 'type']);
    expect(cancelled.turnId).to.equal('t1');
    expect(cancelled.duration).to.be.within(1500, 60_000);
  });

  it('a cancelled ahp-chat-cancel dispatches nothing', async () => {
    const { el, store } = await render(chatState([], activeTurn('t1', 'running')));
    el.addEventListener('ahp-chat-cancel', (e) => e.preventDefault());
    stopButton(el)!.click();
    expect(store.sent).to.deep.equal([]);
  });

  it('is keyboard operable: Tab reaches the transcript, the textarea and Stop (Send is disabled)', async () => {
    const { el, store } = await render(chatState([turn('t1', 'hi', [md('a', 'hello')])], activeTurn('t2', 'next')));
    const before = document.createElement('button');
    before.textContent = 'before';
    el.before(before);
    before.focus();
    const order: string[] = [];
    for (let i = 0; i < 3; i++) {
      await sendKeys({ press: 'Tab' });
      const active = el.shadowRoot!.activeElement as HTMLElement | null;
      order.push(active?.getAttribute('part') ?? 'outside');
    }
    expect(order).to.deep.equal(['transcript', 'input', 'stop']);
    await sendKeys({ press: 'Enter' });
    expect(store.sent.map((s) => s.action.type)).to.deep.equal(['chat/turnCancelled']);
    before.remove();
  });

  it('has a labelled textarea and named buttons', async () => {
    const { el } = await render();
    const label = $(el, `label[for="${input(el).id}"]`)!;
    expect(label.textContent).to.equal('Message');
    expect(sendButton(el).textContent).to.equal('Send');
    expect($(el, 'form[part="composer"]')).not.to.equal(null);
  });
});

describe('turn ids', () => {
  it('falls back to getRandomValues without crypto.randomUUID', () => {
    const original = Object.getOwnPropertyDescriptor(Crypto.prototype, 'randomUUID')!;
    Object.defineProperty(Crypto.prototype, 'randomUUID', { value: undefined, configurable: true });
    try {
      const a = newTurnId();
      const b = newTurnId();
      expect(a).to.match(UUID);
      expect(a).not.to.equal(b);
    } finally {
      Object.defineProperty(Crypto.prototype, 'randomUUID', original);
    }
    expect(typeof crypto.randomUUID).to.equal('function');
  });

  it('elapsedSince never goes negative and survives garbage', () => {
    expect(elapsedSince('2026-01-01T00:00:01.000Z', Date.parse('2026-01-01T00:00:03.500Z'))).to.equal(2500);
    expect(elapsedSince('2026-01-01T00:00:05.000Z', Date.parse('2026-01-01T00:00:03.000Z'))).to.equal(0);
    expect(elapsedSince('not a date')).to.equal(0);
    expect(elapsedSince(undefined)).to.equal(0);
  });
});

describe('<ahp-chat> waits for its tool calls', () => {
  it('renders an <ahp-tool-call> for each tool-call part, keyed by id', async () => {
    const { el, store } = await render(
      chatState([], activeTurn('t1', 'go', [{ kind: 'toolCall', toolCall: toolCall('a', 'running') }])),
    );
    const first = $(el, 'ahp-tool-call')!;
    store.setChat(
      CHAT,
      chatState([], activeTurn('t1', 'go', [
        { kind: 'toolCall', toolCall: toolCall('a', 'running') },
        { kind: 'toolCall', toolCall: toolCall('b', 'pending-confirmation') },
      ])),
    );
    await el.updateComplete;
    const calls = $$(el, 'ahp-tool-call');
    expect(calls.map((c) => c.getAttribute('tool-call-id'))).to.deep.equal(['a', 'b']);
    expect(calls[0]).to.equal(first);
    await waitUntil(() => calls.every((c) => c.getAttribute('chat') === CHAT));
  });
});

describe('<ahp-chat> and <ahp-input-needed> with a provided store', () => {
  it('take the store from an ancestor <ahp-session>', async () => {
    await import('../../elements/session/define.js');
    await import('../../elements/input-needed/define.js');
    const store = new FakeChatStore(session([]));
    store.setChat(CHAT, chatState([turn('t1', 'from context')]));
    const wrap = await fixture<HTMLElement>(html`<ahp-session .store=${store}>
      <ahp-chat chat=${CHAT}></ahp-chat>
      <ahp-input-needed></ahp-input-needed>
    </ahp-session>`);
    const chat = wrap.querySelector('ahp-chat')!;
    const needed = wrap.querySelector('ahp-input-needed')!;
    await chat.updateComplete;
    await needed.updateComplete;
    expect(store.watches.get(CHAT)).to.equal(1);
    expect(chat.shadowRoot!.querySelector('.text')!.textContent).to.equal('from context');
    expect(needed.shadowRoot!.querySelector('[data-empty="empty"]')).not.to.equal(null);
    input(chat).value = 'hi';
    sendButton(chat).click();
    expect(store.sent.map((s) => s.channel)).to.deep.equal([CHAT]);
  });
});

describe('<ahp-chat> and <ahp-input-needed> tokens', () => {
  it('use only defined private tokens and set no public one', async () => {
    const { AhpInputNeeded } = await import('../../elements/input-needed/input-needed.js');
    const { AhpChat } = await import('../../elements/chat/chat.js');
    for (const ctor of [AhpChat, AhpInputNeeded]) {
      const css = ctor.elementStyles.map((s) => (s as { cssText?: string }).cssText ?? '').join('\n');
      const defined = new Set([...css.matchAll(/(--_[\w-]+)\s*:/g)].map((m) => m[1]));
      const missing = [...css.matchAll(/var\(\s*(--_[\w-]+)/g)].map((m) => m[1]).filter((t) => !defined.has(t));
      expect(missing).to.deep.equal([]);
      expect(css).not.to.match(/--ahp-[\w-]+\s*:/);
    }
  });
});
