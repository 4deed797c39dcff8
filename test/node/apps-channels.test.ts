import { test } from 'node:test';
import assert from 'node:assert/strict';
import { attachMcpChannels } from '../../src/apps/mcp-channels.js';
import type { SessionStoreLike } from '../../src/store/types.js';

test('attachMcpChannels: store.mcpChannel(id) routes over the client with the server’s current channel, cached per id', async () => {
  let server: Record<string, unknown> = { type: 'mcpServer', id: 's', name: 'S', state: { kind: 'ready' }, channel: 'mcp://s/1', mcpApp: { capabilities: { serverResources: {} } } };
  const store = { getState: () => ({ customizations: [server] }) } as unknown as SessionStoreLike;
  const sent: [string, unknown][] = [];
  const client = {
    request: async (method: string, params: unknown) => (sent.push([method, params]), { ok: true }),
    notify: () => {},
    onNotification: () => () => {},
  };
  attachMcpChannels(store, client as never);
  const channel = store.mcpChannel!('s')!;
  assert.equal(store.mcpChannel!('s'), channel, 'one channel per server');
  await channel.request('resources/read', { uri: 'ui://x' });
  assert.deepEqual(sent, [['resources/read', { uri: 'ui://x', channel: 'mcp://s/1' }]]);
  await assert.rejects(channel.request('tools/call', { name: 'x' }), /not among the capabilities/);
  server = { ...server, channel: 'mcp://s/2' };
  await channel.request('resources/list', {});
  assert.equal((sent.at(-1)![1] as { channel: string }).channel, 'mcp://s/2', 're-reads the channel');
  assert.equal(store.mcpChannel!('missing')!.available(), false);
});
