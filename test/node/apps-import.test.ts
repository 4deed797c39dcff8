import { test } from 'node:test';
import assert from 'node:assert/strict';

test('ahp-elements/apps imports without a DOM and exports the bridge, builders and sandbox helpers', async () => {
  const apps = await import('../../src/apps.js');
  await import('../../src/apps/sandbox-proxy-main.js'); // the proxy page entry does nothing outside a browser
  assert.equal(typeof (globalThis as { window?: unknown }).window, 'undefined');
  for (const name of ['AppBridgeHost', 'windowTransport', 'buildCsp', 'buildAllowAttribute', 'buildStyleVariables', 'sandboxResponseHeaders', 'sandboxResponseHeadersForUrl', 'runSandboxProxy', 'readUiResource', 'MCP_APPS_PROTOCOL_VERSION']) {
    assert.ok(name in apps, `apps exports ${name}`);
  }
  const core = await import('../../src/index.js');
  assert.equal('AppBridgeHost' in core, false, 'MCP Apps stay out of the core entry');
});
