/** The markdown the scripted agent answers with (help, tool lists, problems). */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { McpServerRuntime } from '../mcp-runtime.js';
import { SHORTCUTS } from './command-parser.js';
import { requiresConfirmation, requiresResultConfirmation } from './confirmation.js';
import { isRecord } from '../../../src/protocol/guards.js';

const code = (s: string) => `\`${s.replace(/`/g, "'")}\``;

/** Server ids with their state, e.g. "`everything` (ready), `other` (stopped)". */
export function serverList(servers: ReadonlyMap<string, McpServerRuntime>): string {
  return [...servers.values()].map((rt) => `${code(rt.id)} (${rt.state.kind})`).join(', ') || 'none';
}

/** The answer to `/help` and to plain text. */
export function helpText(servers: ReadonlyMap<string, McpServerRuntime>, shortcutServer: string, plainText?: string): string {
  const lines = [
    plainText ? `I am a scripted demo agent (no language model), so I do not understand ${code(plainText.slice(0, 60))}. I know these commands:` : 'Commands:',
    '',
    `- ${code('/call <serverId> <tool> [json-args]')}: calls any tool of a ready server, e.g. ${code('/call everything get-sum {"a":1,"b":2}')}`,
    `- ${code('/tools [serverId]')}: lists the tools of the ready servers`,
    ...[...SHORTCUTS.values()].map((s) => `- ${code(s.usage)}: ${s.summary}`),
    `- ${code('/help')}: this list`,
    '',
    `Shortcuts call the server ${code(shortcutServer)}. Servers: ${serverList(servers)}.`,
  ];
  return lines.join('\n');
}

/** One server's tools as a markdown list, with what needs confirmation. */
export function toolsText(rt: McpServerRuntime, tools: readonly Tool[]): string {
  if (!tools.length) return `${code(rt.id)} lists no tools.`;
  const lines = tools.map((t) => {
    const notes = [
      requiresConfirmation(t, rt.config) && 'asks for confirmation',
      requiresResultConfirmation(t, rt.config) && 'result needs confirmation',
      isRecord(t._meta) && isRecord(t._meta.ui) && 'MCP App',
    ].filter(Boolean);
    return `- ${code(t.name)}${t.title ? ` — ${t.title}` : ''}${notes.length ? ` (${notes.join(', ')})` : ''}`;
  });
  return [`**${rt.config.name}** (${code(rt.id)}):`, '', ...lines].join('\n');
}

/** Why a server cannot be used right now, or undefined when it can. */
export function serverProblem(servers: ReadonlyMap<string, McpServerRuntime>, serverId: string): string | undefined {
  const rt = servers.get(serverId);
  if (!rt) return `There is no MCP server ${code(serverId)} in this session. Servers: ${serverList(servers)}.`;
  if (rt.state.kind === 'ready') return undefined;
  const why = rt.state.kind === 'error' ? `: ${rt.state.error.message.split('\n')[0]}` : '';
  return `The MCP server ${code(serverId)} is not ready (it is ${rt.state.kind}${why}). Start it, then try again.`;
}

/** The answer when a server has no such tool. */
export function unknownToolText(rt: McpServerRuntime, tool: string, tools: readonly Tool[]): string {
  return `${code(rt.id)} has no tool ${code(tool)}. Its tools: ${tools.map((t) => code(t.name)).join(', ') || 'none'}.`;
}
