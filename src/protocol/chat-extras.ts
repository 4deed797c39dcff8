import type { Open, URI } from './common.js';
import type { Message } from './session.js';

/** Which pending list a message sits in: the one steering message, or the ordered queue. */
export type PendingMessageKind = 'steering' | 'queued';

/** A message waiting to be sent: steering (injected into the running turn) or queued (starts the next turn). */
export interface PendingMessage {
  id: string;
  message: Message;
}

/** Work a chat started that outlives its turn (a background shell, a subagent); `kind` is open. */
export interface BackgroundWork {
  /** Unique per chat, opaque. */
  id: string;
  kind: Open<'shell' | 'subagent'>;
  label?: string;
  /** Shell work: the command it runs. */
  command?: string;
  /** Subagent work: the worker chat. */
  chat?: URI;
  startedAt?: string;
  [key: string]: unknown;
}

/** One answer value of a chat input request. */
export type ChatInputAnswerValue =
  | { kind: 'text'; value: string }
  | { kind: 'number'; value: number }
  | { kind: 'boolean'; value: boolean }
  | { kind: 'selected'; value: string; freeformValues?: string[] }
  | { kind: 'selected-many'; value: string[]; freeformValues?: string[] };

/** An answer to one question: a draft, a submitted value, or skipped. */
export type ChatInputAnswer =
  | { state: 'draft' | 'submitted'; value: ChatInputAnswerValue }
  | { state: 'skipped'; freeformValues?: string[] };

/** How an input request was closed. */
export type ChatInputResponse = Open<'accept' | 'decline' | 'cancel'>;

/**
 * A session artifact (1.1.0): a resource the agent produced. `type` is open; `resource` entries carry a
 * content reference to fetch with `resourceRead`.
 */
export interface Artifact {
  type: Open<'resource'>;
  uri: URI;
  label?: string;
  sizeHint?: number;
  contentType?: string;
  nonce?: string;
  displayKind?: string;
  relations?: unknown[];
  _meta?: Record<string, unknown>;
  [key: string]: unknown;
}
