import { isRecord } from './guards.js';
/**
 * Size limits on what one client may put into shared state. The host enforces them (and refuses with
 * -32602 / a rejection envelope); the client checks the same numbers before sending so an oversized
 * action is refused locally, before anything is serialized onto the socket.
 */
export interface ActionLimits {
  /** UTF-8 bytes of one message's `text` (turnStarted, pendingMessageSet, createChat's initialMessage, a denial's suggestion). */
  maxMessageTextBytes: number;
  /** UTF-8 bytes of one message's `attachments`, serialized as JSON. */
  maxAttachmentBytes: number;
  /** UTF-8 bytes of one whole action, serialized as JSON. */
  maxActionBytes: number;
}

/**
 * Defaults: 256 KiB of text is about 60 000 words, far beyond any typed or pasted prompt; 8 MiB of
 * attachments fits the largest real MCP App resource (a 4.4 MB PDF viewer, 5.9 MB as base64) with
 * room to spare; 10 MiB for a whole action covers both and stays under the 16 MiB frame limit.
 */
export const DEFAULT_ACTION_LIMITS: Readonly<ActionLimits> = Object.freeze({
  maxMessageTextBytes: 256 * 1024,
  maxAttachmentBytes: 8 * 1024 * 1024,
  maxActionBytes: 10 * 1024 * 1024,
});

/** What broke a limit: which one, the limit and the size found (bytes). */
export interface LimitViolation {
  limit: keyof ActionLimits;
  max: number;
  size: number;
  message: string;
}


/** UTF-8 byte length of a string without allocating its encoding. */
export function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

const sizeText = (bytes: number): string =>
  bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toFixed(1)} MiB` : bytes >= 1024 ? `${(bytes / 1024).toFixed(1)} KiB` : `${bytes} bytes`;

function violation(limit: keyof ActionLimits, max: number, size: number, what: string): LimitViolation {
  // Rounded sizes that read the same would hide why it was refused: then give exact bytes.
  const [a, b] = sizeText(size) === sizeText(max) ? [`${size} bytes`, `${max} bytes`] : [sizeText(size), sizeText(max)];
  return { limit, max, size, message: `${what} is ${a}; the limit is ${b}` };
}

/** JSON size in UTF-8 bytes; values JSON cannot serialize (cycles, BigInt) count as over any limit. */
function jsonLength(v: unknown): number {
  try {
    const text = JSON.stringify(v);
    return text === undefined ? 0 : utf8Length(text);
  } catch {
    return Infinity;
  }
}

/** Messages an action carries: a turn's message, a pending message, a denial's suggestion, an initial message. */
function messagesOf(action: Record<string, unknown>): unknown[] {
  return [action.message, action.userSuggestion, action.initialMessage].filter(isRecord);
}

/** Checks one message (text, then attachments) against the limits. */
export function messageLimitViolation(message: unknown, limits: ActionLimits = DEFAULT_ACTION_LIMITS): LimitViolation | undefined {
  if (!isRecord(message)) return undefined;
  if (typeof message.text === 'string' && message.text.length > limits.maxMessageTextBytes / 3) {
    const size = utf8Length(message.text);
    if (size > limits.maxMessageTextBytes) return violation('maxMessageTextBytes', limits.maxMessageTextBytes, size, 'The message text');
  }
  if (message.attachments !== undefined) {
    const size = jsonLength(message.attachments);
    if (size > limits.maxAttachmentBytes) return violation('maxAttachmentBytes', limits.maxAttachmentBytes, size, 'The attachments');
  }
  return undefined;
}

/**
 * The first limit an action breaks, or undefined. Cheap for ordinary actions: text is only measured
 * when it could be over, and the whole action is serialized once.
 */
export function actionLimitViolation(action: unknown, limits: ActionLimits = DEFAULT_ACTION_LIMITS): LimitViolation | undefined {
  if (!isRecord(action)) return undefined;
  for (const message of messagesOf(action)) {
    const found = messageLimitViolation(message, limits);
    if (found) return found;
  }
  const size = jsonLength(action);
  if (size > limits.maxActionBytes) return violation('maxActionBytes', limits.maxActionBytes, size, 'The action');
  return undefined;
}
