import type { AnyAction, ChatState, StateAction } from '../protocol/index.js';
import { isResumableTurn } from '../reducers/index.js';
import { isRecord } from '../protocol/guards.js';

type Rec = Record<string, unknown>;

function activeToolCall(state: ChatState, turnId: unknown, toolCallId: unknown): Rec | undefined {
  const turn = state.activeTurn;
  if (!isRecord(turn) || turn.id !== turnId || !Array.isArray(turn.responseParts)) return undefined;
  for (const part of turn.responseParts as unknown[]) {
    if (isRecord(part) && part.kind === 'toolCall' && isRecord(part.toolCall) && part.toolCall.toolCallId === toolCallId) return part.toolCall;
  }
  return undefined;
}

const isFailedCompletion = (action: Rec): boolean => isRecord(action.result) && action.result.success === false;

/**
 * Why the host refuses a client action on a chat channel before any embedder guard runs, or undefined.
 * AHP §6.3¹: `toolCallComplete` / `toolCallContentChanged` come only from the client that contributes the
 * tool — except a failed completion of an `auth-required` call, which is how any client cancels it.
 * §6.4: a client starts turns only with `origin.kind: 'user'`, and not while another turn runs.
 */
export function chatActionRejection(state: ChatState, action: StateAction | AnyAction, clientId: string): string | undefined {
  const a = action as Rec;
  switch (a.type) {
    case 'chat/turnStarted': {
      const message = a.message;
      if (!isRecord(message) || typeof message.text !== 'string') return "chat/turnStarted needs a 'message' with 'text'";
      if (!isRecord(message.origin) || message.origin.kind !== 'user') return "clients may only start turns with origin.kind 'user'";
      if (isRecord(state.activeTurn)) return `turn '${String(state.activeTurn.id)}' is still in progress`;
      if (Array.isArray(state.turns) && state.turns.some((t) => isRecord(t) && t.id === a.turnId)) return `turn '${String(a.turnId)}' already ran`;
      return undefined;
    }
    case 'chat/toolCallComplete':
    case 'chat/toolCallContentChanged': {
      const tc = activeToolCall(state, a.turnId, a.toolCallId);
      if (!tc) return `no tool call '${String(a.toolCallId)}' in the active turn '${String(a.turnId)}'`;
      if (a.type === 'chat/toolCallComplete' && tc.status === 'auth-required' && isFailedCompletion(a)) return undefined;
      const owner = isRecord(tc.contributor) && tc.contributor.kind === 'client' ? tc.contributor.clientId : undefined;
      if (owner !== clientId) return `tool call '${String(a.toolCallId)}' is not contributed by client '${clientId}'`;
      return undefined;
    }
    case 'chat/turnResume': {
      const last = Array.isArray(state.turns) ? state.turns[state.turns.length - 1] : undefined;
      if (isRecord(state.activeTurn)) return `turn '${String(state.activeTurn.id)}' is still in progress`;
      if (!isRecord(last) || last.id !== a.turnId || !isResumableTurn(last)) return `turn '${String(a.turnId)}' is not the latest turn ending in a resumable error`;
      return undefined;
    }
    default:
      return undefined;
  }
}
