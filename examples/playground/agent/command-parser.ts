/** Turns a chat message into what the scripted playground agent should do (no language model: a fixed grammar). */

/** What a user message asks the agent to do. */
export type AgentCommand =
  | { kind: 'help' }
  | { kind: 'tools'; serverId?: string }
  | { kind: 'call'; serverId: string; tool: string; args: Record<string, unknown> }
  /** A command the agent recognized but cannot run as written; `message` is markdown explaining why. */
  | { kind: 'invalid'; message: string }
  /** Anything that is not a command. */
  | { kind: 'chat'; text: string };

/** The server the shortcuts (`/echo`, `/sum`, …) call. */
export const SHORTCUT_SERVER = 'everything';

/** One shortcut: usage line for the help text, and how its argument text becomes a tool call. */
interface Shortcut {
  usage: string;
  summary: string;
  tool: string;
  args(rest: string): Record<string, unknown> | string;
}

const number = (s: string | undefined): number | undefined => {
  if (s === undefined || s.trim() === '') return undefined;
  const n = Number(s);
  return Number.isFinite(n) ? n : undefined;
};

/** Shortcuts for server-everything's tools, keyed by command name. */
export const SHORTCUTS: ReadonlyMap<string, Shortcut> = new Map<string, Shortcut>([
  ['echo', {
    usage: '/echo <text>', summary: 'echoes the text back (`echo`)', tool: 'echo',
    args: (rest) => (rest ? { message: rest } : 'Usage: `/echo <text>`'),
  }],
  ['sum', {
    usage: '/sum <a> <b>', summary: 'adds two numbers (`get-sum`)', tool: 'get-sum',
    args: (rest) => {
      const [a, b, extra] = rest.split(/\s+/);
      const x = number(a);
      const y = number(b);
      return x === undefined || y === undefined || extra !== undefined ? 'Usage: `/sum <a> <b>` with two numbers, e.g. `/sum 1 2`' : { a: x, b: y };
    },
  }],
  ['image', { usage: '/image', summary: 'returns a tiny PNG (`get-tiny-image`)', tool: 'get-tiny-image', args: () => ({}) }],
  ['long', {
    usage: '/long [seconds]', summary: 'runs for that long (default 5, at most 300) with progress every half second (`trigger-long-running-operation`)',
    tool: 'trigger-long-running-operation',
    args: (rest) => {
      const seconds = rest ? number(rest) : 5;
      if (seconds === undefined || seconds <= 0 || seconds > 300) return 'Usage: `/long [seconds]` with 0 < seconds ≤ 300';
      return { duration: seconds, steps: Math.max(1, Math.round(seconds * 2)) };
    },
  }],
  ['env', { usage: '/env', summary: "prints the server's environment (`get-env`; asks for confirmation in the default config)", tool: 'get-env', args: () => ({}) }],
  ['links', {
    usage: '/links [count]', summary: 'returns resource links (`get-resource-links`; its result needs confirmation in the default config)',
    tool: 'get-resource-links',
    args: (rest) => {
      const count = rest ? number(rest) : 3;
      return count === undefined || !Number.isInteger(count) || count < 1 || count > 10 ? 'Usage: `/links [count]` with 1 ≤ count ≤ 10' : { count };
    },
  }],
  ['weather', {
    usage: '/weather [New York|Chicago|Los Angeles]', summary: 'structured content (`get-structured-content`)', tool: 'get-structured-content',
    args: (rest) => ({ location: rest || 'New York' }),
  }],
]);

const CALL_USAGE = 'Usage: `/call <serverId> <tool> [json-args]`, e.g. `/call everything get-sum {"a":1,"b":2}`';

function parseCall(rest: string): AgentCommand {
  const m = /^(\S+)\s+(\S+)\s*([\s\S]*)$/.exec(rest);
  if (!m) return { kind: 'invalid', message: CALL_USAGE };
  const [, serverId = '', tool = '', json = ''] = m;
  if (!json.trim()) return { kind: 'call', serverId, tool, args: {} };
  let args: unknown;
  try {
    args = JSON.parse(json);
  } catch (err) {
    return { kind: 'invalid', message: `The arguments are not valid JSON (${(err as Error).message}).\n\n${CALL_USAGE}` };
  }
  if (typeof args !== 'object' || args === null || Array.isArray(args)) {
    return { kind: 'invalid', message: `The arguments must be a JSON object, got \`${json.trim().slice(0, 80)}\`.\n\n${CALL_USAGE}` };
  }
  return { kind: 'call', serverId, tool, args: args as Record<string, unknown> };
}

/** Parses a user message; never throws. Shortcuts call tools of `shortcutServer`. */
export function parseCommand(text: string, shortcutServer: string = SHORTCUT_SERVER): AgentCommand {
  const trimmed = String(text ?? '').trim();
  const m = /^\/([A-Za-z][\w-]*)(?:\s+([\s\S]*))?$/.exec(trimmed);
  if (!m) return { kind: 'chat', text: trimmed };
  const name = (m[1] ?? '').toLowerCase();
  const rest = (m[2] ?? '').trim();
  if (name === 'help') return { kind: 'help' };
  if (name === 'tools') return rest ? { kind: 'tools', serverId: rest } : { kind: 'tools' };
  if (name === 'call') return parseCall(rest);
  const shortcut = SHORTCUTS.get(name);
  if (!shortcut) return { kind: 'invalid', message: `Unknown command \`/${name}\`. Send \`/help\` for the list.` };
  const args = shortcut.args(rest);
  return typeof args === 'string' ? { kind: 'invalid', message: args } : { kind: 'call', serverId: shortcutServer, tool: shortcut.tool, args };
}
