import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AhpClient, UnsupportedProtocolVersionError, RpcError, createInMemoryPair } from '../../src/client/index.js';
import { HostCore, attachTransport } from '../../src/host.js';
import type { ActionEnvelope, McpServerCustomization, PluginCustomization, SessionState } from '../../src/protocol/index.js';
import { mcpServer, sessionState } from './fixtures/host.js';

const SESSION = 'ahp-session:/11111111-2222-3333-4444-555555555555';
const tick = () => new Promise((r) => setTimeout(r, 0));

function fixtureState(): SessionState {
  const everything = mcpServer('everything', { name: 'Everything', channel: 'mcp://everything', mcpApp: { capabilities: { serverTools: {} } } });
  const child = mcpServer('basic', { name: 'Basic', state: { kind: 'stopped' }, channel: 'mcp://basic', mcpApp: { capabilities: { serverResources: {} } } });
  const plugin: PluginCustomization = { type: 'plugin', id: 'plug', uri: 'plugin:/p', name: 'Plugin', children: [child] };
  return sessionState({ provider: 'test', title: 'Test session', customizations: [everything, plugin] });
}

function setup(options: { host?: HostCore; clientId?: string } = {}) {
  const host = options.host ?? new HostCore({ log: () => {} });
  if (!host.getSessionState(SESSION)) host.createSession(SESSION, fixtureState());
  const [clientSide, serverSide] = createInMemoryPair();
  attachTransport(host, serverSide);
  const client = new AhpClient({ transport: clientSide, clientId: options.clientId ?? 'client-a', requestTimeoutMs: 2000, log: () => {} });
  const envelopes: ActionEnvelope[] = [];
  client.onAction((env) => envelopes.push(env));
  const closes: (string | undefined)[] = [];
  client.onClose((r) => closes.push(r));
  return { host, client, envelopes, closes };
}

async function until(cond: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 200 && !cond(); i++) await tick();
  assert.ok(cond(), `timed out waiting for ${what}`);
}

test('initialize picks the highest compatible offered version and reports serverSeq and serverInfo', async () => {
  const { client } = setup({ host: new HostCore({ serverInfo: { name: 'test host', version: '9' }, log: () => {} }) });
  const result = await client.initialize();
  assert.equal(result.protocolVersion, '1.1.0');
  assert.equal(result.serverSeq, 0);
  assert.deepEqual(result.serverInfo, { name: 'test host', version: '9' });
  assert.deepEqual(result.snapshots, []);
  client.close();
});

test('initialize echoes the exact offered string of an older compatible version', async () => {
  const { client } = setup();
  const result = await client.initialize({ protocolVersions: ['0.9.3', '0.8.0'] });
  assert.equal(result.protocolVersion, '0.9.3');
  client.close();
});

test('initialize with no compatible version fails with a message naming the supported versions, then the host closes', async () => {
  const { client, closes } = setup();
  await assert.rejects(client.initialize({ protocolVersions: ['0.5.0'] }), (err: unknown) => {
    assert.ok(err instanceof UnsupportedProtocolVersionError);
    assert.equal(err.code, -32005);
    assert.deepEqual(err.supportedVersions, ['^1.0.0', '^0.9.0']);
    assert.match(err.message, /offers 0\.5\.0/);
    assert.match(err.message, /\^1\.0\.0, \^0\.9\.0/);
    return true;
  });
  await until(() => closes.length === 1, 'close');
  assert.equal(client.closed, true);
});

test('a malformed version is an InvalidParams error and the connection stays usable', async () => {
  const { client } = setup();
  await assert.rejects(client.initialize({ protocolVersions: ['1.0'] }), (err: unknown) => err instanceof RpcError && err.code === -32602);
  assert.equal((await client.initialize()).protocolVersion, '1.1.0');
  client.close();
});

test('ping works before initialize; other requests before initialize are errors', async () => {
  const { client } = setup();
  await client.ping();
  await assert.rejects(client.subscribe(SESSION), (err: unknown) => err instanceof RpcError && err.code === -32600);
  await client.initialize();
  await client.ping();
  client.close();
});

test('subscribe returns the snapshot at the current serverSeq; unknown sessions are -32001', async () => {
  const { host, client } = setup();
  host.dispatchServerAction(SESSION, { type: 'session/titleChanged', title: 'Renamed' });
  await client.initialize();
  const { snapshot } = await client.subscribe(SESSION);
  assert.ok(snapshot);
  assert.equal(snapshot.resource, SESSION);
  assert.equal(snapshot.fromSeq, 1);
  assert.equal((snapshot.state as SessionState).title, 'Renamed');
  await assert.rejects(client.subscribe('ahp-session:/nope'), (err: unknown) => err instanceof RpcError && err.code === -32001);
  client.close();
});

test('initialSubscriptions come back as snapshots and subscribe the connection', async () => {
  const { host, client, envelopes } = setup();
  const result = await client.initialize({ initialSubscriptions: [SESSION, 'ahp-session:/unknown'] });
  assert.equal(result.snapshots.length, 1);
  assert.equal(result.snapshots[0]!.resource, SESSION);
  host.dispatchServerAction(SESSION, { type: 'session/titleChanged', title: 'x' });
  await until(() => envelopes.length === 1, 'envelope');
  client.close();
});

test('an accepted client action is applied and echoed to every subscriber with origin', async () => {
  const host = new HostCore({ log: () => {} });
  const a = setup({ host, clientId: 'client-a' });
  const b = setup({ host, clientId: 'client-b' });
  for (const { client } of [a, b]) {
    await client.initialize();
    await client.subscribe(SESSION);
  }
  const clientSeq = a.client.nextClientSeq();
  assert.equal(clientSeq, 1);
  a.client.dispatch({ channel: SESSION, clientSeq, action: { type: 'session/mcpServerStopRequested', id: 'everything' } });
  await until(() => a.envelopes.length === 1 && b.envelopes.length === 1, 'echo');
  for (const { envelopes } of [a, b]) {
    const env = envelopes[0]!;
    assert.equal(env.serverSeq, 1);
    assert.deepEqual(env.origin, { clientId: 'client-a', clientSeq: 1 });
    assert.equal(env.rejectionReason, undefined);
    assert.equal(env.action.type, 'session/mcpServerStopRequested');
  }
  const server = host.getSessionState(SESSION)!.customizations![0] as McpServerCustomization;
  assert.equal(server.state.kind, 'stopped');
  a.client.close();
  b.client.close();
});

test('afterClientAction sees the applied state, and server actions it dispatches follow the echo', async () => {
  const { host, client, envelopes } = setup();
  const seen: string[] = [];
  host.afterClientAction(({ action, clientId, state, channel }) => {
    const server = (state.customizations![1] as PluginCustomization).children![0] as McpServerCustomization;
    seen.push(`${clientId}:${channel}:${action.type}:${server.state.kind}`);
    host.dispatchServerAction(channel, { type: 'session/mcpServerStateChanged', id: 'basic', state: { kind: 'ready' } });
  });
  await client.initialize();
  await client.subscribe(SESSION);
  client.dispatch({ channel: SESSION, clientSeq: client.nextClientSeq(), action: { type: 'session/mcpServerStartRequested', id: 'basic' } });
  await until(() => envelopes.length === 2, 'echo and follow-up');
  assert.deepEqual(seen, [`client-a:${SESSION}:session/mcpServerStartRequested:starting`]);
  assert.deepEqual(envelopes.map((e) => [e.serverSeq, e.action.type, e.origin?.clientId]), [
    [1, 'session/mcpServerStartRequested', 'client-a'],
    [2, 'session/mcpServerStateChanged', undefined],
  ]);
  client.close();
});

test('a non-dispatchable action is broadcast back with rejectionReason and not applied', async () => {
  const { host, client, envelopes } = setup();
  await client.initialize();
  await client.subscribe(SESSION);
  const before = host.getSessionState(SESSION);
  client.dispatch({ channel: SESSION, clientSeq: client.nextClientSeq(), action: { type: 'session/mcpServerStateChanged', id: 'everything', state: { kind: 'stopped' } } });
  await until(() => envelopes.length === 1, 'rejection');
  assert.match(envelopes[0]!.rejectionReason ?? '', /not a client-dispatchable action/);
  assert.deepEqual(envelopes[0]!.origin, { clientId: 'client-a', clientSeq: 1 });
  assert.equal(host.getSessionState(SESSION), before);
  client.close();
});

test('onClientAction can refuse an action; the refusal is echoed with its reason', async () => {
  const { host, client, envelopes } = setup();
  const reactions: string[] = [];
  host.onClientAction(({ action }) => (action.type === 'session/customizationToggled' ? 'Toggling is locked' : undefined));
  host.afterClientAction(({ action }) => void reactions.push(action.type));
  await client.initialize();
  await client.subscribe(SESSION);
  const before = host.getSessionState(SESSION);
  client.dispatch({ channel: SESSION, clientSeq: client.nextClientSeq(), action: { type: 'session/customizationToggled', id: 'everything', enablement: [{ kind: 'global', enabled: false }] } });
  client.dispatch({ channel: SESSION, clientSeq: client.nextClientSeq(), action: { type: 'session/titleChanged', title: 'ok' } });
  await until(() => envelopes.length === 2, 'both echoes');
  assert.equal(envelopes[0]!.rejectionReason, 'Toggling is locked');
  assert.equal(envelopes[1]!.rejectionReason, undefined);
  assert.deepEqual(reactions, ['session/titleChanged']);
  assert.equal(host.getSessionState(SESSION)!.title, 'ok');
  assert.equal(host.getSessionState(SESSION)!.customizations![0], before!.customizations![0]);
  client.close();
});

test('the older customizationToggled {id, enabled} is applied and echoed as enablement', async () => {
  const { host, client, envelopes } = setup();
  await client.initialize();
  await client.subscribe(SESSION);
  client.dispatch({ channel: SESSION, clientSeq: client.nextClientSeq(), action: { type: 'session/customizationToggled', id: 'basic', enabled: false } as never });
  await until(() => envelopes.length === 1, 'the echo');
  assert.equal(envelopes[0]!.rejectionReason, undefined);
  assert.deepEqual(envelopes[0]!.action, { type: 'session/customizationToggled', id: 'basic', enablement: [{ kind: 'global', enabled: false }] });
  const child = (host.getSessionState(SESSION)!.customizations![1] as PluginCustomization).children![0] as McpServerCustomization;
  assert.deepEqual(child.enablement, [{ kind: 'global', enabled: false }]);
  assert.equal('enabled' in child, false);
  // Server-originated toggles in the older shape are normalized the same way.
  host.dispatchServerAction(SESSION, { type: 'session/customizationToggled', id: 'everything', enabled: false } as never);
  await until(() => envelopes.length === 2, 'the server toggle');
  assert.deepEqual(envelopes[1]!.action, { type: 'session/customizationToggled', id: 'everything', enablement: [{ kind: 'global', enabled: false }] });
  client.close();
});

test('an action for an unknown channel is silently dropped', async () => {
  const { host, client, envelopes } = setup();
  await client.initialize();
  await client.subscribe(SESSION);
  client.dispatch({ channel: 'ahp-session:/missing', clientSeq: client.nextClientSeq(), action: { type: 'session/titleChanged', title: 'x' } });
  client.dispatch({ channel: SESSION, clientSeq: client.nextClientSeq(), action: { type: 'session/titleChanged', title: 'y' } });
  await until(() => envelopes.length === 1, 'the valid echo');
  await tick();
  assert.equal(envelopes.length, 1);
  assert.equal(envelopes[0]!.origin?.clientSeq, 2);
  assert.equal(envelopes[0]!.serverSeq, 1, 'the dropped action consumed no serverSeq');
  assert.equal(host.serverSeq, 1);
  client.close();
});

test('serverSeq is one monotonic server-wide counter across channels', async () => {
  const host = new HostCore({ log: () => {} });
  const other = 'ahp-session:/other';
  host.createSession(other, fixtureState());
  const { client, envelopes } = setup({ host });
  await client.initialize();
  await client.subscribe(SESSION);
  const seqs = [
    host.dispatchServerAction(SESSION, { type: 'session/titleChanged', title: '1' }).serverSeq,
    host.dispatchServerAction(other, { type: 'session/titleChanged', title: '2' }).serverSeq,
  ];
  client.dispatch({ channel: SESSION, clientSeq: client.nextClientSeq(), action: { type: 'session/titleChanged', title: '3' } });
  await until(() => envelopes.length === 2, 'two envelopes on the subscribed channel');
  seqs.push(host.dispatchServerAction(SESSION, { type: 'session/titleChanged', title: '4' }).serverSeq);
  assert.deepEqual(seqs, [1, 2, 4]);
  assert.deepEqual(envelopes.map((e) => e.serverSeq), [1, 3], 'only subscribed channels, with gaps');
  assert.equal(host.serverSeq, 4);
  client.close();
});

test('unsubscribe stops envelopes for that channel', async () => {
  const { host, client, envelopes } = setup();
  await client.initialize();
  await client.subscribe(SESSION);
  client.unsubscribe(SESSION);
  await client.ping(); // the unsubscribe has arrived once the ping is answered
  host.dispatchServerAction(SESSION, { type: 'session/titleChanged', title: 'unseen' });
  await client.ping();
  assert.equal(envelopes.length, 0);
  client.close();
});

test('mcpApp and channel are stripped for a client that did not declare mcpApps, kept for one that did', async () => {
  const host = new HostCore({ log: () => {} });
  const withApps = setup({ host, clientId: 'apps' });
  await withApps.client.initialize();
  const full = (await withApps.client.subscribe(SESSION)).snapshot!.state as SessionState;
  assert.equal((full.customizations![0] as McpServerCustomization).channel, 'mcp://everything');
  assert.ok((full.customizations![0] as McpServerCustomization).mcpApp);

  const plain = setup({ host, clientId: 'plain' });
  const result = await plain.client.request<{ snapshots: { state: SessionState }[] }>('initialize', {
    channel: 'ahp-root://',
    protocolVersions: ['1.0.0'],
    clientId: 'plain',
    initialSubscriptions: [SESSION],
  });
  const stripped = result.snapshots[0]!.state;
  const top = stripped.customizations![0] as McpServerCustomization;
  const child = (stripped.customizations![1] as PluginCustomization).children![0] as McpServerCustomization;
  for (const s of [top, child]) {
    assert.equal('channel' in s, false);
    assert.equal('mcpApp' in s, false);
    assert.ok(s.state, 'the rest is kept');
  }
  host.dispatchServerAction(SESSION, { type: 'session/mcpServerStateChanged', id: 'everything', state: { kind: 'ready' }, channel: 'mcp://new' });
  const server = { ...fixtureState().customizations![0] } as McpServerCustomization;
  host.dispatchServerAction(SESSION, { type: 'session/customizationUpdated', customization: server });
  await until(() => plain.envelopes.length === 2 && withApps.envelopes.length === 2, 'envelopes');
  assert.equal('channel' in plain.envelopes[0]!.action, false);
  assert.equal((withApps.envelopes[0]!.action as { channel?: string }).channel, 'mcp://new');
  const plainUpdated = (plain.envelopes[1]!.action as { customization: McpServerCustomization }).customization;
  assert.equal('mcpApp' in plainUpdated || 'channel' in plainUpdated, false);
  const appsUpdated = (withApps.envelopes[1]!.action as { customization: McpServerCustomization }).customization;
  assert.ok(appsUpdated.mcpApp && appsUpdated.channel);
  // the host's own state keeps everything
  assert.equal((host.getSessionState(SESSION)!.customizations![0] as McpServerCustomization).channel, 'mcp://everything');
  withApps.client.close();
  plain.client.close();
});

test('extra request handlers get params and the clientId; unknown methods are -32601', async () => {
  const { host, client } = setup();
  const calls: unknown[] = [];
  host.handleRequest('authenticate', (params, ctx) => {
    calls.push({ params, ctx });
    return {};
  });
  host.handleRequest('x-fail', async () => {
    throw Object.assign(new Error('no access'), { code: -32009 });
  });
  assert.throws(() => host.handleRequest('subscribe', () => null));
  await client.initialize();
  await client.authenticate({ resource: 'https://api.example', token: 'tok', scopes: ['read'] });
  assert.deepEqual(calls, [{ params: { resource: 'https://api.example', token: 'tok', scopes: ['read'], channel: 'ahp-root://' }, ctx: { clientId: 'client-a' } }]);
  await assert.rejects(client.request('x-fail', {}), (err: unknown) => err instanceof RpcError && err.code === -32009 && err.message === 'no access');
  await assert.rejects(client.request('nope', {}), (err: unknown) => err instanceof RpcError && err.code === -32601);
  client.close();
});

test('the action log per channel is bounded and reports when it no longer reaches back', () => {
  const host = new HostCore({ actionLogLimit: 3, log: () => {} });
  host.createSession(SESSION, fixtureState());
  for (let i = 1; i <= 10; i++) host.dispatchServerAction(SESSION, { type: 'session/titleChanged', title: String(i) });
  assert.deepEqual(host.actionsSince(SESSION, 7)!.map((e) => e.serverSeq), [8, 9, 10]);
  assert.deepEqual(host.actionsSince(SESSION, 10), []);
  assert.equal(host.actionsSince(SESSION, 6), undefined);
  assert.equal(host.actionsSince('ahp-session:/none', 0), undefined);
  assert.throws(() => host.dispatchServerAction('ahp-session:/none', { type: 'session/titleChanged', title: 'x' }));
  assert.throws(() => host.createSession(SESSION, fixtureState()));
});
