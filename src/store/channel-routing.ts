import { isClientDispatchable, type AnyAction } from '../protocol/actions.js';
import { ROOT_CHANNEL } from '../protocol/commands.js';
import { isRecord } from '../protocol/guards.js';


/** A channel a store can watch as a chat: any non-empty URI but the session's own and the root channel. */
export function isChatChannel(session: string, uri: unknown): uri is string {
  return typeof uri === 'string' && uri !== '' && uri !== session && uri !== ROOT_CHANNEL;
}

/**
 * The channel a dispatched action goes to (the one rule of every store): `chat/*` actions need a chat
 * channel, session actions go to the session. Throws a TypeError (prefixed with `who`) for an action a
 * client may not dispatch or a channel that does not fit.
 */
export function routeAction(who: string, session: string, action: AnyAction, channel: string | undefined): string {
  if (!isClientDispatchable(action)) {
    const type = isRecord(action) ? String((action as { type?: unknown }).type) : String(action);
    throw new TypeError(`${who}.dispatch: "${type}" is not a client-dispatchable action type`);
  }
  const { type } = action;
  if (type.startsWith('chat/')) {
    if (!isChatChannel(session, channel)) throw new TypeError(`${who}.dispatch: "${type}" needs a chat channel, got ${JSON.stringify(channel)}`);
    return channel;
  }
  if (channel !== undefined && channel !== session) {
    throw new TypeError(`${who}.dispatch: "${type}" belongs on the session channel ${session}, not ${JSON.stringify(channel)}`);
  }
  return session;
}

/** Size limits a store checks before sending (in characters, which never exceed UTF-8 bytes: nothing the host accepts is refused). */
export interface ActionSizeLimits {
  /** One action as JSON; default 10 MiB (the host's default). */
  maxActionBytes?: number;
  /** One message's text; default 256 KiB (the host's default). */
  maxMessageTextBytes?: number;
}

/** Refuses (RangeError, prefixed with `who`) an action over the size limits, before anything is sent or folded into a view. */
export function checkActionSize(who: string, action: AnyAction, limits: ActionSizeLimits = {}): void {
  const maxText = limits.maxMessageTextBytes ?? 256 * 1024;
  const maxAction = limits.maxActionBytes ?? 10 * 1024 * 1024;
  const over = (what: string, size: number, max: number) => new RangeError(`${who}.dispatch: ${what} is ${size} characters; the limit is ${max} bytes`);
  const text = (action as { message?: { text?: unknown } }).message?.text;
  // The cheap check first: a 50 MB text is refused without serializing it.
  if (typeof text === 'string' && text.length > maxText) throw over('the message text', text.length, maxText);
  const size = JSON.stringify(action).length;
  if (size > maxAction) throw over(`"${action.type}"`, size, maxAction);
}
