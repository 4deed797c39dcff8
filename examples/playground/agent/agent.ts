/** The playground's scripted agent: listens to chat turns of one session and answers them (see README "Agent"). */
import type { HostCore } from '../../../src/host.js';
import type { AnyAction, ChatState, StateAction, ToolCallState } from '../../../src/protocol/index.js';
import type { McpServerRuntime } from '../mcp-runtime.js';
import type { HostAuth } from '../auth/host-auth.js';
import { PendingAnswers, type AnswerKind } from './answers.js';
import { SHORTCUT_SERVER } from './command-parser.js';
import { SessionAllowList } from './confirmation.js';
import { InputNeededMirror } from './input-needed.js';
import { runTurn, type AgentContext } from './run-turn.js';
import { TurnAborted, TurnReporter } from './turn-reporter.js';

export interface AgentOptions {
  host: HostCore;
  /** The session whose chats the agent serves. */
  sessionUri: string;
  /** The MCP servers it may call, by customization id. */
  servers: ReadonlyMap<string, McpServerRuntime>;
  /** Server the shortcuts (`/echo`, `/sum`, …) call; default `everything`. */
  shortcutServer?: string;
  /** Pause between streamed chunks (markdown words, argument pieces); default 10 ms. */
  delayMs?: number;
  /** Diagnostics (an agent turn that failed); default silent. */
  log?: (line: string) => void;
  /** Pauses tool calls that hit an auth challenge until the client authenticates (see ../auth/host-auth.ts). */
  toolAuth?: HostAuth;
}

export interface PlaygroundAgent {
  /** Resolves when every turn started so far has ended. */
  idle(): Promise<void>;
  /** Cancels running turns (their MCP requests are aborted) and stops listening. */
  dispose(): void;
}

type Rec = Record<string, unknown>;

function toolCallIn(chat: ChatState | undefined, turnId: unknown, toolCallId: unknown): ToolCallState | undefined {
  const turn = chat?.activeTurn;
  if (!turn || turn.id !== turnId) return undefined;
  for (const part of turn.responseParts) if (part.kind === 'toolCall' && part.toolCall.toolCallId === toolCallId) return part.toolCall;
  return undefined;
}

/** Starts the agent on `host`. */
export function startAgent(options: AgentOptions): PlaygroundAgent {
  const { host, sessionUri } = options;
  const ctx: AgentContext = {
    servers: options.servers,
    shortcutServer: options.shortcutServer ?? SHORTCUT_SERVER,
    answers: new PendingAnswers(),
    inputNeeded: new InputNeededMirror(host, sessionUri),
    allowList: new SessionAllowList(),
    log: options.log ?? (() => {}),
    ...(options.toolAuth && { toolAuth: options.toolAuth }),
  };
  const delayMs = options.delayMs ?? 10;
  const active = new Map<string, { turnId: string; controller: AbortController }>();
  const running = new Set<Promise<void>>();

  const begin = (chat: string, turnId: string, text: string) => {
    active.get(chat)?.controller.abort(new TurnAborted('superseded'));
    const controller = new AbortController();
    active.set(chat, { turnId, controller });
    const work = runTurn(ctx, new TurnReporter(host, chat, turnId, controller.signal, delayMs), text).finally(() => {
      if (active.get(chat)?.turnId === turnId) active.delete(chat);
      running.delete(work);
    });
    running.add(work);
  };

  /** A client answered a pending tool call; the reducer already applied it, so the new status tells approve from deny. */
  const answer = (kind: AnswerKind, chat: string, a: Rec, chatState: ChatState | undefined) => {
    const tc = toolCallIn(chatState, a.turnId, a.toolCallId);
    if (!tc || typeof a.turnId !== 'string' || typeof a.toolCallId !== 'string') return;
    const approved = kind === 'confirmation' ? tc.status === 'running' : tc.status === 'completed';
    if (!approved && tc.status !== 'cancelled') return; // the action changed nothing
    ctx.answers.answer(kind, chat, a.turnId, a.toolCallId, {
      approved,
      ...(typeof a.selectedOptionId === 'string' && { selectedOptionId: a.selectedOptionId }),
      ...(typeof a.editedToolInput === 'string' && { editedToolInput: a.editedToolInput }),
    });
  };

  const react = (chat: string, action: StateAction | AnyAction, chatState: ChatState | undefined) => {
    const a = action as Rec;
    switch (action.type) {
      case 'chat/turnStarted': {
        const turn = chatState?.activeTurn;
        if (turn && turn.id === a.turnId) begin(chat, turn.id, turn.message.text);
        break;
      }
      case 'chat/turnCancelled': {
        const current = active.get(chat);
        if (current && current.turnId === a.turnId) current.controller.abort(new TurnAborted('cancelled by the user'));
        break;
      }
      case 'chat/toolCallConfirmed':
        answer('confirmation', chat, a, chatState);
        break;
      case 'chat/toolCallResultConfirmed':
        answer('result', chat, a, chatState);
        break;
    }
  };

  const offs = [
    host.afterClientAction(({ session, kind, channel, action, chatState }) => {
      if (session === sessionUri && kind === 'chat') react(channel, action, chatState);
    }),
    host.afterCreateChat(({ session, chat, turnId, initialMessage }) => {
      if (session === sessionUri && turnId !== undefined && initialMessage) begin(chat, turnId, initialMessage.text);
    }),
  ];

  return {
    async idle() {
      while (running.size) await Promise.all([...running]);
    },
    dispose() {
      for (const off of offs) off();
      for (const { controller } of active.values()) controller.abort(new TurnAborted('agent stopped'));
    },
  };
}
