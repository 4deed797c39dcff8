// End to end: a real MCP server (Streamable HTTP, loopback) answers `resources/read` with Views over the App's size
// limit, as text and as a base64 blob, through the playground into Chromium. Each App shows the size error (no
// frame, nothing crashes), a second App of the same View is refused without reading it again, and the page still
// runs a small View of the same server afterwards.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'puppeteer-core';
import type { Playground } from '../../examples/playground/playground.js';
import { parseConfig } from '../../examples/playground/config.js';
import { appendMcpApp, mcpAppView, sayInPage, startPlaygroundPage, toolCallIn, untilWithin, type PlaygroundPage } from '../fixtures/playground-page.js';
import { OVERSIZED_URIS, startOversizedServer } from '../fixtures/apps/oversized-server.js';

const until = untilWithin(60_000, 100);
const SERVER = 'oversized';

describe('MCP Apps: a server whose View is over the size limit', () => {
  let env: PlaygroundPage;
  let playground: Playground;
  let page: Page;
  let server: Awaited<ReturnType<typeof startOversizedServer>>;

  const chat = () => playground.host.getChatState(playground.chatUri);
  const reads = (uri: string) =>
    (env.traffic.sent.get(SERVER) ?? []).filter((m) => 'method' in m && m.method === 'resources/read' && (m.params as { uri?: string })?.uri === uri).length;

  /** Calls `tool` and mounts an App for its tool call; resolves with what the element shows once it settled. */
  async function appFor(tool: string, id: string) {
    const turnId = await sayInPage(page, playground, `/call ${SERVER} ${tool} {}`, until);
    const tc = await until(`${tool} completed`, () => {
      const t = toolCallIn(chat(), turnId);
      return t?.status === 'completed' ? t : undefined;
    });
    await appendMcpApp(page, playground, { id, toolCallId: tc.toolCallId, serverId: SERVER });
    return until(`${id} settled`, async () => {
      const v = await mcpAppView(page, id);
      return v && (v.states.includes('error') || v.states.includes('ready')) ? v : undefined;
    }, () => mcpAppView(page, id));
  }

  before(async () => {
    server = await startOversizedServer();
    env = await startPlaygroundPage(parseConfig({ servers: [{ id: SERVER, name: 'Oversized', transport: 'http', url: server.url }] }));
    ({ playground, page } = env);
  });
  after(async () => {
    await env?.close();
    await server?.close();
  });

  it('a text View over the limit: the App shows the size error and no frame; a second App is refused without a second read', async () => {
    const first = await appFor('text-app', 'text-1');
    assert.deepEqual(first.states.filter((s) => s !== 'inline'), ['error'], JSON.stringify(first));
    assert.equal(first.status, `App not shown: ${OVERSIZED_URIS.text} is over the 16 MB limit.`);
    assert.equal(first.hasFrame, false);
    // The host's pre-read when the server became ready (over its per-resource cap: passed on, not kept) and the App's.
    assert.equal(reads(OVERSIZED_URIS.text), 2);
    const second = await appFor('text-app', 'text-2');
    assert.equal(second.status, first.status);
    assert.equal(reads(OVERSIZED_URIS.text), 2, 'the refusal holds for this server start: not downloaded again');
  });

  it('a base64 blob View over the limit: refused the same way (by its decoded size)', async () => {
    const v = await appFor('blob-app', 'blob-1');
    assert.ok(v.states.includes('error'), JSON.stringify(v));
    assert.equal(v.status, `App not shown: ${OVERSIZED_URIS.blob} is over the 16 MB limit.`);
    assert.equal(v.hasFrame, false);
  });

  it('the page is unharmed: the session is still open, the small View of the same server starts, no page errors', async () => {
    const v = await appFor('small-app', 'small-1');
    assert.ok(v.states.includes('ready'), JSON.stringify(v));
    assert.equal(v.hasFrame, true);
    const open = await page.evaluate(() => (document.querySelector('ahp-session') as unknown as { connectionState?: { kind: string } }).connectionState?.kind);
    assert.equal(open, 'open');
    assert.deepEqual(env.pageErrors, []);
  });
});
