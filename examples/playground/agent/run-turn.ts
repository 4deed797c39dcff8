/** One agent turn: parse the message, answer in markdown or run a tool call, end the turn. */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { McpServerRuntime } from '../mcp-runtime.js';
import type { HostAuth } from '../auth/host-auth.js';
import type { PendingAnswers } from './answers.js';
import { helpText, serverProblem, toolsText, unknownToolText } from './answers-text.js';
import { parseCommand, type AgentCommand } from './command-parser.js';
import type { SessionAllowList } from './confirmation.js';
import type { InputNeededMirror } from './input-needed.js';
import { runToolCall } from './run-tool-call.js';
import { withScopedSignal } from './scoped-signal.js';
import { errorText } from '../../../src/protocol/guards.js';
import { TurnAborted, type TurnReporter } from './turn-reporter.js';

/** What every turn of the agent shares. */
export interface AgentContext {
  servers: ReadonlyMap<string, McpServerRuntime>;
  shortcutServer: string;
  answers: PendingAnswers;
  inputNeeded: InputNeededMirror;
  allowList: SessionAllowList;
  log(line: string): void;
  toolAuth?: HostAuth;
}

/**
 * The tools the agent (the "model") may offer and call: MCP Apps visibility must include `model` (absent =
 * `["model","app"]`). App-only tools (`["app"]`) exist for their Views only (spec: hosts MUST leave them out).
 */
export function isModelVisible(tool: Tool): boolean {
  const ui = (tool._meta as { ui?: { visibility?: unknown } } | undefined)?.ui;
  const visibility = ui?.visibility;
  return !Array.isArray(visibility) || visibility.includes('model');
}

async function listTools(turn: TurnReporter, rt: McpServerRuntime): Promise<Tool[] | undefined> {
  try {
    const tools = await withScopedSignal(turn.signal, (signal) => rt.listTools({ signal }));
    return tools.filter(isModelVisible);
  } catch (err) {
    if (turn.signal.aborted) throw new TurnAborted();
    await turn.markdown(`Could not list the tools of \`${rt.id}\`: ${errorText(err)}`);
    return undefined;
  }
}

async function answerTools(ctx: AgentContext, turn: TurnReporter, serverId: string | undefined): Promise<void> {
  const problem = serverId === undefined ? undefined : serverProblem(ctx.servers, serverId);
  if (problem) return turn.markdown(problem);
  const targets = serverId === undefined ? [...ctx.servers.values()].filter((rt) => rt.state.kind === 'ready') : [ctx.servers.get(serverId)!];
  if (!targets.length) return turn.markdown('No MCP server is ready.');
  for (const rt of targets) {
    const tools = await listTools(turn, rt);
    if (tools) await turn.markdown(toolsText(rt, tools));
  }
}

async function call(ctx: AgentContext, turn: TurnReporter, cmd: Extract<AgentCommand, { kind: 'call' }>): Promise<void> {
  const problem = serverProblem(ctx.servers, cmd.serverId);
  if (problem) return turn.markdown(problem);
  const runtime = ctx.servers.get(cmd.serverId)!;
  const tools = await listTools(turn, runtime);
  if (!tools) return;
  const tool = tools.find((t) => t.name === cmd.tool);
  if (!tool) return turn.markdown(unknownToolText(runtime, cmd.tool, tools));
  await runToolCall({
    turn,
    runtime,
    tool,
    args: cmd.args,
    answers: ctx.answers,
    inputNeeded: ctx.inputNeeded,
    allowList: ctx.allowList,
    ...(ctx.toolAuth && { toolAuth: ctx.toolAuth }),
  });
}

/** Runs a turn to its end. Never throws: a cancelled turn stops silently, an agent bug ends the turn with `chat/error`. */
export async function runTurn(ctx: AgentContext, turn: TurnReporter, text: string): Promise<void> {
  try {
    const cmd = parseCommand(text, ctx.shortcutServer);
    switch (cmd.kind) {
      case 'help':
        await turn.markdown(helpText(ctx.servers, ctx.shortcutServer));
        break;
      case 'chat':
        await turn.markdown(helpText(ctx.servers, ctx.shortcutServer, cmd.text || '(an empty message)'));
        break;
      case 'invalid':
        await turn.markdown(cmd.message);
        break;
      case 'tools':
        await answerTools(ctx, turn, cmd.serverId);
        break;
      case 'call':
        await call(ctx, turn, cmd);
        break;
    }
    turn.complete();
  } catch (err) {
    if (err instanceof TurnAborted || turn.signal.aborted) return;
    ctx.log(`agent turn ${turn.turnId} on ${turn.chat} failed: ${err instanceof Error ? err.stack : String(err)}`);
    try {
      turn.error(`The playground agent failed: ${errorText(err)}`);
    } catch {
      // the turn is gone already
    }
  }
}
