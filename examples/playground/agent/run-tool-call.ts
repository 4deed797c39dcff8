/** One MCP tool call, reported with the full AHP lifecycle and really run through the MCP client. */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ToolCallResult } from '../../../src/protocol/index.js';
import type { McpServerRuntime } from '../mcp-runtime.js';
import type { HostAuth } from '../auth/host-auth.js';
import type { Answer, AnswerKind, PendingAnswers } from './answers.js';
import { CONFIRMATION_OPTIONS, OPTION_ALLOW_SESSION, requiresResultConfirmation, type SessionAllowList } from './confirmation.js';
import type { InputNeededMirror } from './input-needed.js';
import { MCP_RESULT_META_KEY } from '../../../src/apps/tool-call.js';
import { failedCallResult, mapCallToolResult, progressContent } from './result-mapping.js';
import { withScopedSignal } from './scoped-signal.js';
import { TurnAborted, type ToolCallReporter, type TurnReporter } from './turn-reporter.js';

/** What running one tool call needs. */
export interface ToolRun {
  turn: TurnReporter;
  runtime: McpServerRuntime;
  tool: Tool;
  args: Record<string, unknown>;
  answers: PendingAnswers;
  inputNeeded: InputNeededMirror;
  allowList: SessionAllowList;
  /** When set, an auth challenge pauses the call in auth-required until the client authenticates or cancels it. */
  toolAuth?: HostAuth;
}

/** The tool's display name: its title, the annotations' title, or its name. */
export const displayNameOf = (tool: Tool): string => tool.title ?? tool.annotations?.title ?? tool.name;

/** Mirrors the pending tool call into the session's inputNeeded and waits for the client's answer (the entry goes either way). */
async function ask(run: ToolRun, call: ToolCallReporter, kind: AnswerKind): Promise<Answer> {
  const { turn } = run;
  const state = call.state();
  if (state?.status !== 'pending-confirmation' && state?.status !== 'pending-result-confirmation') {
    if (turn.signal.aborted) throw new TurnAborted();
    throw new Error(`tool call ${call.toolCallId} is ${state?.status ?? 'gone'} where a confirmation was expected`);
  }
  const id = run.inputNeeded.set(turn.chat, turn.turnId, state);
  try {
    return await run.answers.wait(kind, turn.chat, turn.turnId, call.toolCallId, turn.signal);
  } catch {
    throw new TurnAborted();
  } finally {
    run.inputNeeded.remove(id);
  }
}

/** The arguments after the user confirmed, taking an edited input into account; a string says why they are unusable. */
function confirmedArgs(call: ToolCallReporter, original: string, args: Record<string, unknown>): Record<string, unknown> | string {
  const state = call.state();
  const input = state && 'toolInput' in state ? state.toolInput : undefined;
  if (typeof input !== 'string' || input === original) return args;
  try {
    const edited: unknown = JSON.parse(input);
    if (typeof edited === 'object' && edited !== null && !Array.isArray(edited)) return edited as Record<string, unknown>;
  } catch {
    // reported below
  }
  return 'The edited input is not a JSON object.';
}

/** Runs the call; resolves when its part of the turn is over (completed, failed, denied). Throws TurnAborted when the turn is cancelled. */
export async function runToolCall(run: ToolRun): Promise<void> {
  const { turn, runtime, tool } = run;
  const displayName = displayNameOf(tool);
  const serverName = runtime.config.name;
  await turn.markdown(`Calling **${displayName}** on **${serverName}**.`);

  const call = turn.toolCall();
  call.start({
    toolName: tool.name,
    displayName,
    contributor: { kind: 'mcp', customizationId: runtime.id },
    ...(tool._meta && { _meta: tool._meta }),
  });
  const input = JSON.stringify(run.args);
  await call.streamInput(input);
  const invocationMessage = { markdown: `Run **${displayName}** (\`${tool.name}\` on ${serverName})` };

  let args = run.args;
  const need = run.allowList.need(runtime.id, tool, runtime.config);
  if (need === 'ask') {
    call.ready({
      invocationMessage,
      toolInput: input,
      confirmationTitle: { markdown: `Allow **${displayName}** from ${serverName} to run?` },
      options: CONFIRMATION_OPTIONS,
      editable: true,
    });
    const answer = await ask(run, call, 'confirmation');
    if (!answer.approved) return turn.markdown(`I did not run **${displayName}**: you declined.`);
    if (answer.selectedOptionId === OPTION_ALLOW_SESSION) run.allowList.allow(runtime.id, tool.name);
    const usable = confirmedArgs(call, input, args);
    if (typeof usable === 'string') {
      call.complete({ success: false, pastTenseMessage: `${displayName} was not run`, error: { message: usable } });
      return turn.markdown(`I did not run **${displayName}**: ${usable}`);
    }
    args = usable;
  } else {
    call.ready({ invocationMessage, toolInput: input, confirmed: need });
  }

  let result: ToolCallResult;
  /** The MCP result's `_meta`, carried to MCP App Views in the tool call's `_meta` (AHP's result has none). */
  let resultMeta: Record<string, unknown> | undefined;
  try {
    const invoke = () => withScopedSignal(turn.signal, (signal) =>
      runtime.callTool(tool.name, args, {
        signal,
        onProgress: (progress) => {
          if (turn.signal.aborted) return;
          try {
            call.contentChanged(progressContent(progress));
          } catch {
            // the turn ended meanwhile
          }
        },
      }),
    );
    const outcome = run.toolAuth
      ? await run.toolAuth.runToolCall({ chat: turn.chat, turnId: turn.turnId, toolCallId: call.toolCallId, runtime, call: invoke, signal: turn.signal })
      : { kind: 'result' as const, result: await invoke() };
    if (outcome.kind === 'cancelled') {
      if (turn.signal.aborted) throw new TurnAborted();
      // The client completed the paused call with a failure: nothing left to report on it.
      return turn.markdown(`**${displayName}** was not run: authorization was cancelled.`);
    }
    result = mapCallToolResult(outcome.result, displayName);
    const meta = outcome.result._meta;
    if (typeof meta === 'object' && meta !== null && !Array.isArray(meta)) resultMeta = meta;
  } catch (err) {
    if (turn.signal.aborted) throw new TurnAborted();
    result = failedCallResult(err, displayName);
  }

  const confirmResult = requiresResultConfirmation(tool, runtime.config);
  // `_meta` on the action replaces the tool call's: keep the tool's (its `ui`) next to the result's.
  call.complete(result, confirmResult, resultMeta && { ...tool._meta, [MCP_RESULT_META_KEY]: resultMeta });
  if (confirmResult) {
    const answer = await ask(run, call, 'result');
    if (!answer.approved) return turn.markdown(`You discarded the result of **${displayName}**.`);
  }
  await turn.markdown(result.success ? `**${displayName}** finished.` : `**${displayName}** failed: ${result.error?.message ?? 'unknown error'}`);
}
