/** Waits for a client's answer to a pending tool call (`chat/toolCallConfirmed` / `chat/toolCallResultConfirmed`). */

/** Which question a tool call is waiting on. */
export type AnswerKind = 'confirmation' | 'result';

/** What the host saw after the client's answer was applied: approved or denied (the tool call's new status decides). */
export interface Answer {
  approved: boolean;
  selectedOptionId?: string;
  editedToolInput?: string;
}

interface Waiter {
  resolve(answer: Answer): void;
  reject(err: unknown): void;
}

const key = (kind: AnswerKind, chat: string, turnId: string, toolCallId: string) => JSON.stringify([kind, chat, turnId, toolCallId]);

/** Open questions by chat, turn and tool call. */
export class PendingAnswers {
  readonly #waiting = new Map<string, Waiter>();

  /** Resolves with the answer, or rejects with the signal's reason when it aborts first. */
  wait(kind: AnswerKind, chat: string, turnId: string, toolCallId: string, signal: AbortSignal): Promise<Answer> {
    const k = key(kind, chat, turnId, toolCallId);
    return new Promise<Answer>((resolve, reject) => {
      if (signal.aborted) return reject(signal.reason);
      const onAbort = () => {
        this.#waiting.delete(k);
        reject(signal.reason);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.#waiting.set(k, {
        resolve: (a) => {
          signal.removeEventListener('abort', onAbort);
          resolve(a);
        },
        reject,
      });
    });
  }

  /** Hands an answer to whoever waits for it; false when nobody does. */
  answer(kind: AnswerKind, chat: string, turnId: string, toolCallId: string, answer: Answer): boolean {
    const k = key(kind, chat, turnId, toolCallId);
    const waiter = this.#waiting.get(k);
    if (!waiter) return false;
    this.#waiting.delete(k);
    waiter.resolve(answer);
    return true;
  }
}
