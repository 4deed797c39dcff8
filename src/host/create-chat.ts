import { ErrorCode, SessionStatus, type ChatState, type Message } from '../protocol/index.js';
import { RpcError } from '../rpc/errors.js';
import { isRecord } from '../protocol/guards.js';

/** URI scheme of chat channels. */
export const CHAT_SCHEME = 'ahp-chat:';

/** What the embedder may set on a new chat. */
export interface CreateChatOptions {
  /** Default `'New chat'`. */
  title?: string;
  /** Starts the first turn with this message (a server-originated `chat/turnStarted`). */
  initialMessage?: Message;
  workingDirectories?: string[];
}

/** A validated `createChat` command (AHP §7). */
export interface CreateChatRequest {
  session: string;
  chat: string;
  options: CreateChatOptions;
}

type Rec = Record<string, unknown>;
const invalid = (message: string) => new RpcError(ErrorCode.InvalidParams, message);

/** The message a client sent to start a chat with, normalized to `origin.kind: 'user'`; throws -32602 for anything else. */
function parseInitialMessage(v: unknown): Message {
  if (!isRecord(v) || typeof v.text !== 'string') throw invalid("createChat 'initialMessage' needs 'text' (string)");
  if (v.origin !== undefined && v.origin !== null && !(isRecord(v.origin) && v.origin.kind === 'user')) {
    throw invalid("createChat 'initialMessage' may only have origin.kind 'user'");
  }
  return { ...v, origin: { kind: 'user' } } as unknown as Message;
}

/** Validates `createChat` params: `channel` = session URI, `chat` = client-chosen `ahp-chat:` URI, `initialMessage?`, `workingDirectories?`. */
export function parseCreateChat(params: unknown): CreateChatRequest {
  if (!isRecord(params) || typeof params.channel !== 'string' || typeof params.chat !== 'string') {
    throw invalid("createChat needs 'channel' (the session URI) and 'chat' (an ahp-chat: URI)");
  }
  if (params.source !== undefined && params.source !== null) throw invalid("createChat 'source' (fork / side chat) is not supported by this host");
  const options: CreateChatOptions = {};
  if (params.initialMessage !== undefined && params.initialMessage !== null) options.initialMessage = parseInitialMessage(params.initialMessage);
  const dirs = params.workingDirectories;
  if (dirs !== undefined && dirs !== null) {
    if (!Array.isArray(dirs) || !dirs.every((d) => typeof d === 'string')) throw invalid("createChat 'workingDirectories' must be URI strings");
    options.workingDirectories = dirs as string[];
  }
  return { session: params.channel, chat: params.chat, options };
}

/** The state of a chat that has not run a turn yet. */
export function newChatState(uri: string, options: CreateChatOptions, now: string): ChatState {
  const state: ChatState = { resource: uri, title: options.title ?? 'New chat', status: SessionStatus.Idle, modifiedAt: now, turns: [] };
  if (options.workingDirectories) state.workingDirectories = [...options.workingDirectories];
  return state;
}
