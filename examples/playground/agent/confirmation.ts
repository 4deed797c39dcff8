/** When the playground agent asks before running a tool, and what it offers. */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ConfirmationOption } from '../../../src/protocol/index.js';
import type { ServerConfig } from '../config.js';

/** Option ids the agent offers (and understands in `chat/toolCallConfirmed.selectedOptionId`). */
export const OPTION_ALLOW_ONCE = 'allow-once';
export const OPTION_ALLOW_SESSION = 'allow-session';
export const OPTION_DENY = 'deny';

/** The confirmation options of every pending tool call; "always allow" is its own group. */
export const CONFIRMATION_OPTIONS: readonly ConfirmationOption[] = [
  { id: OPTION_ALLOW_ONCE, label: 'Allow once', kind: 'approve' },
  { id: OPTION_ALLOW_SESSION, label: 'Always allow in this session', kind: 'approve', group: 1 },
  { id: OPTION_DENY, label: 'Deny', kind: 'deny' },
];

/** How a tool call gets past confirmation: the user must decide, a session setting allows it, or no confirmation is needed. */
export type ConfirmationNeed = 'ask' | 'setting' | 'not-needed';

type ConfirmLists = Pick<ServerConfig, 'confirm' | 'confirmResult'>;

/** True when a tool needs the user's go-ahead: annotated destructive, or listed in the server's `confirm`. */
export function requiresConfirmation(tool: Pick<Tool, 'name' | 'annotations'>, config: ConfirmLists): boolean {
  return tool.annotations?.destructiveHint === true || (config.confirm ?? []).includes(tool.name);
}

/** True when the user must confirm the tool's result (listed in the server's `confirmResult`). */
export function requiresResultConfirmation(tool: Pick<Tool, 'name'>, config: ConfirmLists): boolean {
  return (config.confirmResult ?? []).includes(tool.name);
}

/** Remembers "Always allow in this session" answers, per server and tool. */
export class SessionAllowList {
  readonly #allowed = new Set<string>();

  allow(serverId: string, tool: string): void {
    this.#allowed.add(JSON.stringify([serverId, tool]));
  }

  has(serverId: string, tool: string): boolean {
    return this.#allowed.has(JSON.stringify([serverId, tool]));
  }

  /** What confirmation a call of this tool needs now. */
  need(serverId: string, tool: Pick<Tool, 'name' | 'annotations'>, config: ConfirmLists): ConfirmationNeed {
    if (!requiresConfirmation(tool, config)) return 'not-needed';
    return this.has(serverId, tool.name) ? 'setting' : 'ask';
  }
}
