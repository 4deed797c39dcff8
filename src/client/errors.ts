import { RpcError } from '../rpc/errors.js';

export { ConnectionClosedError, RpcError, RpcTimeoutError } from '../rpc/errors.js';

/** The host answered `initialize` with -32005: none of the offered protocol versions is supported. */
export class UnsupportedProtocolVersionError extends RpcError {
  readonly offeredVersions: readonly string[];
  /** What the host says it supports (versions or caret ranges); empty when it did not say. */
  readonly supportedVersions: readonly string[];
  constructor(offered: readonly string[], supported: readonly string[], data?: unknown) {
    const hostSide = supported.length > 0 ? `the host supports ${supported.join(', ')}` : 'the host did not say which versions it supports';
    super(-32005, `AHP protocol version mismatch: this client offers ${offered.join(', ')}, but ${hostSide}`, data);
    this.name = 'UnsupportedProtocolVersionError';
    this.offeredVersions = offered;
    this.supportedVersions = supported;
  }
}

/**
 * The host's `initialize` answer cannot be used: it chose a protocol version this client never offered
 * (or none). The client closes the connection rather than speak a version it does not know.
 */
export class ProtocolVersionMismatchError extends Error {
  readonly offeredVersions: readonly string[];
  /** What the host answered with; undefined when it named no version. */
  readonly hostVersion: string | undefined;
  constructor(offered: readonly string[], hostVersion: unknown) {
    const host = typeof hostVersion === 'string' ? `answered with protocol version ${hostVersion}, which this client never offered` : 'answered initialize without a protocol version';
    super(`AHP protocol version mismatch: the host ${host} (this client offers ${offered.join(', ')})`);
    this.name = 'ProtocolVersionMismatchError';
    this.offeredVersions = offered;
    this.hostVersion = typeof hostVersion === 'string' ? hostVersion : undefined;
  }
}
