// The one Transport shape lives in src/rpc (below the client, the host and the Apps bridge).
export { warnLogger, type JsonRpcPayload, type Logger, type Transport } from '../rpc/transport.js';
