import type { ProtectedResourceMetadata, URI } from './common.js';
import type { Customization } from './customizations.js';

/** A model an agent offers. */
export interface SessionModelInfo {
  id: string;
  provider: string;
  name: string;
  maxContextWindow?: number;
  supportsVision?: boolean;
  _meta?: Record<string, unknown>;
  [key: string]: unknown;
}

/** An agent backend the host offers (`RootState.agents`). */
export interface AgentInfo {
  provider: string;
  displayName: string;
  description: string;
  models: SessionModelInfo[];
  protectedResources?: ProtectedResourceMetadata[];
  customizations?: Customization[];
  capabilities?: { multipleChats?: { fork?: boolean } } & Record<string, unknown>;
  [key: string]: unknown;
}

/**
 * State of the `ahp-root://` channel. The session list is not part of it: it comes from `listSessions`
 * and the `root/sessionAdded|Removed|SummaryChanged` notifications.
 */
export interface RootState {
  agents: AgentInfo[];
  /** Number of live sessions. */
  activeSessions?: number;
  terminals?: unknown[];
  config?: { schema?: unknown; values: Record<string, unknown> };
  /**
   * Host metadata. This SDK's host puts the session a client should open by default in
   * `_meta.defaultSession` (an implementation-defined key; AHP has no such field).
   */
  _meta?: Record<string, unknown>;
}

/** The root-catalogue entry of a session (`listSessions`, `root/sessionAdded`). */
export interface SessionSummary {
  resource: URI;
  provider: string;
  title: string;
  status: number;
  activity?: string;
  /** ISO timestamp. */
  createdAt: string;
  /** ISO timestamp. */
  modifiedAt: string;
  project?: { uri: URI; displayName: string };
  workingDirectories?: URI[];
  origin?: unknown;
  defaultChat?: URI;
  _meta?: Record<string, unknown>;
  [key: string]: unknown;
}

export interface ListSessionsParams {
  channel: URI;
  filter?: unknown;
  limit?: number;
  cursor?: string;
  _meta?: Record<string, unknown>;
}

/** A `listSessions` answer. */
export interface ListSessionsPage {
  items: SessionSummary[];
  nextCursor?: string;
}

/** `root/sessionAdded` params. */
export interface SessionAddedParams { channel: URI; summary: SessionSummary }
/** `root/sessionRemoved` params. */
export interface SessionRemovedParams { channel: URI; session: URI }
/** `root/sessionSummaryChanged` params; identity fields (`resource`, `provider`, `createdAt`) never change. */
export interface SessionSummaryChangedParams { channel: URI; session: URI; changes: Partial<SessionSummary> }

/** Root notifications a host sends to clients subscribed to `ahp-root://`. */
export const ROOT_NOTIFICATIONS = {
  sessionAdded: 'root/sessionAdded',
  sessionRemoved: 'root/sessionRemoved',
  sessionSummaryChanged: 'root/sessionSummaryChanged',
} as const;

/** Implementation-defined `RootState._meta` key naming the host's default session URI. */
export const DEFAULT_SESSION_META_KEY = 'defaultSession';
