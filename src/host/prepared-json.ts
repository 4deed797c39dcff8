/** The JSON text of each prepared value, kept as long as the value is. */
const prepared = new WeakMap<object, string>();

/** Non-ASCII characters (and DEL), written as `\uXXXX` so the whole text is ASCII. */
const NON_ASCII = /[\u007f-\uffff]/g;
const escape = (c: string): string => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

function deepFreeze(value: unknown): void {
  if (!value || typeof value !== 'object' || Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const v of Object.values(value)) deepFreeze(v);
}

/**
 * Prepares a large answer that a channel handler returns more than once (e.g. a cached MCP App resource): serializes
 * it now, and every WebSocket attached with `attachWebSocket`/`attachWebSocketServer` then sends that text for a
 * response whose result is this value instead of serializing it again. The text is ASCII (other characters as `\uXXXX`,
 * the same JSON), which also makes encoding and decoding the frame cheaper. Freezes `value` (deeply: the text must stay
 * what it says) and returns it; any other transport sends it as any value. Costs a serialization up front, and the
 * text is held as long as the value is.
 */
export function prepareJsonResult<T extends object>(value: T): T {
  deepFreeze(value);
  if (!prepared.has(value)) prepared.set(value, JSON.stringify(value).replace(NON_ASCII, escape));
  return value;
}

/** The whole text of a single JSON-RPC success response whose result was prepared, else undefined. */
export function preparedResponseText(msg: unknown): string | undefined {
  // Every message the host sends passes here: the map lookup comes first and rules out nearly all of them.
  const result = (msg as { result?: unknown } | null)?.result;
  const text = result && typeof result === 'object' ? prepared.get(result) : undefined;
  if (text === undefined || Array.isArray(msg)) return undefined;
  const { jsonrpc, id, result: _result, ...rest } = msg as { jsonrpc?: unknown; id?: unknown; result?: unknown };
  return jsonrpc === '2.0' && !Object.keys(rest).length ? `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${text}}` : undefined;
}
