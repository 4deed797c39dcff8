import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import '../../elements/define-all.js';
import type { AhpMcpServer, AhpMcpServerList, AhpSession } from '../../elements/index.js';
import { SessionStore } from '../../src/store/session-store.js';
import { WorkerSessionStore } from '../../src/worker/worker-session-store.js';
import { DEDICATED_ENTRY, SHARED_ENTRY, freshSession, hostInfo, serverAction, serverKind } from './fixtures/worker-host.js';

const serverIn = (list: AhpMcpServerList, id: string) => list.shadowRoot!.querySelector<AhpMcpServer>(`ahp-mcp-server[server-id="${id}"]`);
const kindOf = (el: AhpMcpServer | null) => el?.shadowRoot!.querySelector<HTMLElement>('[part="status"]')?.dataset.kind;

describe('<ahp-session worker> over the real test host', () => {
  it('worker="shared" renders <ahp-mcp-server> from the worker store and acts through it', async () => {
    const info = await freshSession();
    const el = await fixture<AhpSession>(html`<ahp-session worker="shared" worker-url=${SHARED_ENTRY} url=${info.url} session=${info.session}>
      <ahp-mcp-server-list></ahp-mcp-server-list>
    </ahp-session>`);
    const list = el.querySelector('ahp-mcp-server-list')!;
    await waitUntil(() => el.matches(':state(open)') && kindOf(serverIn(list, 'gamma')) === 'ready', 'the worker store did not render');
    expect(el.currentStore).to.be.instanceOf(WorkerSessionStore);
    expect(kindOf(serverIn(list, 'alpha'))).to.equal('ready');
    expect(kindOf(serverIn(list, 'beta'))).to.equal('stopped');

    serverIn(list, 'beta')!.shadowRoot!.querySelector<HTMLButtonElement>('[data-action="start"]')!.click();
    await serverIn(list, 'beta')!.updateComplete;
    expect(kindOf(serverIn(list, 'beta')), 'optimistic before the worker round trip').to.equal('starting');
    await waitUntil(async () => serverKind((await hostInfo(info.session)).state, 'beta') === 'starting', 'the click did not reach the host');

    await serverAction(info.session, { type: 'session/mcpServerStateChanged', id: 'beta', state: { kind: 'error', error: { errorType: 'exit', message: 'killed' } } });
    await waitUntil(() => kindOf(serverIn(list, 'beta')) === 'error', 'a host change did not render');
    expect((await hostInfo(info.session)).sockets).to.equal(1);
  });

  it('two <ahp-session worker="shared"> elements share one WebSocket; removing both closes it', async () => {
    const info = await freshSession();
    const wrap = await fixture<HTMLDivElement>(html`<div>
      <ahp-session worker="shared" worker-url=${SHARED_ENTRY} url=${info.url} session=${info.session}><ahp-mcp-server server-id="alpha"></ahp-mcp-server></ahp-session>
      <ahp-session worker="shared" worker-url=${SHARED_ENTRY} url=${info.url} session=${info.session}><ahp-mcp-server server-id="alpha"></ahp-mcp-server></ahp-session>
    </div>`);
    const [a, b] = [...wrap.querySelectorAll('ahp-session')];
    await waitUntil(() => a!.matches(':state(open)') && b!.matches(':state(open)'));
    await waitUntil(() => [...wrap.querySelectorAll('ahp-mcp-server')].every((s) => kindOf(s) === 'ready'));
    expect((await hostInfo(info.session)).sockets).to.equal(1);
    wrap.remove();
    await waitUntil(async () => (await hostInfo(info.session)).openSockets === 0, 'the shared WebSocket stayed open');
  });

  it('worker="dedicated" uses a Worker of its own; without the attribute it stays in the page', async () => {
    const info = await freshSession();
    const el = await fixture<AhpSession>(html`<ahp-session worker="dedicated" worker-url=${DEDICATED_ENTRY} url=${info.url} session=${info.session}></ahp-session>`);
    await waitUntil(() => el.matches(':state(open)'));
    expect(el.currentStore).to.be.instanceOf(WorkerSessionStore);
    expect(serverKind(el.currentStore!.getState(), 'alpha')).to.equal('ready');

    el.removeAttribute('worker');
    await el.updateComplete;
    expect(el.currentStore).to.be.instanceOf(SessionStore);
    await waitUntil(() => el.matches(':state(open)'));
    await waitUntil(async () => (await hostInfo(info.session)).openSockets === 1, 'the worker connection was not closed on switching');
    expect((await hostInfo(info.session)).sockets).to.equal(2);
  });
});
