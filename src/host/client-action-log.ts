import type { ClientActionOutcome } from '../protocol/action-outcomes.js';

/** Outcomes remembered per client: enough for every action a client can have pending across one drop. */
const PER_CLIENT = 1024;

/**
 * What the host did with each recent client action, by clientId and clientSeq, so a `reconnect` answered with
 * a snapshot can still tell the client which of its pending actions were applied (their echoes were lost).
 * Bounded: the newest PER_CLIENT outcomes per client, the `maxClients` most recently active clients.
 */
export class ClientActionLog {
  readonly #clients = new Map<string, Map<number, ClientActionOutcome>>();
  constructor(private readonly maxClients: number) {}

  record(clientId: string, outcome: ClientActionOutcome): void {
    let log = this.#clients.get(clientId);
    if (log) this.#clients.delete(clientId);
    else log = new Map();
    this.#clients.set(clientId, log);
    if (this.#clients.size > this.maxClients) this.#clients.delete(this.#clients.keys().next().value as string);
    log.delete(outcome.clientSeq);
    log.set(outcome.clientSeq, outcome);
    if (log.size > PER_CLIENT) log.delete(log.keys().next().value as number);
  }

  /** The remembered outcomes of these clientSeqs, in the order asked; unknown ones are left out. */
  outcomes(clientId: string, clientSeqs: readonly number[]): ClientActionOutcome[] {
    const log = this.#clients.get(clientId);
    return log ? clientSeqs.flatMap((seq) => log.get(seq) ?? []) : [];
  }
}
