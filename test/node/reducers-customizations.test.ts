import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Customization, McpServerCustomization, PluginCustomization, SessionState } from '../../src/protocol/index.js';
import { effectiveEnabled, findMcpServer, normalizeCustomizationToggle, sessionReducer } from '../../src/reducers/index.js';

const top: McpServerCustomization = {
  type: 'mcpServer', id: 'top', uri: 'file:///mcp.json', name: 'Top',
  enablement: [{ kind: 'global', enabled: true }], state: { kind: 'ready' }, channel: 'mcp://top',
};
const child: McpServerCustomization = { type: 'mcpServer', id: 'child', uri: 'file:///p/.mcp.json', name: 'Child', state: { kind: 'starting', blocking: true } };
const sibling: McpServerCustomization = { type: 'mcpServer', id: 'sibling', uri: 'file:///p/.mcp.json', name: 'Sibling', state: { kind: 'stopped' } };
const plugin: PluginCustomization = {
  type: 'plugin', id: 'plug', uri: 'https://example.com/plugin', name: 'Plugin', enablement: [{ kind: 'global', enabled: true }],
  children: [child, { type: 'agent', id: 'agent', uri: 'file:///p/agent.md', name: 'Agent' }, sibling],
};
const dirServer: McpServerCustomization = { type: 'mcpServer', id: 'dirsrv', uri: 'file:///d/.mcp.json', name: 'Dir', enabled: false, state: { kind: 'stopped' } };
const directory: Customization = {
  type: 'directory', id: 'dir', uri: 'file:///d', name: 'Dir', enabled: true, contents: 'mcpServer', writable: false, children: [dirServer],
};
const unknownType = { type: 'x-future', id: 'fut', uri: 'x:/', name: 'Future', children: [{ type: 'mcpServer', id: 'hidden', uri: 'x:/', name: 'H', state: { kind: 'ready' } }] } as unknown as Customization;

function base(): SessionState {
  return {
    provider: 'p', title: 'T', status: 1, lifecycle: 'ready', activeClients: [], chats: [],
    customizations: [top, plugin, directory, unknownType],
  };
}
const act = (type: string, fields: Record<string, unknown> = {}) => ({ type, ...fields });
const customizations = (s: SessionState) => s.customizations as Customization[];
const pluginOf = (s: SessionState) => customizations(s)[1] as PluginCustomization;

describe('effectiveEnabled', () => {
  it('prefers enablement[0], then enabled, then true', () => {
    assert.equal(effectiveEnabled({}), true);
    assert.equal(effectiveEnabled({ enabled: false }), false);
    assert.equal(effectiveEnabled({ enablement: [], enabled: false }), false);
    assert.equal(effectiveEnabled({ enablement: [{ kind: 'session', enabled: false }, { kind: 'global', enabled: true }], enabled: true }), false);
    assert.equal(effectiveEnabled({ enablement: [{ kind: 'global', enabled: true }], enabled: false }), true);
  });
  it('ANDs a child with its container', () => {
    assert.equal(effectiveEnabled({}, { enablement: [{ kind: 'global', enabled: false }] }), false);
    assert.equal(effectiveEnabled({ enabled: false }, { enabled: true }), false);
    assert.equal(effectiveEnabled({}, { enabled: true }), true);
  });
  it('tolerates garbage', () => {
    assert.equal(effectiveEnabled({ enablement: [null], enabled: 'no' }), true);
    assert.equal(effectiveEnabled({ enablement: 'x' }), true);
  });
});

describe('findMcpServer', () => {
  it('finds top-level servers and children of any container', () => {
    const s = base();
    assert.equal(findMcpServer(s, 'top'), top);
    assert.equal(findMcpServer(s, 'child'), child);
    assert.equal(findMcpServer(s, 'dirsrv'), dirServer);
    assert.equal(findMcpServer(s, 'hidden')?.name, 'H');
  });
  it('returns undefined for unknown ids, non-MCP ids and missing lists', () => {
    const s = base();
    assert.equal(findMcpServer(s, 'nope'), undefined);
    assert.equal(findMcpServer(s, 'agent'), undefined);
    assert.equal(findMcpServer(s, 'plug'), undefined);
    assert.equal(findMcpServer({ ...s, customizations: undefined }, 'top'), undefined);
  });
});

describe('session/customizationsChanged', () => {
  it('replaces the whole list', () => {
    const s = base();
    const next = sessionReducer(s, act('session/customizationsChanged', { customizations: [sibling] }));
    assert.deepEqual(next.customizations, [sibling]);
    assert.equal(next.title, s.title);
  });
  it('is a no-op for a non-array payload', () => {
    const s = base();
    for (const customizations of [undefined, null, 'x', { 0: top }, [null], [top, { id: 'x' }], [{ ...top, state: null }], [{ ...plugin, children: 'x' }], [{ ...plugin, children: [null] }]]) {
      assert.equal(sessionReducer(s, act('session/customizationsChanged', { customizations })), s);
    }
  });
});

describe('session/customizationUpdated', () => {
  it('replaces an existing top-level entry including children', () => {
    const s = base();
    const replacement = { ...plugin, name: 'Renamed', children: [] };
    const next = sessionReducer(s, act('session/customizationUpdated', { customization: replacement }));
    assert.equal(customizations(next)[1], replacement);
    assert.equal(customizations(next)[0], top, 'untouched entries keep identity');
    assert.equal(customizations(next).length, 4);
  });
  it('appends an unknown id and creates the list', () => {
    const s = base();
    const extra: McpServerCustomization = { ...top, id: 'new' };
    assert.equal(customizations(sessionReducer(s, act('session/customizationUpdated', { customization: extra })))[4], extra);
    const empty = sessionReducer({ ...s, customizations: undefined }, act('session/customizationUpdated', { customization: extra }));
    assert.deepEqual(empty.customizations, [extra]);
  });
  it('is a no-op for garbage', () => {
    const s = base();
    for (const customization of [undefined, null, 5, { id: 3, type: 'plugin' }, { type: 'plugin' }, { id: 'x' }, { ...top, state: { kind: 1 } }, { ...plugin, children: {} }]) {
      assert.equal(sessionReducer(s, act('session/customizationUpdated', { customization })), s);
    }
  });
});

describe('session/customizationRemoved', () => {
  it('removes a top-level container with its children', () => {
    const next = sessionReducer(base(), act('session/customizationRemoved', { id: 'plug' }));
    assert.deepEqual(customizations(next).map((c) => c.id), ['top', 'dir', 'fut']);
    assert.equal(findMcpServer(next, 'child'), undefined);
  });
  it('removes a child, copying only its container', () => {
    const s = base();
    const next = sessionReducer(s, act('session/customizationRemoved', { id: 'child' }));
    assert.deepEqual(pluginOf(next).children?.map((c) => c.id), ['agent', 'sibling']);
    assert.equal(customizations(next)[0], top);
    assert.equal(customizations(next)[2], directory);
    assert.equal(pluginOf(next).children?.[1], sibling);
  });
  it('is a no-op for unknown ids, garbage ids and a missing list', () => {
    const s = base();
    assert.equal(sessionReducer(s, act('session/customizationRemoved', { id: 'nope' })), s);
    assert.equal(sessionReducer(s, act('session/customizationRemoved', { id: null })), s);
    assert.equal(sessionReducer(s, act('session/customizationRemoved', {})), s);
    const none = { ...s, customizations: undefined };
    assert.equal(sessionReducer(none, act('session/customizationRemoved', { id: 'top' })), none);
  });
});

describe('session/customizationToggled', () => {
  const off = [{ kind: 'session', enabled: false }, { kind: 'global', enabled: true }];
  it('replaces the enablement list of a top-level MCP server', () => {
    const s = base();
    const next = sessionReducer(s, act('session/customizationToggled', { id: 'top', enablement: off }));
    const server = findMcpServer(next, 'top');
    assert.deepEqual(server?.enablement, off);
    assert.equal(server && effectiveEnabled(server), false);
    assert.equal(customizations(next)[1], plugin);
  });
  it('removes the key for an empty list', () => {
    const next = sessionReducer(base(), act('session/customizationToggled', { id: 'plug', enablement: [] }));
    assert.equal('enablement' in pluginOf(next), false);
    assert.equal(effectiveEnabled(pluginOf(next)), true);
  });
  it('toggles a plugin child MCP server and keeps its siblings', () => {
    const s = base();
    const next = sessionReducer(s, act('session/customizationToggled', { id: 'child', enablement: off }));
    assert.deepEqual(findMcpServer(next, 'child')?.enablement, off);
    assert.equal(pluginOf(next).children?.[2], sibling);
    assert.equal(customizations(next)[0], top);
  });
  it('keeps the older enabled flag of an older-shaped entry in step', () => {
    const s = base();
    const next = sessionReducer(s, act('session/customizationToggled', { id: 'dirsrv', enablement: [{ kind: 'global', enabled: true }] }));
    const server = findMcpServer(next, 'dirsrv');
    assert.equal(server?.enabled, true);
    assert.deepEqual(server?.enablement, [{ kind: 'global', enabled: true }]);
  });
  it('sets enabled on other types from enablement[0] (default true)', () => {
    const s = base();
    const agentOff = sessionReducer(s, act('session/customizationToggled', { id: 'agent', enablement: [{ kind: 'global', enabled: false }] }));
    assert.equal(pluginOf(agentOff).children?.[1]?.enabled, false);
    assert.equal('enablement' in (pluginOf(agentOff).children?.[1] ?? {}), false);
    const dirOn = sessionReducer(s, act('session/customizationToggled', { id: 'dir', enablement: [] }));
    assert.equal((customizations(dirOn)[2] as { enabled: boolean }).enabled, true);
  });
  it('normalizes the older {id, enabled} shape to enablement (no entry is left with enabled:false and no enablement)', () => {
    const s = base();
    const next = sessionReducer(s, act('session/customizationToggled', { id: 'top', enabled: false }));
    const server = findMcpServer(next, 'top');
    assert.deepEqual(server?.enablement, [{ kind: 'global', enabled: false }]);
    assert.equal('enabled' in (server ?? {}), false);
    assert.equal(server && effectiveEnabled(server), false);
    // The entry's most specific decision takes the value; the others are kept.
    const scoped = { ...s, customizations: [{ ...top, enablement: [{ kind: 'session', enabled: true }, { kind: 'global', enabled: false }] }, ...customizations(s).slice(1)] } as SessionState;
    assert.deepEqual(findMcpServer(sessionReducer(scoped, act('session/customizationToggled', { id: 'top', enabled: false })), 'top')?.enablement,
      [{ kind: 'session', enabled: false }, { kind: 'global', enabled: false }]);
    // A child without decisions gets a global one; a leaf child keeps only its enabled flag.
    assert.deepEqual(findMcpServer(sessionReducer(s, act('session/customizationToggled', { id: 'child', enabled: false })), 'child')?.enablement, [{ kind: 'global', enabled: false }]);
    const agent = sessionReducer(s, act('session/customizationToggled', { id: 'agent', enabled: false }));
    assert.equal(pluginOf(agent).children?.[1]?.enabled, false);
  });
  it('normalizeCustomizationToggle rewrites only the older shape', () => {
    const s = base();
    const older = { type: 'session/customizationToggled', id: 'top', enabled: true, extra: 1 };
    assert.deepEqual(normalizeCustomizationToggle(s, older), { type: 'session/customizationToggled', id: 'top', extra: 1, enablement: [{ kind: 'global', enabled: true }] });
    const newer = { type: 'session/customizationToggled', id: 'top', enablement: [] };
    assert.equal(normalizeCustomizationToggle(s, newer), newer);
    const other = { type: 'session/titleChanged', title: 'x', enabled: true };
    assert.equal(normalizeCustomizationToggle(s, other), other);
    assert.deepEqual((normalizeCustomizationToggle(undefined, older) as Record<string, unknown>).enablement, [{ kind: 'global', enabled: true }]);
  });
  it('matches the top level before children', () => {
    const s = base();
    const clash = { ...s, customizations: [...customizations(s), { ...sibling, id: 'child' }] };
    const next = sessionReducer(clash, act('session/customizationToggled', { id: 'child', enabled: false }));
    assert.equal(pluginOf(next).children?.[0], child);
    assert.equal(customizations(next)[4]?.id, 'child');
  });
  it('is a no-op for unknown ids, missing list and garbage payloads', () => {
    const s = base();
    assert.equal(sessionReducer(s, act('session/customizationToggled', { id: 'nope', enabled: false })), s);
    assert.equal(sessionReducer(s, act('session/customizationToggled', { id: 'top' })), s);
    assert.equal(sessionReducer(s, act('session/customizationToggled', { id: 'top', enabled: 'no' })), s);
    assert.equal(sessionReducer(s, act('session/customizationToggled', { id: 'top', enablement: 'off' })), s);
    assert.equal(sessionReducer(s, act('session/customizationToggled', { id: 'top', enablement: [null] })), s);
    assert.equal(sessionReducer(s, act('session/customizationToggled', { id: 'top', enablement: [{ kind: 'global' }] })), s);
    assert.equal(sessionReducer(s, act('session/customizationToggled', { id: 7, enabled: false })), s);
    const none = { ...s, customizations: undefined };
    assert.equal(sessionReducer(none, act('session/customizationToggled', { id: 'top', enabled: false })), none);
  });
});

describe('session/mcpServerStateChanged', () => {
  const error = { kind: 'error', error: { errorType: 'Exit', message: 'process exited with code 1' } };
  it('sets state and channel of a top-level server, keeping other fields', () => {
    const s = base();
    const next = sessionReducer(s, act('session/mcpServerStateChanged', { id: 'top', state: { kind: 'ready' }, channel: 'mcp://new' }));
    const server = findMcpServer(next, 'top');
    assert.deepEqual(server, { ...top, state: { kind: 'ready' }, channel: 'mcp://new' });
    assert.equal(customizations(next)[1], plugin, 'siblings keep identity');
  });
  it('clears the channel when absent', () => {
    const next = sessionReducer(base(), act('session/mcpServerStateChanged', { id: 'top', state: error }));
    const server = findMcpServer(next, 'top');
    assert.deepEqual(server?.state, error);
    assert.equal(server && 'channel' in server, false);
    const nulled = sessionReducer(base(), act('session/mcpServerStateChanged', { id: 'top', state: error, channel: null }));
    assert.equal('channel' in (findMcpServer(nulled, 'top') ?? {}), false);
  });
  it('updates a child of a plugin, copying only that path', () => {
    const s = base();
    const next = sessionReducer(s, act('session/mcpServerStateChanged', { id: 'child', state: { kind: 'ready' }, channel: 'mcp://c' }));
    const p = pluginOf(next);
    assert.notEqual(p, plugin);
    assert.deepEqual(findMcpServer(next, 'child'), { ...child, state: { kind: 'ready' }, channel: 'mcp://c' });
    assert.equal(p.children?.[1], plugin.children?.[1]);
    assert.equal(p.children?.[2], sibling, 'an unchanged sibling server keeps identity');
    assert.equal(customizations(next)[0], top);
    assert.equal(customizations(next)[2], directory);
  });
  it('updates a child of a directory', () => {
    const next = sessionReducer(base(), act('session/mcpServerStateChanged', { id: 'dirsrv', state: { kind: 'starting' } }));
    assert.deepEqual(findMcpServer(next, 'dirsrv')?.state, { kind: 'starting' });
  });
  it('keeps unknown state kinds', () => {
    const next = sessionReducer(base(), act('session/mcpServerStateChanged', { id: 'top', state: { kind: 'x-hibernating', extra: 1 } }));
    assert.deepEqual(findMcpServer(next, 'top')?.state, { kind: 'x-hibernating', extra: 1 });
  });
  it('is a no-op for unknown ids, non-MCP ids, missing list and garbage', () => {
    const s = base();
    const ready = { kind: 'ready' };
    assert.equal(sessionReducer(s, act('session/mcpServerStateChanged', { id: 'nope', state: ready })), s);
    assert.equal(sessionReducer(s, act('session/mcpServerStateChanged', { id: 'agent', state: ready })), s);
    assert.equal(sessionReducer(s, act('session/mcpServerStateChanged', { id: 'plug', state: ready })), s);
    assert.equal(sessionReducer(s, act('session/mcpServerStateChanged', { id: 'top', state: null })), s);
    assert.equal(sessionReducer(s, act('session/mcpServerStateChanged', { id: 'top', state: { kind: 3 } })), s);
    assert.equal(sessionReducer(s, act('session/mcpServerStateChanged', { id: 'top', state: ready, channel: 42 })), s);
    assert.equal(sessionReducer(s, act('session/mcpServerStateChanged', { state: ready })), s);
    const none = { ...s, customizations: undefined };
    assert.equal(sessionReducer(none, act('session/mcpServerStateChanged', { id: 'top', state: ready })), none);
  });
});

describe('session/mcpServerStartRequested and StopRequested', () => {
  it('start is optimistic starting and clears a stale channel', () => {
    const next = sessionReducer(base(), act('session/mcpServerStartRequested', { id: 'top' }));
    const server = findMcpServer(next, 'top');
    assert.deepEqual(server?.state, { kind: 'starting' });
    assert.equal(server && 'channel' in server, false);
    assert.equal(server?.name, 'Top');
  });
  it('stop is optimistic stopped and clears the channel, also for children', () => {
    const s = base();
    const next = sessionReducer(s, act('session/mcpServerStopRequested', { id: 'top' }));
    assert.deepEqual(findMcpServer(next, 'top')?.state, { kind: 'stopped' });
    assert.equal('channel' in (findMcpServer(next, 'top') ?? {}), false);
    const c = sessionReducer(s, act('session/mcpServerStopRequested', { id: 'child' }));
    assert.deepEqual(findMcpServer(c, 'child')?.state, { kind: 'stopped' });
    assert.equal(pluginOf(c).children?.[2], sibling);
  });
  it('a server already in that bare state keeps its identity', () => {
    const s = base();
    assert.equal(sessionReducer(s, act('session/mcpServerStopRequested', { id: 'sibling' })), s);
  });
  it('is a no-op for unknown and non-MCP ids', () => {
    const s = base();
    for (const type of ['session/mcpServerStartRequested', 'session/mcpServerStopRequested']) {
      assert.equal(sessionReducer(s, act(type, { id: 'nope' })), s);
      assert.equal(sessionReducer(s, act(type, { id: 'agent' })), s);
      assert.equal(sessionReducer(s, act(type, { id: 'plug' })), s);
      assert.equal(sessionReducer(s, act(type, { id: { x: 1 } })), s);
      assert.equal(sessionReducer(s, act(type)), s);
    }
  });
});

describe('session/mcpServerBackgroundRequested', () => {
  it('unblocks a blocking starting server', () => {
    const next = sessionReducer(base(), act('session/mcpServerBackgroundRequested', { id: 'child' }));
    assert.deepEqual(findMcpServer(next, 'child')?.state, { kind: 'starting', blocking: false });
  });
  it('is a no-op for other states and ids', () => {
    const s = base();
    assert.equal(sessionReducer(s, act('session/mcpServerBackgroundRequested', { id: 'top' })), s);
    const nonBlocking = sessionReducer(s, act('session/mcpServerStartRequested', { id: 'top' }));
    assert.equal(sessionReducer(nonBlocking, act('session/mcpServerBackgroundRequested', { id: 'top' })), nonBlocking);
    assert.equal(sessionReducer(s, act('session/mcpServerBackgroundRequested', { id: 'agent' })), s);
    assert.equal(sessionReducer(s, act('session/mcpServerBackgroundRequested', { id: 'nope' })), s);
  });
});

describe('purity', () => {
  it('never mutates its input', () => {
    const s = base();
    const frozen = JSON.stringify(s);
    sessionReducer(s, act('session/mcpServerStateChanged', { id: 'child', state: { kind: 'ready' } }));
    sessionReducer(s, act('session/customizationToggled', { id: 'child', enablement: [] }));
    sessionReducer(s, act('session/customizationRemoved', { id: 'child' }));
    assert.equal(JSON.stringify(s), frozen);
  });
});

describe('servers a state change copies', () => {
  const kinds = (s: SessionState) => customizations(s).map((c) => (c as McpServerCustomization).state?.kind);
  it('are plain objects with the same keys in the same order, whichever branch made them', () => {
    let s = base();
    s = sessionReducer(s, act('session/mcpServerStateChanged', { id: 'top', state: { kind: 'stopped' } }) as never);
    s = sessionReducer(s, act('session/mcpServerStateChanged', { id: 'child', state: { kind: 'ready' }, channel: 'mcp://child' }) as never);
    s = sessionReducer(s, act('session/mcpServerStartRequested', { id: 'dirsrv' }) as never);
    const servers = [findMcpServer(s, 'top')!, findMcpServer(s, 'child')!, findMcpServer(s, 'dirsrv')!];
    for (const server of servers) {
      assert.equal(Object.getPrototypeOf(server), Object.prototype);
      assert.equal(server.constructor, Object);
      assert.deepStrictEqual(server, JSON.parse(JSON.stringify(server)));
    }
    assert.deepEqual(Object.keys(servers[0]!), ['type', 'id', 'uri', 'name', 'enablement', 'state']);
    assert.deepEqual(Object.keys(servers[1]!), ['type', 'id', 'uri', 'name', 'state', 'channel']);
    assert.deepEqual(servers.map((x) => x.state.kind), ['stopped', 'ready', 'starting']);
    assert.deepEqual(kinds(base()), ['ready', undefined, undefined, undefined], 'the earlier state is unchanged');
  });
  it('keep an own "__proto__" key a host sent (JSON.parse makes one) as a key, not as the prototype', () => {
    const hostile = JSON.parse('{"type":"mcpServer","id":"h","uri":"x:/","name":"H","state":{"kind":"ready"},"__proto__":{"polluted":true}}') as McpServerCustomization;
    const s = sessionReducer({ ...base(), customizations: [hostile] }, act('session/mcpServerStateChanged', { id: 'h', state: { kind: 'stopped' } }) as never);
    const server = findMcpServer(s, 'h')!;
    assert.equal(Object.getPrototypeOf(server), Object.prototype);
    assert.equal((server as unknown as { polluted?: unknown }).polluted, undefined);
    assert.ok(Object.hasOwn(server, '__proto__'));
    assert.equal(JSON.stringify(server), '{"type":"mcpServer","id":"h","uri":"x:/","name":"H","state":{"kind":"stopped"},"__proto__":{"polluted":true}}');
  });
});
