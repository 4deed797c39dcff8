import type { ToolCallState } from '../protocol/tool-calls.js';
import { isAbsent, isRecord, isString, type Rec } from './guards.js';

/** Tool-call transitions of AHP §6.3. Each takes the current tool call and the action and returns the next one, or the same object for a no-op. */
export type ToolCallTransition = (tc: Rec, a: Rec) => Rec;

/** True for a tool call that waits for the user (confirmation or authentication). Compared, not a set lookup: it runs twice per tool-call action. */
export const needsInput = (tc: unknown): boolean => isRecord(tc) && (tc.status === 'pending-confirmation' || tc.status === 'pending-result-confirmation' || tc.status === 'auth-required');

/** True for a tool call that has finished (completed or cancelled). */
export const isTerminal = (tc: unknown): boolean => isRecord(tc) && (tc.status === 'completed' || tc.status === 'cancelled');

/**
 * Sets `o[key] = value` unless the value is undefined, so absent fields stay absent. Tool calls are built this
 * way instead of spreading and then deleting undefined keys: `delete` turns an object into a slow dictionary,
 * which made every tool-call fold several times slower and the tool call twice as big.
 */
function put(o: Rec, key: string, value: unknown): void {
  if (value !== undefined) o[key] = value;
}

/** Removes undefined values; only for the rare inputs (a result field explicitly undefined) the builders cannot avoid. */
function compact(o: Rec): Rec {
  for (const k of Object.keys(o)) if (o[k] === undefined) delete o[k];
  return o;
}

/** The fields that identify a tool call and its owner: a result cannot rename or re-own it. */
const IDENTITY = ['toolCallId', 'toolName', 'displayName', 'contributor'] as const;

/**
 * ToolCallBase + parameter fields (`toolInput` left out when `withInput` is false). Starts from a literal
 * of the fields every well-formed call has, so the object keeps them in-object (smaller than adding each).
 */
function paramsOf(tc: Rec, withInput = true): Rec {
  const o: Rec = { toolCallId: tc.toolCallId, toolName: tc.toolName, displayName: tc.displayName, invocationMessage: tc.invocationMessage ?? '' };
  // Only a malformed call from a snapshot lacks these; it may take the slow path.
  if (o.toolCallId === undefined || o.toolName === undefined || o.displayName === undefined) compact(o);
  put(o, 'intention', tc.intention);
  put(o, 'contributor', tc.contributor);
  put(o, '_meta', tc._meta);
  if (withInput) put(o, 'toolInput', tc.toolInput);
  return o;
}

const isStringOrMarkdown = (v: unknown): boolean => isString(v) || (isRecord(v) && isString(v.markdown));
const isContributor = (v: unknown): v is Rec => isRecord(v) && isString(v.kind);
const CONFIRMED: ReadonlySet<unknown> = new Set(['not-needed', 'user-action', 'setting']);

/** `chat/toolCallStart`: the new streaming tool call (validated), or undefined for garbage. */
export function startToolCall(a: Rec): Rec | undefined {
  if (!isString(a.toolCallId) || !isString(a.toolName) || !isString(a.displayName)) return undefined;
  if (!isAbsent(a.contributor) && !isContributor(a.contributor)) return undefined;
  const tc: Rec = { toolCallId: a.toolCallId, toolName: a.toolName, displayName: a.displayName };
  if (isString(a.intention)) tc.intention = a.intention;
  put(tc, 'contributor', a.contributor ?? undefined);
  if (isRecord(a._meta)) tc._meta = a._meta;
  tc.status = 'streaming';
  return tc;
}

/** `chat/toolCallDelta`: streaming only; appends to `partialInput`, replaces `invocationMessage` if given. */
export const delta: ToolCallTransition = (tc, a) => {
  if (tc.status !== 'streaming') return tc;
  const content = isString(a.content) ? a.content : undefined;
  const message = isStringOrMarkdown(a.invocationMessage) ? a.invocationMessage : undefined;
  if (content === undefined && message === undefined) return tc;
  const next = { ...tc };
  if (content !== undefined) next.partialInput = (isString(tc.partialInput) ? tc.partialInput : '') + content;
  if (message !== undefined) next.invocationMessage = message;
  return next;
};

/** Contributor after `chat/toolCallReady`: a client-owned call keeps its owner; nothing becomes client-owned. */
function refineContributor(old: unknown, offered: unknown): unknown {
  if (isContributor(old) && old.kind === 'client') return old;
  return isContributor(offered) && offered.kind !== 'client' ? offered : old;
}

const PENDING_FIELDS = ['confirmationTitle', 'riskAssessment', 'edits', 'editable', 'options'] as const;

/** `chat/toolCallReady`: streaming/running/pending-confirmation → running (confirmed) or pending-confirmation. */
export const ready: ToolCallTransition = (tc, a) => {
  const from = tc.status;
  if (from !== 'streaming' && from !== 'running' && from !== 'pending-confirmation') return tc;
  if (!isStringOrMarkdown(a.invocationMessage)) return tc;
  if (!isAbsent(a.confirmed) && !CONFIRMED.has(a.confirmed)) return tc;
  const next: Rec = {};
  put(next, 'toolCallId', tc.toolCallId);
  put(next, 'toolName', tc.toolName);
  put(next, 'displayName', tc.displayName);
  put(next, 'intention', isString(a.intention) ? a.intention : tc.intention);
  put(next, 'contributor', refineContributor(tc.contributor, a.contributor));
  put(next, '_meta', tc._meta);
  next.invocationMessage = a.invocationMessage;
  put(next, 'toolInput', a.toolInput ?? (from === 'streaming' ? undefined : tc.toolInput));
  if (!isAbsent(a.confirmed)) {
    next.status = 'running';
    next.confirmed = a.confirmed;
    return next;
  }
  next.status = 'pending-confirmation';
  for (const k of PENDING_FIELDS) put(next, k, a[k] ?? (from === 'pending-confirmation' ? tc[k] : undefined));
  return next;
};

/** `chat/toolCallConfirmed`: pending-confirmation → running (approved) or cancelled (denied/skipped). */
export const confirmed: ToolCallTransition = (tc, a) => {
  if (tc.status !== 'pending-confirmation') return tc;
  const options = Array.isArray(tc.options) ? tc.options : [];
  const selectedOption = isString(a.selectedOptionId) ? options.find((o: unknown) => isRecord(o) && o.id === a.selectedOptionId) : undefined;
  if (a.approved === true) {
    if (!CONFIRMED.has(a.confirmed)) return tc;
    const inlineInput = isString(a.editedToolInput) && !isRecord(tc.toolInput);
    const running = paramsOf(tc, false);
    put(running, 'toolInput', inlineInput ? a.editedToolInput : tc.toolInput);
    running.status = 'running';
    running.confirmed = a.confirmed;
    put(running, 'selectedOption', selectedOption);
    return running;
  }
  if (a.approved !== false || (a.reason !== 'denied' && a.reason !== 'skipped')) return tc;
  const cancelled = paramsOf(tc);
  cancelled.status = 'cancelled';
  cancelled.reason = a.reason;
  if (isStringOrMarkdown(a.reasonMessage)) cancelled.reasonMessage = a.reasonMessage;
  if (isRecord(a.userSuggestion)) cancelled.userSuggestion = a.userSuggestion;
  put(cancelled, 'selectedOption', selectedOption);
  return cancelled;
};

/** The ToolCallResult fields, copied one by one (spreading the result made every completed call ~4× bigger). */
const RESULT_FIELD_SET: ReadonlySet<string> = new Set(['success', 'pastTenseMessage', 'content', 'structuredContent', 'error']);

/** A result with only ToolCallResult fields and no explicitly undefined one (everything a host sends as JSON). */
function isPlainResult(result: Rec): boolean {
  for (const k in result) if (!RESULT_FIELD_SET.has(k) || result[k] === undefined) return false;
  return true;
}

/**
 * Any other result: every field spread on (extension fields included, an explicitly undefined one removing the
 * field), except that a result cannot rename or re-own the tool call: subscribers and later actions find it by id.
 */
function withOddResult(head: Rec, tc: Rec, result: Rec, status: string): Rec {
  const next: Rec = { ...head, ...result };
  for (const k of IDENTITY) next[k] = tc[k];
  next.status = status;
  return compact(next);
}

/**
 * `chat/toolCallComplete`: from running, pending-confirmation (then confirmed 'not-needed') or
 * auth-required (failed results only). Result fields are spread on; earlier content is kept when the result has none.
 */
export const complete: ToolCallTransition = (tc, a) => {
  const result = a.result;
  if (!isRecord(result) || typeof result.success !== 'boolean') return tc;
  const from = tc.status;
  if (from !== 'running' && from !== 'pending-confirmation' && !(from === 'auth-required' && result.success === false)) return tc;
  const awaitConfirmation = a.requiresResultConfirmation === true && from !== 'auth-required';
  const status = awaitConfirmation ? 'pending-result-confirmation' : 'completed';
  const confirmedBy = from === 'pending-confirmation' ? 'not-needed' : tc.confirmed;
  if (!isPlainResult(result)) {
    const head = paramsOf(tc);
    put(head, 'confirmed', confirmedBy);
    put(head, 'selectedOption', tc.selectedOption);
    put(head, 'content', tc.content);
    return withOddResult(head, tc, result, status);
  }
  // Most calls end here and stay in the chat's history: the fields every finished call has go in one literal (kept in-object, the smallest layout).
  const next: Rec = {
    toolCallId: tc.toolCallId, toolName: tc.toolName, displayName: tc.displayName, invocationMessage: tc.invocationMessage ?? '',
    status, confirmed: confirmedBy, success: result.success, pastTenseMessage: result.pastTenseMessage,
  };
  put(next, 'intention', tc.intention);
  put(next, 'contributor', tc.contributor);
  put(next, '_meta', tc._meta);
  put(next, 'toolInput', tc.toolInput);
  put(next, 'selectedOption', tc.selectedOption);
  put(next, 'content', result.content !== undefined ? result.content : tc.content);
  put(next, 'structuredContent', result.structuredContent);
  put(next, 'error', result.error);
  // Only malformed input (a call from a snapshot without its names, a result without pastTenseMessage) leaves holes.
  return next.toolName === undefined || next.displayName === undefined || next.confirmed === undefined || next.pastTenseMessage === undefined ? compact(next) : next;
};

/** `chat/toolCallResultConfirmed`: pending-result-confirmation → completed or cancelled (result-denied). */
export const resultConfirmed: ToolCallTransition = (tc, a) => {
  if (tc.status !== 'pending-result-confirmation' || typeof a.approved !== 'boolean') return tc;
  if (a.approved) return { ...tc, status: 'completed' };
  const next = paramsOf(tc);
  next.status = 'cancelled';
  next.reason = 'result-denied';
  put(next, 'selectedOption', tc.selectedOption);
  return next;
};

/** `chat/toolCallContentChanged`: running only; replaces `content`. */
export const contentChanged: ToolCallTransition = (tc, a) =>
  tc.status === 'running' && Array.isArray(a.content) ? { ...tc, content: a.content } : tc;

/** `chat/toolCallAuthRequired`: a running MCP-contributed call → auth-required (content, confirmed, selectedOption kept). */
export const authRequired: ToolCallTransition = (tc, a) => {
  if (tc.status !== 'running' || !isContributor(tc.contributor) || tc.contributor.kind !== 'mcp') return tc;
  if (!isRecord(a.auth) || !isRecord(a.auth.resource)) return tc;
  return { ...tc, status: 'auth-required', auth: a.auth };
};

/** `chat/toolCallAuthResolved`: auth-required → running (fields kept). */
export const authResolved: ToolCallTransition = (tc) => {
  if (tc.status !== 'auth-required') return tc;
  const { auth: _auth, ...rest } = tc;
  return { ...rest, status: 'running' };
};

/**
 * Forced end of a tool call when its turn ends: anything not completed/cancelled becomes
 * cancelled/skipped (a streaming call keeps `invocationMessage ?? ''` and loses its input).
 */
export function forceCancel(tc: Rec): Rec {
  if (isTerminal(tc)) return tc;
  const next = paramsOf(tc, tc.status !== 'streaming');
  next.status = 'cancelled';
  next.reason = 'skipped';
  put(next, 'selectedOption', tc.selectedOption);
  return next;
}

/** Casts a transition result back to the protocol type. */
export const asToolCall = (tc: Rec): ToolCallState => tc as unknown as ToolCallState;
