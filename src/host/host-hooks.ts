import type { HostLogger } from './host-connection.js';
import type { ChatCreatedContext, ChatCreatedListener, ClientActionContext, ClientActionGuard, ClientActionReaction } from './host-types.js';
import { errorText } from '../protocol/guards.js';

type ReactionContext = Parameters<ClientActionReaction>[0];

/** The embedder's hooks; a hook that throws is logged and never takes the host down. */
export class HostHooks {
  readonly #guards = new Set<ClientActionGuard>();
  readonly #reactions = new Set<ClientActionReaction>();
  readonly #created = new Set<ChatCreatedListener>();
  readonly #log: HostLogger;

  constructor(log: HostLogger) {
    this.#log = log;
  }

  addGuard(guard: ClientActionGuard): () => void {
    this.#guards.add(guard);
    return () => void this.#guards.delete(guard);
  }

  addReaction(reaction: ClientActionReaction): () => void {
    this.#reactions.add(reaction);
    return () => void this.#reactions.delete(reaction);
  }

  addChatCreated(listener: ChatCreatedListener): () => void {
    this.#created.add(listener);
    return () => void this.#created.delete(listener);
  }

  /** The first guard's rejection reason, or undefined when every guard lets the action through. A throwing guard rejects. */
  rejection(ctx: ClientActionContext): string | undefined {
    for (const guard of [...this.#guards]) {
      try {
        const verdict = guard(ctx);
        if (typeof verdict === 'string') return verdict || 'Rejected by the host';
      } catch (err) {
        this.#log('onClientAction handler threw', err);
        return `Rejected by the host: ${errorText(err)}`;
      }
    }
    return undefined;
  }

  react(ctx: ReactionContext): void {
    for (const reaction of [...this.#reactions]) {
      try {
        reaction(ctx);
      } catch (err) {
        this.#log('afterClientAction handler threw', err);
      }
    }
  }

  chatCreated(ctx: ChatCreatedContext): void {
    for (const listener of [...this.#created]) {
      try {
        listener(ctx);
      } catch (err) {
        this.#log('afterCreateChat handler threw', err);
      }
    }
  }
}
