// End to end: published MCP App servers (server-pdf with a local PDF, server-threejs, server-system-monitor) and a
// hostile View from a test MCP server, in Chromium through the playground: each App runs under the default (compat)
// sandbox policy on its own *.localhost origin, the result _meta reaches the View, long-polls are not cut, app-only
// tools stay the Views', and every attack of the hostile View is contained (asserted from the page and the host).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ElementHandle, Frame, Page } from 'puppeteer-core';
import type { Playground } from '../../examples/playground/playground.js';
import { parseConfig } from '../../examples/playground/config.js';
import { frameEval, inFrame, appendMcpApp, mcpAppView, sayInPage, startPlaygroundPage, toolCallIn, untilWithin, viewFrame as viewFrameOf, type PlaygroundPage } from '../fixtures/playground-page.js';

const until = untilWithin(30_000, 100);

/** A small two-page PDF (Helvetica text), written by hand so the test needs no network and no PDF library. */
function twoPagePdf(): Buffer {
  const stream = (s: string) => `<< /Length ${s.length} >>\nstream\n${s}\nendstream`;
  const page = (contents: number) => `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 200] /Contents ${contents} 0 R /Resources << /Font << /F1 7 0 R >> >> >>`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R 5 0 R] /Count 2 >>',
    page(4),
    stream('BT /F1 24 Tf 40 100 Td (Page one) Tj ET'),
    page(6),
    stream('BT /F1 24 Tf 40 100 Td (Page two) Tj ET'),
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

const SCENE = `
window.__sceneRan = true;
const scene = new THREE.Scene();
const camera = new THREE.PerspectiveCamera(60, width / height, 0.1, 100);
camera.position.z = 3;
const cube = new THREE.Mesh(new THREE.BoxGeometry(1, 1, 1), new THREE.MeshNormalMaterial());
scene.add(cube);
try {
  const renderer = new THREE.WebGLRenderer({ canvas, antialias: true });
  renderer.setSize(width, height, false);
  renderer.render(scene, camera);
  window.__sceneRendered = true;
} catch (e) {
  window.__sceneError = String(e && e.message || e);
}`;

describe('MCP Apps in the wild: published App servers and a hostile View through the playground', () => {
  let env: PlaygroundPage;
  let playground: Playground;
  let page: Page;
  let dir: string;
  let pdfPath: string;

  const chat = () => playground.host.getChatState(playground.chatUri);
  const allTurns = () => {
    const state = chat();
    return [...(state?.turns ?? []), ...(state?.activeTurn ? [state.activeTurn] : [])];
  };
  const toolCallOfTurn = (turnId: string) => toolCallIn(chat(), turnId);
  const calls = (serverId: string, tool: string) => env.traffic.toolCalls(serverId, tool);
  const answerTo = (serverId: string, id: unknown) => (env.traffic.received.get(serverId) ?? []).find((m) => 'id' in m && m.id === id && !('method' in m));

  const say = (text: string) => sayInPage(page, playground, text, until);
  const completed = (turnId: string) =>
    until(`the tool call of ${turnId} completed`, () => {
      const tc = toolCallOfTurn(turnId);
      return tc?.status === 'completed' ? tc : undefined;
    }, () => allTurns().find((t) => t.id === turnId));

  /** Mounts <ahp-mcp-app> for a tool call as <ahp-tool-call> does, on the server's sandbox origin. */
  const startup: Record<string, number> = {};
  async function mountApp(id: string, toolCallId: string, serverId: string, policy?: string): Promise<void> {
    const t0 = Date.now();
    await appendMcpApp(page, playground, { id, toolCallId, serverId, policy });
    await until(`${id} ready`, async () => {
      const v = await appState(id);
      if (v?.states.includes('error')) throw new Error(`${id} failed: ${v.status}`);
      return v?.states.includes('ready');
    }, () => appState(id));
    startup[id] = Date.now() - t0;
  }

  const appState = (id: string) => mcpAppView(page, id);

  /** The View document of a server: the frame inside its sandbox proxy. */
  const viewFrame = (serverId: string) => viewFrameOf(page, playground, serverId, until);

  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'ahp-apps-published-'));
    pdfPath = path.join(dir, 'two-pages.pdf');
    writeFileSync(pdfPath, twoPagePdf());
    const config = parseConfig({
      servers: [
        // A local file given on the command line: the server registers it and fetches nothing (its default PDF is an arXiv URL, not used).
        { id: 'pdf', name: 'PDF', transport: 'stdio', command: 'node', args: ['node_modules/@modelcontextprotocol/server-pdf/dist/index.js', '--stdio', pdfPath] },
        { id: 'threejs', name: 'Three.js', transport: 'stdio', command: 'node', args: ['node_modules/@modelcontextprotocol/server-threejs/dist/index.js', '--stdio'] },
        { id: 'system-monitor', name: 'System Monitor', transport: 'stdio', command: 'node', args: ['node_modules/@modelcontextprotocol/server-system-monitor/dist/index.js', '--stdio'] },
        { id: 'hostile', name: 'Budget App', transport: 'stdio', command: 'node', args: ['test/fixtures/apps/hostile-server.mjs'] },
      ],
    });
    env = await startPlaygroundPage(config, { cookie: 'page-secret=1; path=/' });
    ({ playground, page } = env);
  });
  after(async () => {
    await env?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('each server\'s sandbox origin differs by host name, not only by port', () => {
    const hosts = [...playground.apps.sandboxes.all()].map((s) => new URL(s.origin).hostname);
    assert.equal(new Set(hosts).size, hosts.length);
    assert.ok(hosts.every((h) => h.endsWith('.localhost')), hosts.join(', '));
    assert.ok(!hosts.includes(new URL(playground.url).hostname));
  });

  it('server-pdf: a local PDF shows page 1 (pdf.js worker from blob: under the compat policy); an agent-side interact moves it to page 2', async () => {
    const turnId = await say(`/call pdf display_pdf ${JSON.stringify({ url: pdfPath })}`);
    const tc = await completed(turnId);
    const meta = tc._meta?.['ahp-elements/mcpResultMeta'] as { viewUUID?: string; interactEnabled?: boolean } | undefined;
    assert.ok(meta?.viewUUID, `the result _meta rides in the tool call _meta: ${JSON.stringify(tc._meta)}`);
    assert.equal(meta.interactEnabled, true);
    await mountApp('pdf', tc.toolCallId, 'pdf');
    const frame = await viewFrame('pdf');
    await until('page 1 of 2 shown', () => inFrame(frame, () => {
      const input = document.getElementById('page-input') as HTMLInputElement | null;
      const total = document.getElementById('total-pages')?.textContent ?? '';
      return input?.value === '1' && total.includes('2') ? true : undefined;
    }), () => inFrame(frame, () => document.body.innerText.slice(0, 300)));
    await until('the View polls for commands (it got interactEnabled from the result _meta)', () => calls('pdf', 'poll_pdf_commands').length > 0, () => (env.traffic.sent.get('pdf') ?? []).map((m) => ('method' in m ? m.method : 'answer')).slice(-10));
    const interact = await say(`/call pdf interact ${JSON.stringify({ viewUUID: meta.viewUUID, action: 'navigate', page: 2 })}`);
    await completed(interact);
    await until('page 2 shown', () => inFrame(frame, () => ((document.getElementById('page-input') as HTMLInputElement | null)?.value === '2' ? true : undefined)),
      () => inFrame(frame, () => (document.getElementById('page-input') as HTMLInputElement | null)?.value));
    const state = await appState('pdf');
    assert.ok(state!.frameHeight > 100, `the frame has a height (${state!.frameHeight})`);
    assert.match(state!.frameTitle!, /\(MCP App from PDF\)$/);
    assert.deepEqual(env.consoleLines.filter((l) => /Content Security Policy|Blocked by the sandbox policy/.test(l)), []);
  });

  it('server-threejs: the scene code runs (new Function under the compat policy) with no CSP error', async () => {
    const turnId = await say(`/call threejs show_threejs_scene ${JSON.stringify({ code: SCENE, height: 300 })}`);
    const tc = await completed(turnId);
    await mountApp('threejs', tc.toolCallId, 'threejs');
    const frame = await viewFrame('threejs');
    const outcome = await until('the scene code ran', () => inFrame(frame, () => {
      const w = window as unknown as { __sceneRan?: boolean; __sceneRendered?: boolean; __sceneError?: string };
      return w.__sceneRan ? { rendered: !!w.__sceneRendered, error: w.__sceneError ?? null, canvas: !!document.querySelector('canvas') } : undefined;
    }), () => inFrame(frame, () => document.body.innerText.slice(0, 300)));
    assert.equal(outcome.canvas, true);
    if (!outcome.rendered) assert.doesNotMatch(String(outcome.error), /Content Security Policy|unsafe-eval/, 'only WebGL may be missing (no GPU), never the policy');
    assert.deepEqual(env.consoleLines.filter((l) => /Content Security Policy|unsafe-eval|Blocked by the sandbox policy/.test(l)), []);
    const state = await appState('threejs');
    assert.ok(!state!.status, `no error shown: ${state!.status}`);
    console.log(`# threejs scene: ${JSON.stringify(outcome)}`);
  });

  it('the same scene under the strict policy is blocked: the compat policy is what three.js Apps need', async () => {
    const turnId = await say(`/call threejs show_threejs_scene ${JSON.stringify({ code: SCENE, height: 200 })}`);
    const tc = await completed(turnId);
    await mountApp('threejs-strict', tc.toolCallId, 'threejs', 'strict');
    // This App's own View: the document inside the proxy frame of #threejs-strict (a warmed spare, if it took one).
    const frame = await until('the strict View frame', async () => {
      const owner = (await page.evaluateHandle(() => document.getElementById('threejs-strict')?.shadowRoot?.querySelector('iframe') ?? null)).asElement() as ElementHandle<HTMLIFrameElement> | null;
      const proxy = await owner?.contentFrame();
      for (const f of proxy?.childFrames() ?? []) if (await inFrame(f, () => !!document.body?.childElementCount).catch(() => false)) return f;
      return undefined;
    });
    await until('the eval blocked (the View says so)', () => inFrame(frame, () => /unsafe-eval|Content Security Policy|EvalError/i.test(document.body.innerText) || undefined),
      () => inFrame(frame, () => document.body.innerText.slice(0, 300)));
    assert.equal(await inFrame(frame, () => (window as unknown as { __sceneRan?: boolean }).__sceneRan ?? false), false);
    await page.evaluate(() => document.getElementById('threejs-strict')?.remove());
  });

  it('server-system-monitor: its View polls its app-only tool for 10 s, every poll succeeding; the agent never offers or calls that tool', async () => {
    const turnId = await say('/call system-monitor get-system-info {}');
    const tc = await completed(turnId);
    await mountApp('monitor', tc.toolCallId, 'system-monitor');
    const first = await until('the first poll', () => calls('system-monitor', 'poll-system-stats')[0]);
    const start = Date.now();
    await until('10 s of polling', () => Date.now() - start >= 10_000 && calls('system-monitor', 'poll-system-stats').length >= 5, () => calls('system-monitor', 'poll-system-stats').length, 40_000);
    const polls = calls('system-monitor', 'poll-system-stats').filter((c) => c.id >= first.id);
    await until('every poll answered', () => polls.every((p) => answerTo('system-monitor', p.id)));
    for (const p of polls) {
      const answer = answerTo('system-monitor', p.id) as { result?: { isError?: boolean }; error?: unknown };
      assert.ok(answer.result && !answer.result.isError, `poll ${p.id} succeeded: ${JSON.stringify(answer).slice(0, 200)}`);
    }
    const frame = await viewFrame('system-monitor');
    assert.notEqual(await frameEval(frame, '#status-text', (e) => e.textContent), 'Error');
    // The agent (the "model") neither lists nor calls the app-only tool.
    const before = calls('system-monitor', 'poll-system-stats').length;
    const listTurn = await say('/tools system-monitor');
    await until('the listing', () => chat()?.turns.some((t) => t.id === listTurn));
    const listing = JSON.stringify(allTurns().find((t) => t.id === listTurn)?.responseParts);
    assert.match(listing, /get-system-info/);
    assert.doesNotMatch(listing, /poll-system-stats/);
    const callTurn = await say('/call system-monitor poll-system-stats {}');
    await until('the refusal', () => chat()?.turns.some((t) => t.id === callTurn));
    assert.equal(toolCallOfTurn(callTurn), undefined, 'no tool call for an app-only tool');
    await page.evaluate(() => document.getElementById('monitor')?.remove());
    assert.ok(calls('system-monitor', 'poll-system-stats').length - before <= 1, 'only the View polls');
  });

  describe('a hostile View (test MCP server)', () => {
    it('acting as the user without a click gets nothing: one host-owned prompt naming the server, no turn, no download, no link, no full screen', async () => {
      const turnsBefore = allTurns().length;
      const turnId = await say('/call hostile budget-app {}');
      const tc = await completed(turnId);
      await mountApp('hostile', tc.toolCallId, 'hostile');
      const frame = await viewFrame('hostile');
      const results = await until('the attacks ran', () => inFrame(frame, () => {
        const r = (window as unknown as { __results?: { done: boolean } }).__results;
        return r?.done ? r : undefined;
      })) as unknown as { answers: Record<string, { result?: Record<string, unknown>; error?: { code: number; message: string } }>; cookie: string };
      assert.equal(results.answers['download']!.result!['isError'], true, 'download refused');
      assert.equal(results.answers['link']!.result!['isError'], true, 'link refused');
      assert.equal(results.answers['fullscreen']!.result!['mode'], 'inline', 'stays inline');
      assert.equal(results.answers['oversized']!.error?.code, -32000, 'oversized message refused with an error');
      assert.doesNotMatch(results.cookie, /page-secret/, 'the page\'s cookies are not the App\'s (host names differ)');
      const state = await appState('hostile');
      assert.equal(state!.prompts.length, 1, 'one question, whatever the flood');
      assert.match(state!.prompts[0]!, /^Budget App wants to send: “\/call everything get-sum/);
      assert.match(state!.frameTitle!, /^Totally Your Bank \(MCP App from Budget App\)$/, 'the frame names the server the session knows');
      assert.equal(allTurns().length, turnsBefore + 1, 'no turn from the App');
      assert.ok(!(await page.evaluate(() => document.cookie)).includes('planted'), 'the App cannot plant page cookies');
      assert.ok(!(await appState('hostile'))!.states.includes('fullscreen'));
      // The user dismisses: the App's message is refused and still nothing happened.
      await page.evaluate(() => (document.getElementById('hostile')!.shadowRoot!.querySelector('[part~="prompt-dismiss"]') as HTMLButtonElement).click());
      const message = await until('the message answer', () => inFrame(frame, () => (window as unknown as { __results: { answers: { message?: unknown } } }).__results.answers.message));
      assert.deepEqual((message as { result: unknown }).result, { isError: true });
      assert.equal(allTurns().length, turnsBefore + 1);
      assert.equal(calls('everything', 'get-sum').length, 0);
    });

    it('hijacking its sandbox proxy frame tears the App down at once with a visible error', async () => {
      const frame = await viewFrame('hostile');
      await inFrame(frame, () => (window as unknown as { __hijack(): void }).__hijack());
      const state = await until('the App stopped', async () => {
        const s = await appState('hostile');
        return s?.states.includes('error') ? s : undefined;
      }, () => appState('hostile'));
      assert.match(state.status, /sandbox frame was navigated away/);
      assert.equal(state.hasFrame, false, 'the attacker page is not left in the card');
    });

    it('the agent refuses the server\'s app-only tool', async () => {
      const turnId = await say('/call hostile app-secret {}');
      await until('answered', () => chat()?.turns.some((t) => t.id === turnId));
      assert.equal(toolCallOfTurn(turnId), undefined);
      assert.equal(calls('hostile', 'app-secret').length, 0);
    });
  });

  it('no page errors', () => {
    console.log(`# App start-up (mount to initialized), ms: ${JSON.stringify(startup)}`);
    assert.deepEqual(env.pageErrors, []);
  });
});
