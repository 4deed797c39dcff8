/**
 * The host ↔ sandbox proxy notifications, one table for both sides (`SandboxFrame` in the host page, `runSandboxProxy`
 * on the sandbox origin, the bridge for the two the proxy sends on the View's behalf). None is ever relayed to or
 * from the View: the proxy drops every message with the prefix that crosses it.
 */
export const SANDBOX_METHODS = {
  /**
   * Proxy → host: the proxy page runs and listens (sent once; a second one means the frame is no longer ours).
   * `params.resourceParts: true` says it takes the View's HTML in parts (see `resourceReady`).
   */
  proxyReady: 'ui/notifications/sandbox-proxy-ready',
  /**
   * Host → proxy: the View's HTML (a string, or UTF-8 bytes as a transferred ArrayBuffer) with its CSP and permissions.
   * To a proxy that announced `resourceParts`: with `more: true` the HTML is a first part: further messages of this method bring the next parts (`html`, and
   * `more` until the last); the proxy writes each into the View's document as it comes and ignores anything after.
   */
  resourceReady: 'ui/notifications/sandbox-resource-ready',
  /** Proxy → host: the View's document failed (uncaught error, CSP violation); diagnostics for the host to show. */
  viewError: 'ui/notifications/sandbox-view-error',
  /** Proxy → host: the user pressed Escape in the View and the View left it unhandled. */
  escape: 'ui/notifications/sandbox-escape',
} as const;

/** The common prefix of every `SANDBOX_METHODS` entry. */
export const SANDBOX_METHOD_PREFIX = 'ui/notifications/sandbox-';

/** The `method` of a JSON-RPC message, if it has one. */
export const methodOf = (data: unknown): unknown => (typeof data === 'object' && data !== null ? (data as { method?: unknown }).method : undefined);

/** Whether a message is host ↔ proxy traffic (never relayed). */
export const isSandboxMethod = (method: unknown): boolean => typeof method === 'string' && method.startsWith(SANDBOX_METHOD_PREFIX);
