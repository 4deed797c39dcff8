// Page side of render-servers.ts: a real SessionStore and <ahp-mcp-server-list>, timed from the snapshot to the paint.
import '../../elements/mcp-server-list/define.js';
import { AhpMcpServer } from '../../elements/mcp-server/mcp-server.js';
import type { Customization, McpServerCustomization } from '../../src/protocol/customizations.js';
import type { SessionState } from '../../src/protocol/session.js';
import { SessionStore } from '../../src/store/index.js';

const SESSION = 'ahp-session:/render-bench';
const NESTED_SHARE = 10;

const server = (id: string): McpServerCustomization => ({ type: 'mcpServer', id, uri: `mcp-config:/${id}`, name: `Server ${id}`, state: { kind: 'ready' } });

/** `count` servers, one in ten inside a plugin. */
function sessionWith(count: number): SessionState {
  const nested = Math.floor(count / NESTED_SHARE);
  const top: Customization[] = Array.from({ length: count - nested }, (_, i) => server(`s${i}`));
  const children = Array.from({ length: nested }, (_, i) => server(`c${i}`));
  return {
    provider: 'bench', title: 'Render bench', status: 1, lifecycle: 'ready', activeClients: [], chats: [],
    customizations: [...top, { type: 'plugin', id: 'plugin', uri: 'plugin:/p', name: 'Plugin', children } as Customization],
  };
}

// Counts renders of <ahp-mcp-server> (Lit `update` calls).
let updates = 0;
const proto = AhpMcpServer.prototype as unknown as { update(changed: unknown): void };
const update = proto.update;
proto.update = function (this: AhpMcpServer, changed: unknown) {
  updates++;
  update.call(this, changed);
};

const frame = () => new Promise<void>((r) => requestAnimationFrame(() => setTimeout(r, 0)));

/** Waits until the list and every server element in it have rendered, then for the frame that paints them. */
async function rendered(list: HTMLElement & { updateComplete: Promise<unknown> }): Promise<void> {
  await list.updateComplete;
  await Promise.all([...list.shadowRoot!.querySelectorAll<AhpMcpServer>('ahp-mcp-server')].map((s) => s.updateComplete));
  await frame();
}

/** One snapshot → paint round and the element updates of one change (read by render-servers.ts). */
export interface Round {
  paintMs: number;
  /** Snapshot → every name in the page (no block waiting for its names), to the frame. */
  namesMs: number;
  /** Scrolling to the server in the middle → its block painted as elements. */
  scrollMs: number;
  elements: number;
  changeTop: { updates: number; ms: number };
  changeNested: { updates: number; ms: number };
}

(globalThis as { benchRender?: unknown }).benchRender = async (count: number): Promise<Round> => {
  document.body.replaceChildren();
  const store = new SessionStore({ channel: SESSION, clientId: 'bench', send: () => {}, nextClientSeq: () => 1 });
  const list = document.createElement('ahp-mcp-server-list') as HTMLElement & { store: unknown; updateComplete: Promise<unknown> };
  list.store = store;
  document.body.append(list);
  await rendered(list);
  const state = sessionWith(count);
  await frame();
  performance.mark('render-bench:snapshot');
  const start = performance.now();
  store.loadSnapshot({ resource: SESSION, state, fromSeq: 1 });
  await rendered(list);
  const paintMs = performance.now() - start;
  performance.mark('render-bench:painted');
  while (list.shadowRoot!.querySelector('[data-pending]')) await frame();
  const namesMs = performance.now() - start;
  // Visible servers rendered from the intersection observer's first report.
  await frame();
  await rendered(list);
  const elements = list.shadowRoot!.querySelectorAll('ahp-mcp-server').length;

  // A jump far down (the server in the middle): its block turns into elements, painted.
  const middle = `s${Math.floor(count / 2)}`;
  const scrollStart = performance.now();
  list.shadowRoot!.querySelector<HTMLElement>(`[data-server-id="${middle}"]`)!.scrollIntoView();
  while (![...list.shadowRoot!.querySelectorAll<AhpMcpServer>('ahp-mcp-server')].some((s) => s.serverId === middle)) await frame();
  await rendered(list);
  const scrollMs = performance.now() - scrollStart;

  let seq = 1;
  const change = async (id: string) => {
    updates = 0;
    const t = performance.now();
    store.receive({ channel: SESSION, serverSeq: ++seq, action: { type: 'session/mcpServerStateChanged', id, state: { kind: seq % 2 ? 'stopped' : 'starting' } } });
    await list.updateComplete;
    const el = [...list.shadowRoot!.querySelectorAll<AhpMcpServer>('ahp-mcp-server')].find((s) => s.serverId === id);
    await el?.updateComplete;
    const ms = performance.now() - t;
    await frame();
    return { updates, ms };
  };
  const changeTop = await change('s3');
  // The plugin's servers are at the end: bring the first into view so it is rendered (any list, windowed or not).
  const item = [...list.shadowRoot!.querySelectorAll<HTMLElement>('[data-server-id="c0"], ahp-mcp-server[server-id="c0"]')][0];
  item?.scrollIntoView();
  while (![...list.shadowRoot!.querySelectorAll<AhpMcpServer>('ahp-mcp-server')].some((s) => s.serverId === 'c0')) await frame();
  await rendered(list);
  const changeNested = await change('c0');
  document.body.replaceChildren();
  return { paintMs, namesMs, scrollMs, elements, changeTop, changeNested };
};
