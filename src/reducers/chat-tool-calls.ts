import type { ToolCallState } from '../protocol/tool-calls.js';
import { isAbsent, isRecord, isString, type Rec } from './guards.js';

/** Tool-call transitions of AHP §6.3. Each takes the current tool call and the action and returns the next one, or the same object for a no-op. */
export type ToolCallTransition = (tc: Rec, a: Rec) => Rec;

const STATUS_OPEN_FOR_INPUT: ReadonlySet<unknown> = new Set(['pending-confirmation', 'pending-result-confirmation', 'auth-required']);

/** True for a tool call that waits for the user (confirmation or authentication). */
export const needsInput = (tc: unknown): boolean => isRecord(tc) && STATUS_OPEN_FOR_INPUT.has(tc.status);

/** True for a tool call that has finished (completed or cancelled). */
export const isTerminal = (tc: unknown): boolean => isRecord(tc) && (tc.status === 'completed' || tc.status === 'cancelled');

/** Removes undefined values so absent fields stay absent. */
function compact(o: Rec): Rec {
  for (const k of Object.keys(o)) if (o[k] === undefined) delete o[k];
  return o;
}

/** ToolCallBase fields of a tool call. */
const baseOf = (tc: Rec): Rec =>
  compact({ toolCallId: tc.toolCallId, toolName: tc.toolName, displayName: tc.displayName, intention: tc.intention, contributor: tc.contributor, _meta: tc._meta });

/** The fields that identify a tool call and its owner (undefined ones are compacted away by the caller). */
const identityOf = (tc: Rec): Rec => ({ toolCallId: tc.toolCallId, toolName: tc.toolName, displayName: tc.displayName, contributor: tc.contributor });

/** ToolCallBase + parameter fields. */
const paramsOf = (tc: Rec): Rec => compact({ ...baseOf(tc), invocationMessage: tc.invocationMessage ?? '', toolInput: tc.toolInput });

const isStringOrMarkdown = (v: unknown): boolean => isString(v) || (isRecord(v) && isString(v.markdown));
const isContributor = (v: unknown): v is Rec => isRecord(v) && isString(v.kind);
const CONFIRMED: ReadonlySet<unknown> = new Set(['not-needed', 'user-action', 'setting']);

/** `chat/toolCallStart`: the new streaming tool call (validated), or undefined for garbage. */
export function startToolCall(a: Rec): Rec | undefined {
  if (!isString(a.toolCallId) || !isString(a.toolName) || !isString(a.displayName)) return undefined;
  if (!isAbsent(a.contributor) && !isContributor(a.contributor)) return undefined;
  return compact({
    toolCallId: a.toolCallId, toolName: a.toolName, displayName: a.displayName,
    intention: isString(a.intention) ? a.intention : undefined,
    contributor: a.contributor ?? undefined,
    _meta: isRecord(a._meta) ? a._meta : undefined,
    status: 'streaming',
  });
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
  const base = compact({
    ...baseOf(tc),
    intention: isString(a.intention) ? a.intention : tc.intention,
    contributor: refineContributor(tc.contributor, a.contributor),
    invocationMessage: a.invocationMessage,
    toolInput: a.toolInput ?? (from === 'streaming' ? undefined : tc.toolInput),
  });
  if (!isAbsent(a.confirmed)) return { ...base, status: 'running', confirmed: a.confirmed };
  const pending: Rec = { ...base, status: 'pending-confirmation' };
  for (const k of PENDING_FIELDS) {
    const v = a[k] ?? (from === 'pending-confirmation' ? tc[k] : undefined);
    if (v !== undefined) pending[k] = v;
  }
  return pending;
};

/** `chat/toolCallConfirmed`: pending-confirmation → running (approved) or cancelled (denied/skipped). */
export const confirmed: ToolCallTransition = (tc, a) => {
  if (tc.status !== 'pending-confirmation') return tc;
  const options = Array.isArray(tc.options) ? tc.options : [];
  const selectedOption = isString(a.selectedOptionId) ? options.find((o: unknown) => isRecord(o) && o.id === a.selectedOptionId) : undefined;
  if (a.approved === true) {
    if (!CONFIRMED.has(a.confirmed)) return tc;
    const inlineInput = isString(a.editedToolInput) && !isRecord(tc.toolInput);
    return compact({
      ...paramsOf(tc),
      toolInput: inlineInput ? a.editedToolInput : tc.toolInput,
      status: 'running', confirmed: a.confirmed, selectedOption,
    });
  }
  if (a.approved !== false || (a.reason !== 'denied' && a.reason !== 'skipped')) return tc;
  return compact({
    ...paramsOf(tc), status: 'cancelled', reason: a.reason,
    reasonMessage: isStringOrMarkdown(a.reasonMessage) ? a.reasonMessage : undefined,
    userSuggestion: isRecord(a.userSuggestion) ? a.userSuggestion : undefined,
    selectedOption,
  });
};

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
  return compact({
    ...paramsOf(tc),
    confirmed: from === 'pending-confirmation' ? 'not-needed' : tc.confirmed,
    selectedOption: tc.selectedOption,
    content: tc.content,
    ...result,
    // A result cannot rename or re-own the tool call: subscribers and later actions find it by id.
    ...identityOf(tc),
    status: awaitConfirmation ? 'pending-result-confirmation' : 'completed',
  });
};

/** `chat/toolCallResultConfirmed`: pending-result-confirmation → completed or cancelled (result-denied). */
export const resultConfirmed: ToolCallTransition = (tc, a) => {
  if (tc.status !== 'pending-result-confirmation' || typeof a.approved !== 'boolean') return tc;
  if (a.approved) return { ...tc, status: 'completed' };
  return compact({ ...paramsOf(tc), status: 'cancelled', reason: 'result-denied', selectedOption: tc.selectedOption });
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
  const params = paramsOf(tc);
  if (tc.status === 'streaming') delete params.toolInput;
  return compact({ ...params, status: 'cancelled', reason: 'skipped', selectedOption: tc.selectedOption });
}

/** Casts a transition result back to the protocol type. */
export const asToolCall = (tc: Rec): ToolCallState => tc as unknown as ToolCallState;
