import type { AnyAction, ChatState, SessionState, StateAction } from '../protocol/index.js';
import { chatReducer, sessionReducer } from '../reducers/index.js';
import { ActionLog } from './action-log.js';

/** What kind of state a channel carries. */
export type ChannelKind = 'session' | 'chat';

export interface SessionChannel {
  readonly kind: 'session';
  readonly uri: string;
  state: SessionState;
  readonly log: ActionLog;
}

export interface ChatChannel {
  readonly kind: 'chat';
  readonly uri: string;
  /** The session whose `chats` catalog lists this chat. */
  readonly session: string;
  state: ChatState;
  readonly log: ActionLog;
}

export type HostChannel = SessionChannel | ChatChannel;

/** Every state-bearing channel of a host (sessions and chats share one URI space), each with its bounded action log. */
export class ChannelRegistry {
  readonly #channels = new Map<string, HostChannel>();
  readonly #logLimit: number;

  constructor(logLimit: number) {
    this.#logLimit = logLimit;
  }

  get(uri: string): HostChannel | undefined {
    return this.#channels.get(uri);
  }

  has(uri: string): boolean {
    return this.#channels.has(uri);
  }

  session(uri: string): SessionChannel | undefined {
    const ch = this.#channels.get(uri);
    return ch?.kind === 'session' ? ch : undefined;
  }

  chat(uri: string): ChatChannel | undefined {
    const ch = this.#channels.get(uri);
    return ch?.kind === 'chat' ? ch : undefined;
  }

  addSession(uri: string, state: SessionState): SessionChannel {
    const ch: SessionChannel = { kind: 'session', uri, state, log: new ActionLog(this.#logLimit) };
    this.#channels.set(uri, ch);
    return ch;
  }

  addChat(uri: string, session: string, state: ChatState): ChatChannel {
    const ch: ChatChannel = { kind: 'chat', uri, session, state, log: new ActionLog(this.#logLimit) };
    this.#channels.set(uri, ch);
    return ch;
  }

  delete(uri: string): boolean {
    return this.#channels.delete(uri);
  }

  *sessions(): IterableIterator<SessionChannel> {
    for (const ch of this.#channels.values()) if (ch.kind === 'session') yield ch;
  }

  /** Applies an action with the channel's reducer; returns the state before it. */
  reduce(ch: HostChannel, action: StateAction | AnyAction): SessionState | ChatState {
    const before = ch.state;
    if (ch.kind === 'session') ch.state = sessionReducer(ch.state, action);
    else ch.state = chatReducer(ch.state, action);
    return before;
  }
}
