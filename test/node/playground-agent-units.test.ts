// Unit tests of the playground agent's pieces: result mapping, the command parser, confirmation rules, chunking, signals.
import { describe, it, test } from 'node:test';
import assert from 'node:assert/strict';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { failedCallResult, mapCallToolResult, mapContentBlock, progressContent } from '../../examples/playground/agent/result-mapping.js';
import { parseCommand, SHORTCUTS } from '../../examples/playground/agent/command-parser.js';
import { CONFIRMATION_OPTIONS, SessionAllowList, requiresConfirmation, requiresResultConfirmation } from '../../examples/playground/agent/confirmation.js';
import { charChunks, wordChunks } from '../../examples/playground/agent/turn-reporter.js';
import { withScopedSignal } from '../../examples/playground/agent/scoped-signal.js';
import { PendingAnswers } from '../../examples/playground/agent/answers.js';
import { parseConfig } from '../../examples/playground/config.js';
import { isModelVisible } from '../../examples/playground/agent/run-turn.js';

describe('result mapping (MCP → AHP ToolCallResult)', () => {
  it('maps every MCP content type', () => {
    assert.deepEqual(mapContentBlock({ type: 'text', text: 'hi' }), { type: 'text', text: 'hi' });
    assert.deepEqual(mapContentBlock({ type: 'image', data: 'AAA=', mimeType: 'image/png' }), { type: 'embeddedResource', data: 'AAA=', contentType: 'image/png' });
    assert.deepEqual(mapContentBlock({ type: 'audio', data: 'BBB=', mimeType: 'audio/wav' }), { type: 'embeddedResource', data: 'BBB=', contentType: 'audio/wav' });
    assert.deepEqual(mapContentBlock({ type: 'resource_link', uri: 'demo://r/1', name: 'R', mimeType: 'text/plain', size: 12 }), {
      type: 'resource', uri: 'demo://r/1', contentType: 'text/plain', sizeHint: 12,
    });
    assert.deepEqual(mapContentBlock({ type: 'resource_link', uri: 'demo://r/2', name: 'R' }), { type: 'resource', uri: 'demo://r/2' });
    assert.deepEqual(mapContentBlock({ type: 'resource', resource: { uri: 'demo://b', blob: 'Q0M=', mimeType: 'application/gzip' } }), {
      type: 'embeddedResource', data: 'Q0M=', contentType: 'application/gzip',
    });
    assert.deepEqual(mapContentBlock({ type: 'resource', resource: { uri: 'demo://b', blob: 'Q0M=' } }), { type: 'embeddedResource', data: 'Q0M=', contentType: 'application/octet-stream' });
    assert.deepEqual(mapContentBlock({ type: 'resource', resource: { uri: 'demo://t', text: 'body', mimeType: 'text/plain' } }), { type: 'text', text: 'body' });
  });

  it('turns unknown or broken blocks into a visible text line instead of dropping or throwing', () => {
    assert.deepEqual(mapContentBlock({ type: 'hologram' }), { type: 'text', text: '[unsupported content type "hologram"]' });
    assert.equal(mapContentBlock(null).type, 'text');
    assert.equal(mapContentBlock('x').type, 'text');
    assert.deepEqual(mapContentBlock({ type: 'text' }), { type: 'text', text: '' });
  });

  it('success: content mapped, structuredContent carried, past tense message', () => {
    const result: CallToolResult = { content: [{ type: 'text', text: '{"t":1}' }], structuredContent: { t: 1 } };
    assert.deepEqual(mapCallToolResult(result, 'Weather'), {
      success: true, pastTenseMessage: 'Ran Weather', content: [{ type: 'text', text: '{"t":1}' }], structuredContent: { t: 1 },
    });
    assert.deepEqual(mapCallToolResult({ content: [] }, 'X'), { success: true, pastTenseMessage: 'Ran X', content: [] });
  });

  it('isError: success false and error.message from the text blocks', () => {
    const mapped = mapCallToolResult({ isError: true, content: [{ type: 'text', text: 'bad a' }, { type: 'text', text: 'bad b' }] }, 'Sum');
    assert.equal(mapped.success, false);
    assert.equal(mapped.pastTenseMessage, 'Sum failed');
    assert.deepEqual(mapped.error, { message: 'bad a\nbad b' });
    assert.deepEqual(mapCallToolResult({ isError: true, content: [] }, 'Sum').error, { message: 'The tool reported an error.' });
  });

  it('a thrown error (protocol error, timeout) becomes a failed result with its code', () => {
    const err = Object.assign(new Error('MCP error -32602: Invalid params'), { code: -32602 });
    assert.deepEqual(failedCallResult(err, 'Sum'), { success: false, pastTenseMessage: 'Sum failed', error: { message: 'MCP error -32602: Invalid params', code: '-32602' } });
    assert.deepEqual(failedCallResult('boom', 'Sum').error, { message: 'boom' });
  });

  it('progress becomes one "Step n of m" line', () => {
    assert.deepEqual(progressContent({ progress: 3, total: 10 }), [{ type: 'text', text: 'Step 3 of 10' }]);
    assert.deepEqual(progressContent({ progress: 0.5 }), [{ type: 'text', text: 'Progress: 0.5' }]);
    assert.deepEqual(progressContent({ progress: 2, total: 4, message: 'Downloading' }), [{ type: 'text', text: 'Downloading (Step 2 of 4)' }]);
  });
});

describe('command parser', () => {
  it('/call with and without JSON arguments', () => {
    assert.deepEqual(parseCommand('/call everything get-sum {"a":1,"b":2}'), { kind: 'call', serverId: 'everything', tool: 'get-sum', args: { a: 1, b: 2 } });
    assert.deepEqual(parseCommand('  /call srv tool  '), { kind: 'call', serverId: 'srv', tool: 'tool', args: {} });
    assert.deepEqual(parseCommand('/call srv tool {"text":"a b\\nc"}'), { kind: 'call', serverId: 'srv', tool: 'tool', args: { text: 'a b\nc' } });
  });

  it('bad /call input is invalid with a reason', () => {
    const bad = (text: string, pattern: RegExp) => {
      const cmd = parseCommand(text);
      assert.equal(cmd.kind, 'invalid', text);
      assert.match((cmd as { message: string }).message, pattern, text);
    };
    bad('/call', /Usage/);
    bad('/call onlyserver', /Usage/);
    bad('/call s t {"a":', /not valid JSON/);
    bad('/call s t [1]', /must be a JSON object/);
    bad('/call s t 42', /must be a JSON object/);
    bad('/call s t null', /must be a JSON object/);
    bad('/nope', /Unknown command `\/nope`/);
  });

  it('shortcuts call the shortcut server', () => {
    assert.deepEqual(parseCommand('/echo hello  world'), { kind: 'call', serverId: 'everything', tool: 'echo', args: { message: 'hello  world' } });
    assert.deepEqual(parseCommand('/sum 1.5 -2'), { kind: 'call', serverId: 'everything', tool: 'get-sum', args: { a: 1.5, b: -2 } });
    assert.deepEqual(parseCommand('/image'), { kind: 'call', serverId: 'everything', tool: 'get-tiny-image', args: {} });
    assert.deepEqual(parseCommand('/long'), { kind: 'call', serverId: 'everything', tool: 'trigger-long-running-operation', args: { duration: 5, steps: 10 } });
    assert.deepEqual(parseCommand('/long 2'), { kind: 'call', serverId: 'everything', tool: 'trigger-long-running-operation', args: { duration: 2, steps: 4 } });
    assert.deepEqual(parseCommand('/env'), { kind: 'call', serverId: 'everything', tool: 'get-env', args: {} });
    assert.deepEqual(parseCommand('/links'), { kind: 'call', serverId: 'everything', tool: 'get-resource-links', args: { count: 3 } });
    assert.deepEqual(parseCommand('/weather Chicago'), { kind: 'call', serverId: 'everything', tool: 'get-structured-content', args: { location: 'Chicago' } });
    assert.deepEqual(parseCommand('/ECHO x', 'other'), { kind: 'call', serverId: 'other', tool: 'echo', args: { message: 'x' } });
    for (const text of ['/echo', '/sum 1', '/sum a b', '/sum 1 2 3', '/long 0', '/long 301', '/long x', '/links 11', '/links 1.5']) {
      assert.equal(parseCommand(text).kind, 'invalid', text);
    }
  });

  it('help, tools and plain text', () => {
    assert.deepEqual(parseCommand('/help'), { kind: 'help' });
    assert.deepEqual(parseCommand('/tools'), { kind: 'tools' });
    assert.deepEqual(parseCommand('/tools everything'), { kind: 'tools', serverId: 'everything' });
    assert.deepEqual(parseCommand('what can you do?'), { kind: 'chat', text: 'what can you do?' });
    assert.deepEqual(parseCommand(''), { kind: 'chat', text: '' });
    assert.deepEqual(parseCommand(undefined as unknown as string), { kind: 'chat', text: '' });
    assert.equal(parseCommand('path /etc/x').kind, 'chat');
  });

  it('every shortcut is documented with a usage line', () => {
    for (const [name, s] of SHORTCUTS) assert.ok(s.usage.startsWith(`/${name}`) && s.summary, name);
  });
});

describe('confirmation rules', () => {
  const tool = (name: string, destructiveHint?: boolean) => ({ name, ...(destructiveHint !== undefined && { annotations: { destructiveHint } }) });
  it('destructiveHint or the confirm list asks; confirmResult asks for the result', () => {
    const config = { confirm: ['get-env'], confirmResult: ['get-resource-links'] };
    assert.equal(requiresConfirmation(tool('delete', true), {}), true);
    assert.equal(requiresConfirmation(tool('read', false), {}), false);
    assert.equal(requiresConfirmation(tool('get-env'), config), true);
    assert.equal(requiresConfirmation(tool('echo'), config), false);
    assert.equal(requiresResultConfirmation(tool('get-resource-links'), config), true);
    assert.equal(requiresResultConfirmation(tool('get-env'), config), false);
  });

  it('"always allow in this session" turns ask into setting, per server and tool', () => {
    const allow = new SessionAllowList();
    const config = { confirm: ['t'] };
    assert.equal(allow.need('a', tool('t'), config), 'ask');
    allow.allow('a', 't');
    assert.equal(allow.need('a', tool('t'), config), 'setting');
    assert.equal(allow.need('b', tool('t'), config), 'ask');
    assert.equal(allow.need('a', tool('u'), config), 'not-needed');
  });

  it('offers allow once, always allow (its own group) and deny', () => {
    assert.deepEqual(CONFIRMATION_OPTIONS.map((o) => [o.id, o.kind, o.group]), [['allow-once', 'approve', undefined], ['allow-session', 'approve', 1], ['deny', 'deny', undefined]]);
  });

  it('the config accepts confirm / confirmResult lists and rejects anything else', () => {
    const server = { id: 's', name: 'S', transport: 'stdio', command: 'node' };
    const ok = parseConfig({ servers: [{ ...server, confirm: ['a'], confirmResult: ['b'] }] });
    assert.deepEqual([ok.servers[0]!.confirm, ok.servers[0]!.confirmResult], [['a'], ['b']]);
    assert.equal(parseConfig({ servers: [server] }).servers[0]!.confirm, undefined);
    assert.throws(() => parseConfig({ servers: [{ ...server, confirm: 'a' }] }), /servers\[0\]\.confirm: expected an array of tool names/);
    assert.throws(() => parseConfig({ servers: [{ ...server, confirmResult: [''] }] }), /servers\[0\]\.confirmResult/);
  });
});

describe('streaming helpers and signals', () => {
  it('chunks rejoin to the original text', () => {
    const text = 'Calling **Get Sum Tool** on  **Everything**.\nnext line';
    assert.equal(wordChunks(text).join(''), text);
    assert.ok(wordChunks(text).length > 1);
    assert.deepEqual(wordChunks(''), ['']);
    assert.deepEqual(charChunks('{"a":1,"b":2}', 8), ['{"a":1,"', 'b":2}']);
  });

  it('a scoped signal follows the parent only while the request runs', async () => {
    const parent = new AbortController();
    let seen: AbortSignal | undefined;
    await withScopedSignal(parent.signal, async (signal) => {
      seen = signal;
    });
    parent.abort('late');
    assert.equal(seen!.aborted, false, 'a finished request is not cancelled afterwards');

    const running = new AbortController();
    const aborted = withScopedSignal(running.signal, (signal) => new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason))));
    running.abort('now');
    await assert.rejects(aborted, (reason) => reason === 'now');
  });

  it('pending answers resolve once, and reject when the turn is cancelled', async () => {
    const answers = new PendingAnswers();
    const turn = new AbortController();
    const waiting = answers.wait('confirmation', 'c', 't', 'x', turn.signal);
    assert.equal(answers.answer('result', 'c', 't', 'x', { approved: true }), false, 'a different question');
    assert.equal(answers.answer('confirmation', 'c', 't', 'x', { approved: false }), true);
    assert.deepEqual(await waiting, { approved: false });
    assert.equal(answers.answer('confirmation', 'c', 't', 'x', { approved: true }), false, 'answered already');

    const cancelled = answers.wait('result', 'c', 't', 'y', turn.signal);
    turn.abort(new Error('cancelled'));
    await assert.rejects(cancelled, /cancelled/);
    assert.equal(answers.answer('result', 'c', 't', 'y', { approved: true }), false);
  });
});

test('the agent offers and calls only model-visible tools: app-only tools (visibility ["app"]) are left out', () => {
  const tool = (visibility?: string[]) => ({ name: 't', inputSchema: { type: 'object' as const }, ...(visibility && { _meta: { ui: { visibility } } }) });
  assert.equal(isModelVisible(tool()), true, 'absent = model and app');
  assert.equal(isModelVisible(tool(['model'])), true);
  assert.equal(isModelVisible(tool(['model', 'app'])), true);
  assert.equal(isModelVisible(tool(['app'])), false);
  assert.equal(isModelVisible(tool([])), false);
});
