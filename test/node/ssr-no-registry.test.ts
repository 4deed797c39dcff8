import { test } from 'node:test';
import assert from 'node:assert/strict';

// Lit's Node build installs a stand-in `customElements`; ahp-elements must not need it (or `window`) at import
// time, so edge runtimes without Lit's shims and servers that remove it can still import every element entry.
test('element entries import with no customElements, window or document at all', async () => {
  await import('lit');
  const g = globalThis as { customElements?: unknown; window?: unknown; document?: unknown };
  delete g.customElements;
  assert.equal(typeof g.customElements, 'undefined');
  const classes = (await import('../../elements/index.js')) as Record<string, unknown>;
  await import('../../elements/define-all.js');
  for (const folder of ['session', 'mcp-server', 'mcp-server-list', 'tool-call', 'mcp-app', 'chat', 'input-needed']) {
    await import(`../../elements/${folder}/define.js`);
  }
  assert.equal(typeof g.customElements, 'undefined', 'no registry was created');
  assert.equal(typeof g.window, 'undefined');
  assert.equal(typeof g.document, 'undefined');
  for (const name of ['AhpSession', 'AhpMcpServer', 'AhpMcpServerList', 'AhpToolCall', 'AhpMcpApp', 'AhpChat', 'AhpInputNeeded']) {
    assert.equal(typeof classes[name], 'function', `${name} is exported`);
  }
});
