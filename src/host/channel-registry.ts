import type { AnyAction, ChatState, RootState, SessionState, StateAction } from '../protocol/index.js';
import { chatReducer, rootReducer, sessionReducer } from '../reducers/index.js';
import { ActionLog } from './action-log.js';

/** What kind of state a channel carries. */
export type ChannelKind = 'session' | 'chat' | 'root';

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

/** The host's one `ahp-root://` channel: agents and the number of live sessions. */
export interface RootChannel {
  readonly kind: 'root';
  readonly uri: string;
  state: RootState;
  readonly log: ActionLog;
}

export type HostChannel = SessionChannel | ChatChannel | RootChannel;

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

  addRoot(uri: string, state: RootState): RootChannel {
    const ch: RootChannel = { kind: 'root', uri, state, log: new ActionLog(this.#logLimit) };
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

  /** The chats a session's catalog owns. */
  *chatsOf(session: string): IterableIterator<ChatChannel> {
    for (const ch of this.#channels.values()) if (ch.kind === 'chat' && ch.session === session) yield ch;
  }

  *sessions(): IterableIterator<SessionChannel> {
    for (const ch of this.#channels.values()) if (ch.kind === 'session') yield ch;
  }

  /** Applies an action with the channel's reducer; returns the state before it. */
  reduce(ch: HostChannel, action: StateAction | AnyAction): SessionState | ChatState | RootState {
    const before = ch.state;
    if (ch.kind === 'session') ch.state = sessionReducer(ch.state, action);
    else if (ch.kind === 'root') ch.state = rootReducer(ch.state, action);
    else ch.state = chatReducer(ch.state, action);
    return before;
  }
}
