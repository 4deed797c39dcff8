import type { ListSessionsPage, SessionState, SessionSummary } from '../protocol/index.js';
import { ErrorCode } from '../protocol/index.js';
import { RpcError } from '../rpc/errors.js';

/** The SessionState fields a root-catalogue entry mirrors (besides `resource`, `createdAt`, `modifiedAt`). */
const MIRRORED = ['provider', 'title', 'status', 'activity', 'project', 'workingDirectories', 'origin', 'defaultChat'] as const;
/** Fields that never change after a session was added (AHP: senders omit them from `root/sessionSummaryChanged`). */
const IDENTITY: ReadonlySet<string> = new Set(['resource', 'provider', 'createdAt']);

const MAX_PAGE = 1000;

function summaryOf(resource: string, state: SessionState, createdAt: string, modifiedAt: string): SessionSummary {
  const summary: Record<string, unknown> = { resource };
  for (const key of MIRRORED) if (state[key] !== undefined) summary[key] = state[key];
  summary.createdAt = createdAt;
  summary.modifiedAt = modifiedAt;
  return summary as SessionSummary;
}

/**
 * The host's session list (root catalogue): one summary per live session in creation order, kept in step
 * with the session states, served by `listSessions` and announced by the `root/session*` notifications.
 */
export class SessionCatalog {
  readonly #entries = new Map<string, SessionSummary>();

  get size(): number {
    return this.#entries.size;
  }

  /** Adds a session; returns its summary (for `root/sessionAdded`). */
  add(uri: string, state: SessionState, now: string): SessionSummary {
    const summary = summaryOf(uri, state, now, now);
    this.#entries.set(uri, summary);
    return summary;
  }

  /** Removes a session; false when it was not listed. */
  remove(uri: string): boolean {
    return this.#entries.delete(uri);
  }

  /**
   * Brings a session's summary in line with its state. Returns the changed fields (with the new
   * `modifiedAt`) for `root/sessionSummaryChanged`, or undefined when nothing the catalogue shows changed.
   * A field that went away is sent as `null` (JSON cannot carry undefined).
   */
  update(uri: string, state: SessionState, now: string): Partial<SessionSummary> | undefined {
    const old = this.#entries.get(uri);
    if (!old) return undefined;
    const next = summaryOf(uri, state, old.createdAt, old.modifiedAt);
    const changes: Record<string, unknown> = {};
    for (const key of MIRRORED) {
      if (IDENTITY.has(key) || old[key] === next[key]) continue;
      changes[key] = next[key] === undefined ? null : next[key];
    }
    if (Object.keys(changes).length === 0) return undefined;
    next.modifiedAt = changes.modifiedAt = now;
    this.#entries.set(uri, next);
    return changes as Partial<SessionSummary>;
  }

  /** One `listSessions` page. `cursor` is the opaque value of an earlier page's `nextCursor`. */
  page(params: unknown): ListSessionsPage {
    const p = (typeof params === 'object' && params !== null ? params : {}) as { limit?: unknown; cursor?: unknown };
    if (p.limit !== undefined && !(Number.isInteger(p.limit) && (p.limit as number) > 0)) {
      throw new RpcError(ErrorCode.InvalidParams, "listSessions 'limit' must be a positive integer");
    }
    let start = 0;
    if (p.cursor !== undefined) {
      start = typeof p.cursor === 'string' && /^\d+$/.test(p.cursor) ? Number(p.cursor) : -1;
      if (start < 0) throw new RpcError(ErrorCode.InvalidParams, "listSessions 'cursor' is not one this host handed out");
    }
    const all = [...this.#entries.values()];
    const limit = Math.min((p.limit as number | undefined) ?? MAX_PAGE, MAX_PAGE);
    const items = all.slice(start, start + limit);
    return start + limit < all.length ? { items, nextCursor: String(start + limit) } : { items };
  }
}
