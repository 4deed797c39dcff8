// The host applied a big action whose echo was slower than the pending timeout: reported as applied, not as
// timed out (it once was, for a 50 MB message). Only an action the host handled without an echo times out.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connectSession } from '../../src/connection/connect-session.js';
import { createInMemoryPair } from '../../src/testing.js';
import { HostCore, attachTransport } from '../../src/host.js';
import type { Transport } from '../../src/client/transport.js';
import type { ActionFailure } from '../../src/store/types.js';
import type { SessionState } from '../../src/protocol/index.js';

const SESSION = 'ahp-session:/slow';
const state: SessionState = { provider: 't', title: 'before', status: 1, lifecycle: 'ready', activeClients: [], chats: [], customizations: [] };

/** Holds every client→host message until `release()`, in order (a slow uplink). */
function slowUplink(inner: Transport) {
  let held: unknown[] | undefined;
  const transport: Transport = {
    send(msg) {
      if (held) held.push(msg);
      else inner.send(msg);
    },
    close: () => inner.close(),
  };
  inner.onmessage = (m) => transport.onmessage?.(m);
  inner.onclose = (r) => transport.onclose?.(r);
  return {
    transport,
    hold: () => void (held = []),
    release() {
      const msgs = held ?? [];
      held = undefined;
      for (const m of msgs) inner.send(m as never);
    },
  };
}

test('a slow echo after the pending timeout is applied and not reported as a failure; a missing echo is', async () => {
  const host = new HostCore({ log: () => {} });
  host.createSession(SESSION, state);
  const [clientSide, serverSide] = createInMemoryPair();
  attachTransport(host, serverSide);
  const link = slowUplink(clientSide);
  const conn = connectSession({ session: SESSION, transport: link.transport, pendingTimeoutMs: 5, reconnect: false });
  await conn.ready;
  const failures: ActionFailure[] = [];
  conn.store.onActionFailed((f) => failures.push(f));
  link.hold();
  conn.store.dispatch({ type: 'session/titleChanged', title: 'after' });
  // Wait until the timeout has fired and asked the host to confirm (a ping queued behind the action).
  await new Promise<void>((resolve) => {
    const check = () => (conn.store.getPendingCount() === 1 ? setTimeout(check, 5) : resolve());
    setTimeout(check, 20);
    // Release once the confirming ping is queued behind the action.
    const origSend = link.transport.send.bind(link.transport);
    link.transport.send = (msg) => {
      origSend(msg);
      if ((msg as { method?: string }).method === 'ping') link.release();
    };
  });
  assert.equal(conn.store.getConfirmedState()?.title, 'after');
  assert.equal(failures.length, 0, JSON.stringify(failures));
  // An action on a channel the host does not have gets no echo: after the confirming ping it is reported.
  const unknown = conn.store.dispatch({ type: 'chat/isReadChanged', isRead: true } as never, 'ahp-chat:/nowhere');
  // Pending timers do not keep Node alive (unref); this test waits for one.
  const keepAlive = setInterval(() => {}, 1000);
  await new Promise<void>((resolve) => conn.store.onActionFailed(() => resolve()));
  clearInterval(keepAlive);
  assert.equal(failures.length, 1);
  assert.equal(failures[0]!.clientSeq, unknown);
  assert.equal(failures[0]!.kind, 'timeout');
  assert.match(failures[0]!.reason, /handled it but sent no echo/);
  conn.close();
});
