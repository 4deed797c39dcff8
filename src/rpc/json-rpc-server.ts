import { ErrorCode, type JsonRpcResponse } from '../protocol/json-rpc.js';
import { isRecord } from '../protocol/guards.js';
import { JsonRpcEngine, isId, isThenable, type Answer } from './json-rpc-engine.js';

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The engine as a JSON-RPC 2.0 server in full (§4-§6), for the host: raw text or binary frames are parsed
 * (not JSON or not UTF-8: -32700), invalid messages are answered -32600, id null is a request answered with
 * id null, and a batch is answered as one array (none when it held only notifications). Kept apart from the
 * engine so the client bundle does not carry it.
 */
export class JsonRpcServer extends JsonRpcEngine {
  protected override readonly nullIdIsRequest = true;

  /** Handles one incoming frame (text, binary or already parsed); never throws. */
  override receive(raw: unknown): void {
    if (this.closed) return;
    const msg = this.#decode(raw);
    if (msg === undefined) return;
    if (!Array.isArray(msg.value)) return super.receive(msg.value);
    if (msg.value.length === 0) return this.send(invalidRequest(null, 'Invalid Request: empty batch'));
    const answers = msg.value.map((entry) => this.handle(entry));
    const sendAll = (all: Answer[]): void => {
      const out = all.filter((a): a is JsonRpcResponse => a !== undefined);
      if (out.length > 0) this.send(out);
    };
    if (answers.some(isThenable)) void Promise.all(answers).then(sendAll);
    else sendAll(answers as Answer[]);
  }

  protected override invalid(msg: unknown): Answer {
    const id = isRecord(msg) && isId(msg.id) ? msg.id : null;
    return invalidRequest(id, 'Invalid Request');
  }

  /** Parses one frame; a frame that is not JSON (or not UTF-8) is answered -32700 here and yields undefined. */
  #decode(raw: unknown): { value: unknown } | undefined {
    let text: string;
    if (typeof raw === 'string') text = raw;
    else if (raw instanceof ArrayBuffer || ArrayBuffer.isView(raw)) {
      try {
        text = utf8.decode(raw);
      } catch {
        return this.#parseError('UTF-8');
      }
    } else return { value: raw };
    try {
      return { value: JSON.parse(text) };
    } catch {
      return this.#parseError('JSON');
    }
  }

  #parseError(what: 'JSON' | 'UTF-8'): undefined {
    this.log(`answered a frame that is not ${what} with -32700`);
    this.send({ jsonrpc: '2.0', id: null, error: { code: ErrorCode.ParseError, message: `Parse error: the frame is not valid ${what}` } });
    return undefined;
  }
}

const invalidRequest = (id: string | number | null, message: string): JsonRpcResponse => ({ jsonrpc: '2.0', id, error: { code: ErrorCode.InvalidRequest, message } });
