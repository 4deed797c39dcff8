/** What the demo page says about the running config: where the servers come from and which chat commands work. */
import path from 'node:path';
import { SHORTCUT_SERVER } from './agent/command-parser.js';
import { DEFAULT_CONFIG_PATH, REPO_ROOT, type PlaygroundConfig } from './config.js';

/** One suggestion for the chat: a command that works with the running config and what it shows. */
export interface TryCommand {
  command: string;
  shows: string;
}

/** Served in `/playground.json` next to the connection details. */
export interface PageInfo {
  /** The config file as the user would name it (repository-relative when inside the repository). */
  configFile: string;
  /** True when no `--config` was given (the page then explains how to run other servers). */
  defaultConfig: boolean;
  /** Ids and names of the configured servers. */
  servers: { id: string; name: string }[];
  /** Chat commands that work with these servers. */
  tryCommands: TryCommand[];
  /** The built-in OAuth servers and how long their access tokens live (the page explains early expiry). */
  tokenLifetimes: { id: string; name: string; seconds: number }[];
}

/** Servers of the default config whose tools show something worth trying; used only when such a server is configured. */
const KNOWN_TRIES: Record<string, TryCommand[]> = {
  [SHORTCUT_SERVER]: [
    { command: '/sum 1 2', shows: 'a tool call' },
    { command: '/env', shows: 'an approval (Allow / Deny)' },
  ],
  'basic-vanillajs': [{ command: '/call basic-vanillajs get-time {}', shows: 'an MCP App in its own sandbox origin' }],
  debug: [{ command: '/call debug debug-tool {}', shows: 'an MCP App that logs what the host sends it' }],
};

/** The tool the default config asks approval for; only suggest `/env` for an approval when it still does. */
const ENV_TOOL = 'get-env';

/** Builds the page's view of `config`. */
export function pageInfo(config: PlaygroundConfig): PageInfo {
  const relative = path.relative(REPO_ROOT, config.source);
  const configFile = relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative.split(path.sep).join('/') : config.source;
  const tryCommands: TryCommand[] = [];
  for (const server of config.servers) {
    const known = KNOWN_TRIES[server.id];
    if (!known) {
      tryCommands.push({ command: `/tools ${server.id}`, shows: `the tools of ${server.name}` });
      continue;
    }
    for (const t of known) if (t.command !== '/env' || server.confirm?.includes(ENV_TOOL)) tryCommands.push(t);
  }
  tryCommands.push({ command: '/help', shows: 'every command' });
  return {
    configFile,
    defaultConfig: path.resolve(config.source) === path.resolve(DEFAULT_CONFIG_PATH),
    servers: config.servers.map((s) => ({ id: s.id, name: s.name })),
    tryCommands,
    tokenLifetimes: config.servers.flatMap((s) =>
      s.transport === 'http' && s.builtin === 'oauth-demo' ? [{ id: s.id, name: s.name, seconds: s.tokenLifetimeSeconds ?? 60 }] : [],
    ),
  };
}
