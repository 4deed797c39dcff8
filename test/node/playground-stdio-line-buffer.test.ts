// The playground's stdio read buffer (examples/playground/stdio-line-buffer.ts): the SDK ReadBuffer's contract, in
// linear time; and the runtime reading a 4.3 MB resource through it from the real PDF server.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ReadBuffer } from '@modelcontextprotocol/sdk/shared/stdio.js';
import { StdioLineBuffer } from '../../examples/playground/stdio-line-buffer.js';
import { parseConfig } from '../../examples/playground/config.js';
import { McpServerRuntime } from '../../examples/playground/mcp-runtime.js';

const line = (m: unknown, eol = '\n') => JSON.stringify(m) + eol;
const drain = (b: { readMessage(): unknown }) => {
  const out: unknown[] = [];
  for (let m = b.readMessage(); m !== null; m = b.readMessage()) out.push(m);
  return out;
};

/** Counts the bytes `Buffer.concat` joins until `stop`. */
function countConcat() {
  const concat = Buffer.concat;
  const counter = { bytes: 0, stop: () => void (Buffer.concat = concat) };
  Buffer.concat = ((list: readonly Uint8Array[], length?: number) => {
    const joined = concat(list, length);
    counter.bytes += joined.length;
    return joined;
  }) as typeof Buffer.concat;
  return counter;
}

describe('StdioLineBuffer', () => {
  it('reads what the SDK ReadBuffer reads: split and joined lines, CRLF, multi-byte characters cut between chunks', () => {
    const messages = [
      { jsonrpc: '2.0', id: 1, result: { text: 'Grüße, 東京, 🎉' } },
      { jsonrpc: '2.0', method: 'notifications/progress', params: { progress: 1 } },
      { jsonrpc: '2.0', id: 2, result: {} },
    ];
    const bytes = Buffer.from(line(messages[0]) + line(messages[1], '\r\n') + line(messages[2]));
    for (const size of [1, 2, 3, 7, 64, bytes.length]) {
      const ours = new StdioLineBuffer();
      const sdk = new ReadBuffer();
      const got: unknown[] = [];
      const want: unknown[] = [];
      for (let i = 0; i < bytes.length; i += size) {
        const chunk = bytes.subarray(i, i + size);
        ours.append(chunk);
        sdk.append(chunk);
        got.push(...drain(ours));
        want.push(...drain(sdk));
      }
      assert.deepEqual(got, messages, `chunks of ${size} bytes`);
      assert.deepEqual(got, want);
    }
  });

  it('keeps a partial line until its newline, refuses a line that is not JSON-RPC, and clears', () => {
    const b = new StdioLineBuffer();
    b.append(Buffer.from('{"jsonrpc":"2.0","id":1,'));
    assert.equal(b.readMessage(), null);
    b.append(Buffer.from('"result":{}}\nnot json\n'));
    assert.deepEqual(b.readMessage(), { jsonrpc: '2.0', id: 1, result: {} });
    assert.throws(() => b.readMessage());
    b.append(Buffer.from('{"jsonrpc":"2.0",'));
    b.clear();
    b.append(Buffer.from(line({ jsonrpc: '2.0', id: 3, result: {} })));
    assert.deepEqual(b.readMessage(), { jsonrpc: '2.0', id: 3, result: {} });
  });

  it('throws past its maximum size and starts empty again', () => {
    const b = new StdioLineBuffer(16);
    b.append(Buffer.alloc(10, 0x20));
    assert.throws(() => b.append(Buffer.alloc(10, 0x20)), /exceeded maximum size of 16 bytes/);
    b.append(Buffer.from('{"jsonrpc":"2.0"'));
    assert.equal(b.readMessage(), null);
  });

  it('a 4.3 MB message in 64 KB chunks is joined once, not copied per chunk', () => {
    const text = 'x'.repeat(4_300_000);
    const bytes = Buffer.from(line({ jsonrpc: '2.0', id: 1, result: { text } }));
    const copies = countConcat();
    try {
      const b = new StdioLineBuffer();
      let message: unknown = null;
      for (let i = 0; i < bytes.length; i += 65_536) {
        b.append(bytes.subarray(i, i + 65_536));
        message ??= b.readMessage();
      }
      assert.equal((message as { result: { text: string } }).result.text.length, text.length);
      assert.ok(copies.bytes <= bytes.length, `copied ${copies.bytes} bytes for a ${bytes.length}-byte message`);
    } finally {
      copies.stop();
    }
  });

  it('the playground runtime reads the PDF View (4.3 MB) from the real server through it', async () => {
    const args = ['node_modules/@modelcontextprotocol/server-pdf/dist/index.js', '--stdio'];
    const config = parseConfig({ servers: [{ id: 'pdf', name: 'PDF', transport: 'stdio', command: 'node', args }] }).servers[0]!;
    const runtime = new McpServerRuntime(config);
    try {
      await runtime.start();
      assert.equal(runtime.state.kind, 'ready');
      const copies = countConcat();
      const result = (await runtime.request('resources/read', { uri: 'ui://pdf-viewer/mcp-app.html' }).finally(copies.stop)) as { contents: { text: string }[] };
      const text = result.contents[0]!.text;
      assert.ok(text.length > 4_000_000);
      assert.match(text, /<\/html>\s*$/);
      // The SDK's ReadBuffer copies what it holds on every chunk: ~150 MB for this message.
      assert.ok(copies.bytes < 2 * Buffer.byteLength(text), `the read copied ${copies.bytes} bytes`);
    } finally {
      await runtime.stop();
    }
  });
});
