/** Reports one agent turn on a chat channel as server actions: markdown parts, the tool-call lifecycle, the turn's end. */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { HostCore } from '../../../src/host.js';
import type {
  ChatAction,
  ConfirmationOption,
  StringOrMarkdown,
  ToolCallContributor,
  ToolCallResult,
  ToolCallState,
  ToolResultContent,
} from '../../../src/protocol/index.js';

/** Thrown (and swallowed by the agent) once the turn was cancelled: nothing more may be reported. */
export class TurnAborted extends Error {
  override name = 'TurnAborted';
}

type WithoutTurn<A> = A extends unknown ? Omit<A, 'turnId'> : never;
type TurnAction = WithoutTurn<ChatAction>;

/** Splits text into chunks of a few words (whitespace kept), so streamed markdown arrives word by word. */
export function wordChunks(text: string, wordsPerChunk = 3): string[] {
  const words = text.match(/\S+\s*|\s+/g) ?? [''];
  const out: string[] = [];
  for (let i = 0; i < words.length; i += wordsPerChunk) out.push(words.slice(i, i + wordsPerChunk).join(''));
  return out;
}

/** Splits a string into pieces of at most `size` characters. */
export function charChunks(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

/** One turn of one chat. Every dispatch first checks the turn's signal, so a cancelled turn stays silent. */
export class TurnReporter {
  readonly #host: HostCore;
  readonly #startedAt = performance.now();

  constructor(
    host: HostCore,
    readonly chat: string,
    readonly turnId: string,
    readonly signal: AbortSignal,
    /** Pause between streamed chunks. */
    readonly delayMs: number,
  ) {
    this.#host = host;
  }

  /** Dispatches a chat action of this turn; throws TurnAborted once the turn was cancelled. */
  dispatch(action: TurnAction): void {
    if (this.signal.aborted) throw new TurnAborted();
    this.#host.dispatchServerAction(this.chat, { ...action, turnId: this.turnId } as ChatAction);
  }

  /** Waits `delayMs`; throws TurnAborted when the turn is cancelled meanwhile. */
  async pause(): Promise<void> {
    try {
      await sleep(this.delayMs, undefined, { signal: this.signal });
    } catch {
      throw new TurnAborted();
    }
  }

  /** Streams a markdown response part: `chat/responsePart` with the first words, then `chat/delta`s (at most about a dozen). */
  async markdown(text: string): Promise<void> {
    const words = text.split(/\s+/).length;
    const [first = '', ...rest] = wordChunks(text, Math.max(3, Math.ceil(words / 12)));
    const partId = randomUUID();
    this.dispatch({ type: 'chat/responsePart', part: { kind: 'markdown', id: partId, content: first } });
    for (const chunk of rest) {
      await this.pause();
      this.dispatch({ type: 'chat/delta', partId, content: chunk });
    }
  }

  /** A new tool call in this turn. */
  toolCall(toolCallId: string = randomUUID()): ToolCallReporter {
    return new ToolCallReporter(this, this.#host, toolCallId);
  }

  /** Milliseconds since the agent took the turn. */
  get duration(): number {
    return Math.max(0, Math.round(performance.now() - this.#startedAt));
  }

  /** Ends the turn normally. */
  complete(): void {
    this.dispatch({ type: 'chat/turnComplete', duration: this.duration });
  }

  /** Ends the turn with an error part (the agent itself failed). */
  error(message: string): void {
    this.dispatch({ type: 'chat/error', duration: this.duration, part: { kind: 'error', error: { errorType: 'AgentError', message } } });
  }
}

/** The lifecycle of one tool call (AHP §6.3), as the server side dispatches it. */
export class ToolCallReporter {
  readonly #host: HostCore;

  constructor(readonly turn: TurnReporter, host: HostCore, readonly toolCallId: string) {
    this.#host = host;
  }

  #dispatch(action: Record<string, unknown> & { type: string }): void {
    this.turn.dispatch({ ...action, toolCallId: this.toolCallId } as unknown as TurnAction);
  }

  /** `chat/toolCallStart` (status streaming). */
  start(fields: { toolName: string; displayName: string; contributor: ToolCallContributor; _meta?: Record<string, unknown> }): void {
    this.#dispatch({ type: 'chat/toolCallStart', ...fields });
  }

  /** `chat/toolCallDelta`s carrying the JSON arguments in small pieces, `delayMs` apart. */
  async streamInput(json: string, chunkSize = 8): Promise<void> {
    const chunks = charChunks(json, chunkSize);
    for (const [i, content] of chunks.entries()) {
      if (i > 0) await this.turn.pause();
      this.#dispatch({ type: 'chat/toolCallDelta', content });
    }
  }

  /** `chat/toolCallReady`: with `confirmed` the call runs; without it waits for confirmation with these options. */
  ready(fields: {
    invocationMessage: StringOrMarkdown;
    toolInput: string;
    confirmed?: 'not-needed' | 'setting';
    confirmationTitle?: StringOrMarkdown;
    options?: readonly ConfirmationOption[];
    editable?: boolean;
  }): void {
    this.#dispatch({ type: 'chat/toolCallReady', ...fields });
  }

  /** `chat/toolCallContentChanged` (running only): live partial output such as progress. */
  contentChanged(content: ToolResultContent[]): void {
    this.#dispatch({ type: 'chat/toolCallContentChanged', content });
  }

  /** `chat/toolCallComplete`, optionally asking the user to confirm the result first; `_meta` replaces the tool call's. */
  complete(result: ToolCallResult, requiresResultConfirmation = false, _meta?: Record<string, unknown>): void {
    this.#dispatch({ type: 'chat/toolCallComplete', result, ...(requiresResultConfirmation && { requiresResultConfirmation: true }), ...(_meta && { _meta }) });
  }

  /** The tool call as the host holds it now (undefined once its turn ended). */
  state(): ToolCallState | undefined {
    const turn = this.#host.getChatState(this.turn.chat)?.activeTurn;
    if (!turn || turn.id !== this.turn.turnId) return undefined;
    for (const part of turn.responseParts) if (part.kind === 'toolCall' && part.toolCall.toolCallId === this.toolCallId) return part.toolCall;
    return undefined;
  }
}
