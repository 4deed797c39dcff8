/**
 * The playground host's side of AHP authentication: the `authenticate` command (token → that server's transport,
 * reconnect), proactive expiry checks, and pausing tool calls that hit a 403 `insufficient_scope` (or a 401) in
 * `auth-required` until the client authenticates or cancels them.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { HostRpcError, type HostCore } from '../../../src/host.js';
import type { ChatState, McpAuthRequirement, ToolCallAuthRequiredState, ToolCallState } from '../../../src/protocol/index.js';
import type { McpServerRuntime } from '../mcp-runtime.js';
import { McpAuthRequiredError } from './http-auth.js';

const INVALID_PARAMS = -32602;
const AUTH_REQUIRED = -32007;
/** Slack after the announced expiry before probing (the server rounds expiry to whole seconds). */
const EXPIRY_PROBE_SLACK_MS = 1500;

/** One tool call to run with the auth pause around it. */
export interface AuthGatedCall {
  chat: string;
  turnId: string;
  toolCallId: string;
  runtime: McpServerRuntime;
  /** Runs (and re-runs after authentication) the MCP call. */
  call: () => Promise<CallToolResult>;
  /** Aborted when the turn ends: the pause gives up. */
  signal?: AbortSignal;
}

/** The call's MCP result, or `cancelled` when the client completed the paused call with a failure (or the turn ended). */
export type AuthGatedOutcome = { kind: 'result'; result: CallToolResult } | { kind: 'cancelled' };

export interface HostAuth {
  /** Runs `call`; on an auth challenge pauses the tool call (auth-required + inputNeeded) and re-runs it once authenticated. */
  runToolCall(call: AuthGatedCall): Promise<AuthGatedOutcome>;
  /** Unhooks from the host; pending pauses end as cancelled. */
  dispose(): void;
}

interface Waiter {
  serverId: string;
  chat: string;
  toolCallId: string;
  settle: (outcome: 'resolved' | 'cancelled') => void;
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function findToolCall(chat: ChatState | undefined, turnId: string, toolCallId: string): ToolCallState | undefined {
  if (chat?.activeTurn?.id !== turnId) return undefined;
  for (const part of chat.activeTurn.responseParts) if (part.kind === 'toolCall' && part.toolCall.toolCallId === toolCallId) return part.toolCall;
  return undefined;
}

/** Installs the `authenticate` handler on `host` for the HTTP servers among `runtimes`. */
export function installHostAuth(host: HostCore, sessionUri: string, runtimes: ReadonlyMap<string, McpServerRuntime>): HostAuth {
  const waiters = new Set<Waiter>();
  const expiryTimers = new Map<string, ReturnType<typeof setTimeout>>();

  /** Resources the host has advertised (server state or tool-call auth), with the servers behind each. */
  const serversFor = (resource: string) =>
    [...runtimes.values()].filter(
      (rt) => rt.config.transport === 'http' && (rt.auth.advertisedResource === resource || (rt.state.kind === 'authRequired' && rt.state.resource.resource === resource)),
    );
  const advertised = () => [...new Set([...runtimes.values()].map((rt) => rt.auth.advertisedResource).filter((r): r is string => !!r))];

  const scheduleExpiryProbe = (rt: McpServerRuntime) => {
    clearTimeout(expiryTimers.get(rt.id));
    expiryTimers.delete(rt.id);
    const at = rt.auth.expiresAt;
    if (at === undefined || rt.state.kind !== 'ready') return;
    const timer = setTimeout(() => {
      expiryTimers.delete(rt.id);
      // A 401 here moves the server to authRequired with reason `expired` (mcp-runtime's auth failure mapping).
      if (rt.state.kind === 'ready' && rt.auth.expiresAt === at) void rt.request('ping', undefined, { timeoutMs: 5000 }).catch(() => {});
    }, Math.max(0, at - Date.now()) + EXPIRY_PROBE_SLACK_MS);
    timer.unref?.();
    expiryTimers.set(rt.id, timer);
  };

  const offAuthenticate = host.handleRequest('authenticate', async (params) => {
    if (!isObj(params) || typeof params.resource !== 'string' || params.resource === '') {
      throw new HostRpcError(INVALID_PARAMS, "authenticate needs 'resource' (the protected resource the host advertised)");
    }
    if (typeof params.token !== 'string') throw new HostRpcError(INVALID_PARAMS, "authenticate needs 'token' (a string; empty to revoke)");
    const { resource, token } = params as { resource: string; token: string };
    const expiresIn = params.expiresIn;
    if (expiresIn !== undefined && (typeof expiresIn !== 'number' || !Number.isInteger(expiresIn) || expiresIn < 1)) {
      throw new HostRpcError(INVALID_PARAMS, "'expiresIn' must be a whole number of seconds ≥ 1");
    }
    const scopes = params.scopes;
    if (scopes !== undefined && (!Array.isArray(scopes) || !scopes.every((s) => typeof s === 'string'))) {
      throw new HostRpcError(INVALID_PARAMS, "'scopes' must be an array of strings");
    }
    const targets = serversFor(resource);
    if (!targets.length) {
      const known = advertised();
      throw new HostRpcError(
        INVALID_PARAMS,
        `Unknown resource ${JSON.stringify(resource)}: no MCP server of this host advertised it${known.length ? ` (advertised: ${known.join(', ')})` : ''}`,
      );
    }
    const refused = await Promise.all(
      targets.map(async (rt) => {
        rt.auth.setToken(token, expiresIn as number | undefined, scopes as string[] | undefined);
        await rt.reconnect();
        scheduleExpiryProbe(rt);
        const state = rt.state;
        if (state.kind === 'ready') {
          rt.auth.accepted = token !== '';
          for (const w of [...waiters]) if (w.serverId === rt.id) w.settle('resolved');
        }
        return token !== '' && state.kind === 'authRequired' ? { id: rt.id, state } : undefined;
      }),
    );
    // The server turned the token down: say so (AHP AuthRequired, with what it still wants), so the client does not keep it.
    const no = refused.find((r) => r !== undefined);
    if (no) {
      throw new HostRpcError(AUTH_REQUIRED, `MCP server "${no.id}" refused the token${no.state.description ? `: ${no.state.description}` : ''}`, {
        resources: [no.state.resource],
      });
    }
    return {};
  });

  // A server that stops or fails cannot be authenticated any more: its paused calls end (the turn goes on).
  const offRuntimes = [...runtimes.values()].map((rt) =>
    rt.onStateChange((state) => {
      if (state.kind !== 'stopped' && state.kind !== 'error') return;
      for (const w of [...waiters]) if (w.serverId === rt.id) w.settle('cancelled');
    }),
  );

  // A failed `chat/toolCallComplete` from a client (or the turn ending) cancels a paused call.
  const offClientAction = host.afterClientAction(({ channel, chatState }) => {
    for (const w of [...waiters]) {
      if (w.chat !== channel) continue;
      const tc = chatState?.activeTurn ? findToolCall(chatState, chatState.activeTurn.id, w.toolCallId) : undefined;
      if (tc?.status !== 'auth-required') w.settle('cancelled');
    }
  });

  async function pause(c: AuthGatedCall, auth: McpAuthRequirement): Promise<'resolved' | 'cancelled'> {
    host.dispatchServerAction(c.chat, { type: 'chat/toolCallAuthRequired', turnId: c.turnId, toolCallId: c.toolCallId, auth });
    const tc = findToolCall(host.getChatState(c.chat), c.turnId, c.toolCallId);
    if (tc?.status !== 'auth-required') return 'cancelled';
    const entryId = `toolAuthentication:${c.toolCallId}`;
    host.dispatchServerAction(sessionUri, {
      type: 'session/inputNeededSet',
      request: { kind: 'toolAuthentication', id: entryId, chat: c.chat, turnId: c.turnId, toolCall: tc as ToolCallAuthRequiredState },
    });
    const outcome = await new Promise<'resolved' | 'cancelled'>((resolve) => {
      const onAbort = () => waiter.settle('cancelled');
      const waiter: Waiter = {
        serverId: c.runtime.id,
        chat: c.chat,
        toolCallId: c.toolCallId,
        settle: (o) => {
          waiters.delete(waiter);
          c.signal?.removeEventListener('abort', onAbort);
          resolve(o);
        },
      };
      waiters.add(waiter);
      if (c.signal?.aborted) return onAbort();
      c.signal?.addEventListener('abort', onAbort, { once: true });
    });
    // §4.6: resolve the call first, then drop the entry.
    if (outcome === 'resolved') host.dispatchServerAction(c.chat, { type: 'chat/toolCallAuthResolved', turnId: c.turnId, toolCallId: c.toolCallId });
    host.dispatchServerAction(sessionUri, { type: 'session/inputNeededRemoved', id: entryId });
    return outcome;
  }

  return {
    async runToolCall(c) {
      for (;;) {
        try {
          return { kind: 'result', result: await c.call() };
        } catch (err) {
          if (!(err instanceof McpAuthRequiredError)) throw err;
          if ((await pause(c, err.requirement)) === 'cancelled') return { kind: 'cancelled' };
        }
      }
    },
    dispose() {
      offAuthenticate();
      offClientAction();
      for (const off of offRuntimes) off();
      for (const t of expiryTimers.values()) clearTimeout(t);
      expiryTimers.clear();
      for (const w of [...waiters]) w.settle('cancelled');
    },
  };
}
