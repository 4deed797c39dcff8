import type { ProtectedResourceMetadata, URI } from './common.js';
import type { AnyAction, StateAction } from './actions.js';
import type { ChatState, SessionState } from './session.js';

/** Channel of every connection-level command. */
export const ROOT_CHANNEL = 'ahp-root://';

/** Versions this client offers, most preferred first. */
export const PROTOCOL_VERSIONS: readonly string[] = ['1.1.0', '1.0.0', '0.9.0'];

export interface BaseParams { channel: URI; _meta?: Record<string, unknown> }

export interface ClientCapabilities { mcpApps?: Record<string, never> }

export interface InitializeParams extends BaseParams {
  protocolVersions: string[];
  clientId: string;
  clientInfo?: { name: string; version?: string; title?: string };
  initialSubscriptions?: URI[];
  locale?: string;
  capabilities?: ClientCapabilities;
}

export interface Snapshot<S = SessionState | ChatState | unknown> {
  resource: URI;
  state: S;
  fromSeq: number;
}

export interface InitializeResult {
  protocolVersion: string;
  serverSeq: number;
  serverInfo?: { name: string; version?: string; title?: string };
  snapshots: Snapshot[];
  _meta?: Record<string, unknown>;
}

export interface SubscribeParams extends BaseParams {
  delivery?: { maxLatencyMs?: number };
  view?: { turns?: number };
}
export interface SubscribeResult { snapshot?: Snapshot }

export interface ActionEnvelope<A = StateAction | AnyAction> {
  channel: URI;
  action: A;
  serverSeq: number;
  /** Absent (or null) for server-originated actions. */
  origin?: { clientId: string; clientSeq: number } | null;
  /** Present when the host rejected the action; it was not applied. */
  rejectionReason?: string;
}

export interface DispatchActionParams<A = StateAction | AnyAction> { channel: URI; clientSeq: number; action: A }

export interface ChannelReplayCursor { channel: URI; lastSeenServerSeq: number }
export interface ReconnectParams extends BaseParams {
  clientId: string;
  subscriptions: ChannelReplayCursor[] | URI[];
  /** Legacy shape only. */
  lastSeenServerSeq?: number;
}
export type ChannelRecovery =
  | { kind: 'replay'; channel: URI; actions: ActionEnvelope[] }
  | { kind: 'snapshot'; channel: URI; snapshot: Snapshot }
  | { kind: 'missing'; channel: URI };
/** `_meta` may carry host extensions (see action-outcomes.ts); clients ignore keys they do not know. */
export type ReconnectResult = (
  | { channels: ChannelRecovery[] }
  | { type: 'replay'; actions: ActionEnvelope[]; missing: URI[] }
  | { type: 'snapshot'; snapshots: Snapshot[] }
) & { _meta?: Record<string, unknown> };

export interface AuthenticateParams extends BaseParams {
  resource: string;
  /** Empty string revokes. */
  token: string;
  expiresIn?: number;
  scopes?: string[];
}

export interface AuthRequiredNotificationParams extends BaseParams {
  resource: ProtectedResourceMetadata;
  reason?: string;
}
