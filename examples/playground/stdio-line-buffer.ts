import { STDIO_DEFAULT_MAX_BUFFER_SIZE, deserializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/**
 * The stdio client's read buffer (the SDK's `ReadBuffer` contract: `append`, `readMessage`, `clear`), in linear time.
 * The SDK's copies everything received so far on every chunk and searches it from the start again: a 4.4 MB message
 * (the PDF View's resource) arrives in ~70 pipe chunks, ~150 MB of copying, 150–250 ms of the playground's thread per
 * read on this machine. Here chunks are kept as they come, each searched once for the newline, and joined once.
 */
export class StdioLineBuffer {
  private chunks: Buffer[] = [];
  private size = 0;
  /** Chunks before this one hold no newline. */
  private searched = 0;
  private readonly maxBufferSize: number;

  constructor(maxBufferSize = STDIO_DEFAULT_MAX_BUFFER_SIZE) {
    this.maxBufferSize = maxBufferSize;
  }

  append(chunk: Buffer): void {
    if (this.size + chunk.length > this.maxBufferSize) {
      this.clear();
      throw new Error(`ReadBuffer exceeded maximum size of ${this.maxBufferSize} bytes`);
    }
    this.chunks.push(chunk);
    this.size += chunk.length;
  }

  /** The next complete message, or null until its newline has arrived (throws for a line that is not JSON-RPC). */
  readMessage(): JSONRPCMessage | null {
    for (; this.searched < this.chunks.length; this.searched++) {
      const chunk = this.chunks[this.searched]!;
      const index = chunk.indexOf(10);
      if (index === -1) continue;
      const parts = this.chunks.slice(0, this.searched);
      parts.push(chunk.subarray(0, index));
      const rest = chunk.subarray(index + 1);
      this.chunks = rest.length ? [rest, ...this.chunks.slice(this.searched + 1)] : this.chunks.slice(this.searched + 1);
      this.size = this.chunks.reduce((n, c) => n + c.length, 0);
      this.searched = 0;
      const line = (parts.length === 1 ? parts[0]! : Buffer.concat(parts)).toString('utf8').replace(/\r$/, '');
      return deserializeMessage(line);
    }
    return null;
  }

  clear(): void {
    this.chunks = [];
    this.size = 0;
    this.searched = 0;
  }
}
