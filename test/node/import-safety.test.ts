import { test } from 'node:test';
import assert from 'node:assert/strict';

test('the headless core and the host import without a DOM and export their key API', async () => {
  const core = await import('../../src/index.js');
  const host = await import('../../src/host.js');
  const testing = await import('../../src/testing.js');
  const mcpChannel = await import('../../src/mcp-channel.js');
  const worker = await import('../../src/worker.js');
  assert.equal(typeof document, 'undefined');
  assert.equal(typeof (globalThis as { window?: unknown }).window, 'undefined');
  for (const name of [
    'AhpClient',
    'WebSocketTransport',
    'RpcError',
    'RpcTimeoutError',
    'ConnectionClosedError',
    'UnsupportedProtocolVersionError',
    'connectSession',
    'SessionStore',
    'listMcpServers',
    'selectMcpServer',
    'effectiveEnabled',
    'findMcpServer',
    'isClientDispatchable',
    'PROTOCOL_VERSIONS',
  ]) {
    assert.ok(name in core, `core exports ${name}`);
  }
  assert.equal('HostCore' in core, false, 'the host has its own entry');
  // Internals stay out of the public surface (api/ahp-elements.api.md lists what is in it).
  for (const name of ['JsonRpcPeer', 'ChannelReconciler', 'foldBurst', 'deferTransport', 'connectionStateHub', 'watchRoot', 'discoverSessions']) {
    assert.equal(name in core, false, `core does not export ${name}`);
  }
  // The pure reducers and the chat selectors have their own entry: the core loads the chat code on the first chat.
  const reducers = await import('../../src/reducers.js');
  for (const name of ['sessionReducer', 'chatReducer', 'rootReducer', 'isToolCallTerminal', 'toolCallNeedsInput', 'listToolCalls', 'listToolCallsOfServer', 'selectToolCall', 'listAuthBlockedToolCalls', 'listInputNeeded']) {
    assert.ok(name in reducers, `reducers exports ${name}`);
    assert.equal(name in core, false, `core does not export ${name}`);
  }
  const discovery = await import('../../src/discovery.js');
  for (const name of ['discoverSessions', 'watchRoot', 'pickDefaultSession', 'ROOT_CHANNEL']) assert.ok(name in discovery, `discovery exports ${name}`);
  for (const name of ['HostCore', 'attachTransport', 'attachWebSocket', 'HostRpcError', 'negotiateVersion']) {
    assert.ok(name in host, `host exports ${name}`);
  }
  assert.equal(typeof testing.createInMemoryPair, 'function');
  assert.equal(typeof mcpChannel.createMcpChannel, 'function');
  assert.equal(typeof worker.connectSessionInWorker, 'function');
  assert.equal('createMcpChannel' in core, false, 'the mcp:// channel client has its own entry');
  assert.equal(typeof core.AhpClient, 'function');
  assert.equal(typeof host.HostCore, 'function');
});
