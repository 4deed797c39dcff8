// End to end: tool calls through the playground's scripted agent and the real server-everything, shown and operated
// in Chromium by <ahp-chat>, <ahp-tool-call> and <ahp-input-needed> (demo page, a second page, an input-needed-only page).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import puppeteer, { type Browser, type ElementHandle, type Page } from 'puppeteer-core';
import { startPlayground, type Playground } from '../../examples/playground/playground.js';
import { parseConfig } from '../../examples/playground/config.js';
import type { CallToolOptions } from '../../examples/playground/mcp-runtime.js';
import type { ChatState, ToolCallState } from '../../src/protocol/index.js';
import { CHROMIUM_ARGS, findChromium } from '../../scripts/find-chromium.mjs';
import { publishedServer } from '../fixtures/mcp-servers.js';
import { clickLanded } from '../fixtures/playground-page.js';

const WAIT_MS = 20_000;
const SIDE_CHAT = 'ahp-chat:/side';
const TOOL_STATES = ['streaming', 'pending-confirmation', 'running', 'auth-required', 'pending-result-confirmation', 'completed', 'cancelled', 'unknown', 'failed'];

/** One `<ahp-tool-call>` as the page shows it, read through the shadow roots. */
interface ToolCallView {
  id: string;
  /** `data-status` of the badge (the raw status). */
  status: string;
  /** Visible badge text. */
  label: string;
  /** Custom states (`:state(x)`). */
  states: string[];
  server: string;
  resultText: string;
  contentTypes: string[];
  images: string[];
  /** `data-action` / `data-option-id` of every button. */
  buttons: { action: string; optionId: string | null }[];
}

interface ChatView {
  active: boolean;
  turns: { id: string; state: string }[];
  toolCalls: ToolCallView[];
}

/** Reads the tool calls under `root` (runs in the page). */
function readToolCallsIn(root: ParentNode, states: string[]): ToolCallView[] {
  return [...root.querySelectorAll('ahp-tool-call')].map((tc) => {
    const r = tc.shadowRoot;
    const badge = r?.querySelector<HTMLElement>('[part="status"]');
    const result = r?.querySelector<HTMLElement>('[part="result"]');
    return {
      id: tc.getAttribute('tool-call-id') ?? (tc as unknown as { toolCall?: { toolCallId?: string } }).toolCall?.toolCallId ?? '',
      status: badge?.dataset.status ?? '',
      label: badge?.textContent?.trim() ?? '',
      states: states.filter((s) => tc.matches(`:state(${s})`)),
      server: r?.querySelector('[part="server"]')?.textContent?.trim() ?? '',
      resultText: result?.textContent?.replace(/\s+/g, ' ').trim() ?? '',
      contentTypes: [...(result?.querySelectorAll<HTMLElement>('[data-content-type]') ?? [])].map((li) => li.dataset.contentType ?? ''),
      images: [...(result?.querySelectorAll('img') ?? [])].map((img) => img.getAttribute('src') ?? ''),
      buttons: [...(r?.querySelectorAll<HTMLElement>('button[data-action]') ?? [])].map((b) => ({ action: b.dataset.action ?? '', optionId: b.dataset.optionId ?? null })),
    };
  });
}

const chatView = (page: Page): Promise<ChatView> =>
  page.evaluate(
    (states, readSrc) => {
      const read = new Function(`return (${readSrc})`)() as typeof readToolCallsIn;
      const chat = document.querySelector('ahp-chat');
      const root = chat?.shadowRoot;
      return {
        active: !!chat?.matches(':state(active)'),
        turns: [...(root?.querySelectorAll<HTMLElement>('[part="turn"]') ?? [])].map((t) => ({ id: t.dataset.turnId ?? '', state: t.dataset.state ?? '' })),
        toolCalls: root ? read(root, states) : [],
      };
    },
    TOOL_STATES,
    readToolCallsIn.toString(),
  );

/** Polls `read` until `ok` holds; fails with what it saw last. */
async function waitFor<T>(what: string, read: () => Promise<T>, ok: (v: T) => boolean, extra: () => unknown = () => '', timeoutMs = WAIT_MS): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await read();
    if (ok(v)) return v;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms; last seen ${JSON.stringify(v)} ${JSON.stringify(extra())}`);
    await new Promise((r) => setTimeout(r, 40));
  }
}

/** Every tool call of a chat on the host, newest last. */
function hostToolCalls(chat: ChatState | undefined): ToolCallState[] {
  if (!chat) return [];
  const turns = [...chat.turns, ...(chat.activeTurn ? [chat.activeTurn] : [])];
  return turns.flatMap((t) => t.responseParts.flatMap((p) => (p.kind === 'toolCall' ? [p.toolCall] : [])));
}

/** A recorded `callTool` of the everything runtime: its abort signal and how the request ended. */
interface RecordedCall {
  name: string;
  signal: AbortSignal | undefined;
  outcome: 'pending' | 'resolved' | 'rejected';
  error?: string;
}

describe('tool calls end to end (Chromium + playground agent + server-everything)', () => {
  let playground: Playground;
  let browser: Browser;
  let pageA: Page;
  let pageB: Page | undefined;
  let pageC: Page | undefined;
  const problems: string[] = [];
  const calls: RecordedCall[] = [];

  const watchProblems = (page: Page, name: string) => {
    page.on('pageerror', (err) => problems.push(`${name} pageerror: ${err instanceof Error ? err.message : String(err)}`));
    page.on('console', (msg) => {
      if (msg.type() === 'error') problems.push(`${name} console.error: ${msg.text()}`);
    });
  };

  const openPage = async (name: string): Promise<Page> => {
    const page = await browser.newPage();
    watchProblems(page, name);
    await page.goto(playground.url, { waitUntil: 'load' });
    await page.waitForFunction(() => document.querySelector('ahp-session')?.matches(':state(open)') && document.querySelector('ahp-chat')?.shadowRoot?.querySelector('[part="transcript"]'), {
      timeout: WAIT_MS,
      polling: 50,
    });
    return page;
  };

  /** Types a message into page A's chat once no turn is active; resolves with how many tool calls the chat showed before. */
  async function send(text: string, page = pageA): Promise<number> {
    await page.bringToFront(); // background tabs throttle rAF, which puppeteer's click waits on
    const before = await waitFor(`chat idle before sending ${text}`, () => chatView(page), (v) => !v.active);
    const input = (await page.evaluateHandle(() => document.querySelector('ahp-chat')?.shadowRoot?.querySelector('textarea[part="input"]') ?? null)).asElement() as ElementHandle<HTMLTextAreaElement> | null;
    assert.ok(input, 'the chat has its input');
    await clickLanded(input);
    await input.type(text);
    await clickLanded(await button(page, () => document.querySelector('ahp-chat')?.shadowRoot?.querySelector('[data-action="send"]')));
    return before.toolCalls.length;
  }

  /** The tool call `index` of page A's chat once `ok` holds for it. */
  const waitForCall = (what: string, index: number, ok: (tc: ToolCallView) => boolean, page = pageA) =>
    waitFor(what, () => chatView(page), (v) => !!v.toolCalls[index] && ok(v.toolCalls[index]), () => problems).then((v) => v.toolCalls[index]!);

  async function button(page: Page, find: () => Element | null | undefined): Promise<ElementHandle<HTMLElement>> {
    const el = (await page.evaluateHandle(find)).asElement() as ElementHandle<HTMLElement> | null;
    if (!el) throw new Error(`button not found by ${find.toString()}`);
    return el;
  }

  /** Clicks a button of the chat's tool call `index` (by data-action and optional data-option-id). */
  async function clickToolCall(index: number, action: string, optionId?: string): Promise<void> {
    const el = (
      await pageA.evaluateHandle(
        (index, action, optionId) =>
          document
            .querySelector('ahp-chat')
            ?.shadowRoot?.querySelectorAll('ahp-tool-call')
            [index]?.shadowRoot?.querySelector(`button[data-action="${action}"]${optionId ? `[data-option-id="${optionId}"]` : ''}`) ?? null,
        index,
        action,
        optionId ?? null,
      )
    ).asElement() as ElementHandle<HTMLElement> | null;
    if (!el) throw new Error(`tool call #${index} has no ${action}/${optionId} button; it shows ${JSON.stringify((await chatView(pageA)).toolCalls[index])}`);
    // The transcript grows and scrolls while calls run: a click aimed at a moving button is repeated until it lands.
    await clickLanded(el);
  }

  /** The last turn of the chat once it has ended (not active any more). */
  const waitForTurnEnd = (what: string, page = pageA) =>
    waitFor(what, () => chatView(page), (v) => !v.active && !!v.turns.at(-1) && v.turns.at(-1)!.state !== 'active').then((v) => v.turns.at(-1)!);

  before(async () => {
    const config = parseConfig({
      servers: [
        publishedServer('server-everything', 'everything', 'Everything', { confirm: ['get-env'], confirmResult: ['get-resource-links'] }),
      ],
    });
    playground = await startPlayground({ port: 0, config });
    // Observe the agent's MCP requests: the abort signal it passes and whether the SDK call resolved or rejected.
    const runtime = playground.servers.get('everything')!;
    const callTool = runtime.callTool.bind(runtime);
    runtime.callTool = (name: string, args: Record<string, unknown>, options?: CallToolOptions) => {
      const rec: RecordedCall = { name, signal: options?.signal, outcome: 'pending' };
      calls.push(rec);
      const p = callTool(name, args, options);
      p.then(
        () => (rec.outcome = 'resolved'),
        (err: unknown) => ((rec.outcome = 'rejected'), (rec.error = String(err))),
      );
      return p;
    };
    const [, launched] = await Promise.all([playground.startServers(), puppeteer.launch({ executablePath: findChromium(), args: CHROMIUM_ARGS, protocolTimeout: WAIT_MS })]);
    browser = launched;
    assert.equal(runtime.state.kind, 'ready', 'server-everything is ready');
    pageA = await openPage('page A');
  });

  after(async () => {
    await browser?.close();
    await playground?.close();
  });

  it('/echo, /sum, /image: completed calls from "Everything" with their results', async () => {
    let i = await send('/echo hello');
    const echo = await waitForCall('/echo completes', i, (tc) => tc.status === 'completed');
    assert.match(echo.resultText, /\bhello\b/, `echo result, got ${JSON.stringify(echo)}`);
    assert.deepEqual(echo.contentTypes, ['text']);
    assert.match(echo.server, /Everything/);
    assert.ok(echo.states.includes('completed') && !echo.states.includes('failed'), `states ${echo.states}`);

    i = await send('/sum 2 3');
    const sum = await waitForCall('/sum completes', i, (tc) => tc.status === 'completed');
    assert.match(sum.resultText, /\b5\b/, `sum result, got ${JSON.stringify(sum)}`);
    assert.match(sum.server, /Everything/);

    i = await send('/image');
    const image = await waitForCall('/image completes', i, (tc) => tc.status === 'completed');
    assert.ok(image.images.some((src) => src.startsWith('data:image/png;base64,') && src.length > 100), `an <img> with a PNG data URL, got ${JSON.stringify(image.images)}`);
    assert.ok(image.contentTypes.includes('embeddedResource'));
    assert.match(image.server, /Everything/);
    await waitForTurnEnd('/image turn ends');
  });

  it('/long 3: the running call shows changing progress, then completes', async () => {
    const i = await send('/long 3');
    const progress = new Set<string>();
    const done = await waitFor(
      '/long 3 completes after progress',
      () => chatView(pageA),
      (v) => {
        const tc = v.toolCalls[i];
        if (tc?.status === 'running' && tc.resultText) progress.add(tc.resultText);
        return tc?.status === 'completed';
      },
      () => [...progress],
    );
    const tc = done.toolCalls[i]!;
    assert.ok(progress.size >= 2, `at least two different progress texts while running, saw ${JSON.stringify([...progress])}`);
    for (const p of progress) assert.match(p, /Step \d+ of 6/);
    assert.match(tc.server, /Everything/);
    assert.ok(tc.label === 'Completed', `badge ${tc.label}`);
    assert.equal((await waitForTurnEnd('/long 3 turn ends')).state, 'complete');
  });

  it('/env asks for confirmation; approve runs it, deny cancels it and ends the turn', async () => {
    let i = await send('/env');
    const pending = await waitForCall('/env pending confirmation', i, (tc) => tc.status === 'pending-confirmation' && tc.buttons.length > 0);
    assert.ok(pending.states.includes('pending-confirmation'));
    assert.deepEqual(
      pending.buttons.map((b) => b.optionId).sort(),
      ['allow-once', 'allow-session', 'deny'],
      `confirmation options, got ${JSON.stringify(pending.buttons)}`,
    );
    assert.match(pending.server, /Everything/);
    await clickToolCall(i, 'approve', 'allow-once');
    const approved = await waitForCall('/env approved completes', i, (tc) => tc.status === 'completed');
    assert.ok(!approved.states.includes('failed'), `approved call succeeded: ${JSON.stringify(approved)}`);
    assert.ok(approved.resultText.length > 0, 'the env result is shown');
    await waitForTurnEnd('approved /env turn ends');

    i = await send('/env');
    await waitForCall('second /env pending again (allow-once is not remembered)', i, (tc) => tc.status === 'pending-confirmation' && tc.buttons.length > 0);
    const callsBefore = calls.length;
    await clickToolCall(i, 'deny', 'deny');
    const denied = await waitForCall('/env denied', i, (tc) => tc.status === 'cancelled');
    assert.equal(denied.label, 'Denied');
    const turn = await waitForTurnEnd('denied /env turn ends');
    assert.equal(turn.state, 'complete');
    const onHost = hostToolCalls(playground.host.getChatState(playground.chatUri)).find((tc) => tc.toolCallId === denied.id);
    assert.equal(onHost?.status, 'cancelled');
    assert.equal(onHost?.status === 'cancelled' && onHost.reason, 'denied');
    assert.equal(calls.length, callsBefore, 'a denied call never reaches the MCP server');
  });

  it('/links: the result needs confirmation; rejecting it cancels the call (result-denied)', async () => {
    const i = await send('/links');
    const review = await waitForCall('/links pending result confirmation', i, (tc) => tc.status === 'pending-result-confirmation');
    assert.deepEqual(review.buttons.map((b) => b.action).sort(), ['accept', 'reject']);
    assert.ok(review.contentTypes.includes('resource'), `the result to review is shown, got ${JSON.stringify(review.contentTypes)}`);
    await clickToolCall(i, 'reject');
    const rejected = await waitForCall('/links result rejected', i, (tc) => tc.status === 'cancelled');
    assert.equal(rejected.label, 'Result rejected');
    await waitForTurnEnd('/links turn ends');
    const onHost = hostToolCalls(playground.host.getChatState(playground.chatUri)).find((tc) => tc.toolCallId === rejected.id);
    assert.equal(onHost?.status === 'cancelled' && onHost.reason, 'result-denied');
  });

  it('Stop during /long 10 cancels the turn and aborts the MCP request', async () => {
    const i = await send('/long 10');
    await waitForCall('/long 10 running with progress', i, (tc) => tc.status === 'running' && /Step \d+ of 20/.test(tc.resultText));
    const rec = calls.at(-1)!;
    assert.equal(rec.name, 'trigger-long-running-operation');
    assert.equal(rec.outcome, 'pending');
    await clickLanded(await button(pageA, () => document.querySelector('ahp-chat')?.shadowRoot?.querySelector('[data-action="stop"]')));
    const turn = await waitForTurnEnd('/long 10 turn ends after Stop');
    assert.equal(turn.state, 'cancelled');
    const tc = await waitForCall('the stopped call is not running', i, (tc) => tc.status !== 'running');
    assert.equal(tc.status, 'cancelled', `the stopped call did not complete: ${JSON.stringify(tc)}`);
    assert.equal(rec.signal?.aborted, true, 'the MCP request\'s signal was aborted');
    await waitFor('the MCP request rejects', async () => rec.outcome, (o) => o !== 'pending', () => rec, 5000);
    assert.equal(rec.outcome, 'rejected', `the SDK call was cancelled, not answered: ${JSON.stringify(rec)}`);
    // Nothing more arrives for it: no progress, no completion.
    const snapshot = JSON.stringify(hostToolCalls(playground.host.getChatState(playground.chatUri)).find((t) => t.toolCallId === tc.id));
    await new Promise((r) => setTimeout(r, 1200));
    const later = hostToolCalls(playground.host.getChatState(playground.chatUri)).find((t) => t.toolCallId === tc.id);
    assert.equal(JSON.stringify(later), snapshot, 'the host state of the stopped call does not change afterwards');
    assert.notEqual(later?.status, 'completed');
  });

  it('a second page on the same session sees the same tool calls', async () => {
    pageB = await openPage('page B');
    const i = await send('/sum 1 1');
    const a = await waitForCall('/sum 1 1 completes on page A', i, (tc) => tc.status === 'completed');
    assert.match(a.resultText, /\b2\b/);
    const b = await waitForCall('/sum 1 1 shows on page B', i, (tc) => tc.id === a.id && tc.status === 'completed', pageB);
    assert.equal(b.resultText, a.resultText);
    assert.equal(b.server, a.server);
    await waitForTurnEnd('turn ends on page A');
    await waitForTurnEnd('turn ends on page B', pageB);
    const [va, vb] = await Promise.all([chatView(pageA), chatView(pageB)]);
    const summary = (v: ChatView) => v.toolCalls.map((tc) => ({ id: tc.id, status: tc.status, label: tc.label }));
    assert.deepEqual(summary(vb), summary(va), 'both pages show the same tool calls with the same statuses');
    assert.deepEqual(vb.turns, va.turns);
    assert.ok(va.toolCalls.length >= 9, `the earlier calls are there too (${va.toolCalls.length})`);
  });

  it('<ahp-input-needed> on a page without the chat approves a confirmation raised in another chat', async () => {
    pageC = await browser.newPage();
    watchProblems(pageC, 'page C');
    // A document of the playground's origin (its JSON info) turned into a page that shows only the session and its
    // input-needed roll-up, loading the playground's elements bundle.
    await pageC.goto(new URL('/playground.json', playground.url).href, { waitUntil: 'load' });
    await pageC.evaluate(
      async (wsUrl, sessionUri) => {
        document.title = 'Input needed';
        const session = document.createElement('ahp-session');
        session.setAttribute('url', wsUrl);
        session.setAttribute('session', sessionUri);
        session.append(document.createElement('ahp-input-needed'));
        document.body.replaceChildren(session);
        const script = document.createElement('script');
        script.type = 'module';
        script.src = '/ahp-elements.js';
        const loaded = new Promise((resolve, reject) => {
          script.onload = resolve;
          script.onerror = () => reject(new Error('/ahp-elements.js did not load'));
        });
        document.head.append(script);
        await loaded;
      },
      playground.wsUrl,
      playground.sessionUri,
    );
    const inputNeededState = () =>
      pageC!.evaluate(() => ({
        defined: !!customElements.get('ahp-input-needed'),
        open: !!document.querySelector('ahp-session')?.matches(':state(open)'),
        states: ['loading', 'empty', 'waiting'].filter((s) => document.querySelector('ahp-input-needed')?.matches(`:state(${s})`)),
        text: document.querySelector('ahp-input-needed')?.shadowRoot?.textContent?.replace(/\s+/g, ' ').trim() ?? null,
      }));
    await waitFor('the input-needed page connects and shows nothing to do', inputNeededState, (v) => v.open && v.states.includes('empty'), () => problems);
    await pageC.evaluate(() => {
      const w = window as unknown as { failures: unknown[] };
      w.failures = [];
      const store = (document.querySelector('ahp-session') as unknown as { currentStore?: { onActionFailed(l: (f: unknown) => void): unknown } }).currentStore;
      if (!store) throw new Error('<ahp-session> has no store');
      store.onActionFailed((f) => w.failures.push(f));
    });

    playground.host.createChat(playground.sessionUri, SIDE_CHAT, { title: 'Side', initialMessage: { text: '/env', origin: { kind: 'user' } } });
    const rowView = () =>
      pageC!.evaluate(
        (chat, states, readSrc) => {
          const read = new Function(`return (${readSrc})`)() as typeof readToolCallsIn;
          const rows = [...(document.querySelector('ahp-input-needed')?.shadowRoot?.querySelectorAll<HTMLElement>('[part~="item"]') ?? [])];
          return rows.map((r) => ({ kind: r.dataset.kind ?? '', chat: r.dataset.chat ?? '', busy: r.getAttribute('aria-busy'), toolCalls: read(r, states), match: r.dataset.chat === chat }));
        },
        SIDE_CHAT,
        TOOL_STATES,
        readToolCallsIn.toString(),
      );
    const rows = await waitFor('an input-needed row for the side chat', rowView, (rs) => rs.some((r) => r.match && r.toolCalls[0]?.buttons.some((b) => b.optionId === 'allow-once')), () => problems);
    const row = rows.find((r) => r.match)!;
    assert.equal(row.kind, 'toolConfirmation');
    assert.equal(row.toolCalls[0]!.status, 'pending-confirmation');
    assert.match(row.toolCalls[0]!.server, /Everything/);

    const approve = (
      await pageC.evaluateHandle(
        (chat) =>
          document
            .querySelector('ahp-input-needed')
            ?.shadowRoot?.querySelector(`[part~="item"][data-chat="${chat}"] ahp-tool-call`)
            ?.shadowRoot?.querySelector('button[data-option-id="allow-once"]') ?? null,
        SIDE_CHAT,
      )
    ).asElement() as ElementHandle<HTMLElement> | null;
    assert.ok(approve, 'the row has the Allow once button');
    await pageC.bringToFront();
    await clickLanded(approve);

    const sideCall = () => hostToolCalls(playground.host.getChatState(SIDE_CHAT))[0];
    const done = await waitFor('the side chat\'s tool call completes on the host', async () => sideCall(), (tc) => tc?.status === 'completed', () => problems);
    assert.equal(done?.status === 'completed' && done.success, true, `it succeeded: ${JSON.stringify(done)}`);
    await waitFor('the input-needed row disappears', rowView, (rs) => !rs.some((r) => r.match));
    await waitFor('<ahp-input-needed> is empty again', inputNeededState, (v) => v.states.includes('empty'));
    await waitFor('the side chat\'s turn ends', async () => playground.host.getChatState(SIDE_CHAT), (c) => !!c && !c.activeTurn && c.turns.at(-1)?.state === 'complete');
    assert.deepEqual(await pageC.evaluate(() => (window as unknown as { failures: unknown[] }).failures), [], 'no failed actions on the input-needed page');
    assert.equal(hostToolCalls(playground.host.getChatState(SIDE_CHAT)).length, 1);
    const pageHeldChat = await pageC.evaluate(
      (chat) => (document.querySelector('ahp-session') as unknown as { currentStore: { getChatState(c: string): unknown } }).currentStore.getChatState(chat) !== undefined,
      SIDE_CHAT,
    );
    assert.equal(pageHeldChat, false, 'the input-needed page never opened the side chat');
  });

  it('no page logged an error', () => {
    assert.deepEqual(problems, []);
  });
});
