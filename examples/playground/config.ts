/** Playground config: which MCP servers to run and where they appear in the session. */
import { readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root; relative paths in a config (cwd, icon files) resolve against it. */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The config `npm start` uses when no `--config` is given. */
export const DEFAULT_CONFIG_PATH = path.join(REPO_ROOT, 'examples/playground/servers.json');

/** A container that groups servers in the session (shown as a plugin customization). */
export interface ContainerConfig {
  id: string;
  type: 'plugin';
  name: string;
  /** http(s)/data: URL, or an image file path (relative to the repo root). */
  icon?: string;
  version?: string;
  /** Initial enablement; default true. */
  enabled: boolean;
}

interface ServerConfigBase {
  id: string;
  name: string;
  icon?: string;
  /** Id of the container the server appears in; absent = top level of the session. */
  container?: string;
  /** Initial enablement; default true. Disabled servers are not started. */
  enabled: boolean;
  /** Tools the playground agent runs only after the user confirms (besides tools annotated `destructiveHint: true`). */
  confirm?: string[];
  /** Tools whose result the user must confirm before the agent uses it. */
  confirmResult?: string[];
}

export interface StdioServerConfig extends ServerConfigBase {
  transport: 'stdio';
  command: string;
  args: string[];
  env?: Record<string, string>;
  /** Absolute working directory (defaults to the repo root). */
  cwd: string;
}

export interface HttpServerConfig extends ServerConfigBase {
  transport: 'http';
  /** The MCP endpoint; for a `builtin` server the playground fills it in when it has started that server. */
  url: string;
  /** `"oauth-demo"`: the playground's own OAuth-protected server (examples/playground/auth/), started on loopback. */
  builtin?: 'oauth-demo';
  /** Access token lifetime of the `oauth-demo` authorization server, in seconds (default 60). */
  tokenLifetimeSeconds?: number;
  /** A client registered with the server's authorization server beforehand; advertised in `authRequired` so clients skip registration. */
  oauthClient?: { clientId: string; clientSecret?: string };
}

export type ServerConfig = StdioServerConfig | HttpServerConfig;

export interface PlaygroundConfig {
  /** Absolute path of the file the config came from (descriptive `uri` of customizations). */
  source: string;
  containers: ContainerConfig[];
  servers: ServerConfig[];
}

/** Thrown for an unreadable or invalid config; the message lists every problem found. */
export class ConfigError extends Error {
  override name = 'ConfigError';
  constructor(source: string, readonly problems: string[]) {
    super(`Invalid playground config ${source}:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

/** Reads and validates a config file. */
export async function loadConfig(configPath: string = DEFAULT_CONFIG_PATH): Promise<PlaygroundConfig> {
  const source = path.resolve(configPath);
  let text: string;
  try {
    text = await readFile(source, 'utf8');
  } catch (err) {
    throw new ConfigError(source, [`cannot read the file: ${(err as Error).message}`]);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new ConfigError(source, [`not valid JSON: ${(err as Error).message}`]);
  }
  return parseConfig(json, source);
}

const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
const URL_ICON = /^(https?:|data:)/i;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const show = (v: unknown) => (v === undefined ? 'nothing' : JSON.stringify(v));

/** Validates parsed JSON; `source` names the file in messages and anchors `uri`s. */
export function parseConfig(json: unknown, source = '<inline config>'): PlaygroundConfig {
  const problems: string[] = [];
  const fail = (where: string, msg: string) => void problems.push(`${where}: ${msg}`);

  const checkKeys = (o: Obj, where: string, allowed: readonly string[]) => {
    for (const key of Object.keys(o)) if (!allowed.includes(key)) fail(where, `unknown key "${key}" (allowed: ${allowed.join(', ')})`);
  };
  const str = (o: Obj, key: string, where: string, required: boolean): string | undefined => {
    const v = o[key];
    if (v === undefined && !required) return undefined;
    if (typeof v !== 'string' || v.trim() === '') {
      fail(`${where}.${key}`, `expected a non-empty string, got ${show(v)}`);
      return undefined;
    }
    return v;
  };
  const bool = (o: Obj, key: string, where: string): boolean => {
    const v = o[key];
    if (v === undefined) return true;
    if (typeof v !== 'boolean') fail(`${where}.${key}`, `expected true or false, got ${show(v)}`);
    return v !== false;
  };
  const icon = (o: Obj, where: string): string | undefined => {
    const v = str(o, 'icon', where, false);
    if (v === undefined || URL_ICON.test(v)) return v;
    const file = path.resolve(REPO_ROOT, v);
    if (!existsSync(file)) fail(`${where}.icon`, `not an http(s)/data: URL and no file at ${file}`);
    return file;
  };

  if (!isObj(json)) {
    throw new ConfigError(source, [`expected a JSON object with "servers" (and optional "containers"), got ${show(json)}`]);
  }
  checkKeys(json, 'config', ['$schema', 'containers', 'servers']);

  const ids = new Map<string, string>();
  const id = (o: Obj, where: string): string => {
    const v = str(o, 'id', where, true) ?? '';
    if (v && !ID_PATTERN.test(v)) fail(`${where}.id`, `"${v}" may only use letters, digits, ".", "_" and "-"`);
    const seen = ids.get(v);
    if (v && seen) fail(`${where}.id`, `"${v}" is already used by ${seen} (ids must be unique across servers and containers)`);
    ids.set(v, where);
    return v;
  };

  const containers: ContainerConfig[] = [];
  const rawContainers = json.containers ?? [];
  if (!Array.isArray(rawContainers)) fail('containers', `expected an array, got ${show(rawContainers)}`);
  else rawContainers.forEach((c: unknown, i) => {
    const where = `containers[${i}]`;
    if (!isObj(c)) return fail(where, `expected an object, got ${show(c)}`);
    checkKeys(c, where, ['id', 'type', 'name', 'icon', 'version', 'enabled']);
    if (c.type !== undefined && c.type !== 'plugin') fail(`${where}.type`, `only "plugin" containers are supported, got ${show(c.type)}`);
    const container: ContainerConfig = { id: id(c, where), type: 'plugin', name: str(c, 'name', where, true) ?? '', enabled: bool(c, 'enabled', where) };
    const ic = icon(c, where);
    if (ic) container.icon = ic;
    const version = str(c, 'version', where, false);
    if (version) container.version = version;
    containers.push(container);
  });
  const containerIds = new Set(containers.map((c) => c.id));

  const servers: ServerConfig[] = [];
  if (!Array.isArray(json.servers)) fail('servers', `expected an array of servers, got ${show(json.servers)}`);
  else json.servers.forEach((s: unknown, i) => {
    const where = `servers[${i}]`;
    if (!isObj(s)) return fail(where, `expected an object, got ${show(s)}`);
    const common = ['id', 'name', 'icon', 'container', 'enabled', 'transport', 'confirm', 'confirmResult'];
    const base: ServerConfigBase = { id: id(s, where), name: str(s, 'name', where, true) ?? '', enabled: bool(s, 'enabled', where) };
    const ic = icon(s, where);
    if (ic) base.icon = ic;
    const container = str(s, 'container', where, false);
    if (container !== undefined) {
      if (!containerIds.has(container)) fail(`${where}.container`, `no container with id "${container}" (known: ${[...containerIds].join(', ') || 'none'})`);
      base.container = container;
    }
    for (const key of ['confirm', 'confirmResult'] as const) {
      const v = s[key];
      if (v === undefined) continue;
      if (!Array.isArray(v) || !v.every((t) => typeof t === 'string' && t.trim() !== '')) fail(`${where}.${key}`, `expected an array of tool names, got ${show(v)}`);
      else base[key] = [...(v as string[])];
    }
    if (s.transport === 'stdio') {
      checkKeys(s, where, [...common, 'command', 'args', 'env', 'cwd']);
      const args = s.args ?? [];
      if (!Array.isArray(args) || !args.every((a) => typeof a === 'string')) fail(`${where}.args`, `expected an array of strings, got ${show(args)}`);
      const env = s.env;
      if (env !== undefined && (!isObj(env) || !Object.values(env).every((v) => typeof v === 'string'))) {
        fail(`${where}.env`, `expected an object of string values, got ${show(env)}`);
      }
      const cwd = path.resolve(REPO_ROOT, str(s, 'cwd', where, false) ?? '.');
      if (!existsSync(cwd)) fail(`${where}.cwd`, `directory ${cwd} does not exist`);
      const server: StdioServerConfig = { ...base, transport: 'stdio', command: str(s, 'command', where, true) ?? '', args: args as string[], cwd };
      if (isObj(env)) server.env = env as Record<string, string>;
      servers.push(server);
    } else if (s.transport === 'http') {
      checkKeys(s, where, [...common, 'url', 'builtin', 'tokenLifetimeSeconds', 'oauthClient']);
      const oc = s.oauthClient;
      let oauthClient: HttpServerConfig['oauthClient'];
      if (oc !== undefined) {
        if (!isObj(oc) || typeof oc.clientId !== 'string' || !oc.clientId || (oc.clientSecret !== undefined && typeof oc.clientSecret !== 'string')) {
          fail(`${where}.oauthClient`, `expected { "clientId": string, "clientSecret"?: string }, got ${show(oc)}`);
        } else oauthClient = { clientId: oc.clientId, ...(typeof oc.clientSecret === 'string' && { clientSecret: oc.clientSecret }) };
      }
      if (s.builtin !== undefined) {
        if (s.builtin !== 'oauth-demo') fail(`${where}.builtin`, `the only built-in server is "oauth-demo", got ${show(s.builtin)}`);
        if (s.url !== undefined) fail(`${where}.url`, 'a built-in server gets its URL from the playground; remove "url"');
        const life = s.tokenLifetimeSeconds;
        if (life !== undefined && (typeof life !== 'number' || !Number.isInteger(life) || life < 1)) {
          fail(`${where}.tokenLifetimeSeconds`, `expected a whole number of seconds ≥ 1, got ${show(life)}`);
        }
        servers.push({ ...base, transport: 'http', url: '', builtin: 'oauth-demo', ...(typeof life === 'number' && { tokenLifetimeSeconds: life }), ...(oauthClient && { oauthClient }) });
        return;
      }
      const url = str(s, 'url', where, true) ?? '';
      if (url && !/^https?:\/\//i.test(url)) fail(`${where}.url`, `expected an http:// or https:// URL, got ${show(url)}`);
      else if (url && !URL.canParse(url)) fail(`${where}.url`, `not a valid URL: ${show(url)}`);
      servers.push({ ...base, transport: 'http', url, ...(oauthClient && { oauthClient }) });
    } else {
      fail(`${where}.transport`, `expected "stdio" or "http", got ${show(s.transport)}`);
    }
  });

  if (problems.length) throw new ConfigError(source, problems);
  return { source, containers, servers };
}
