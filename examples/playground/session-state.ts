/** The playground session's initial state: configured servers and containers as AHP customizations. */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { SessionStatus, type Icon, type McpServerCustomization, type PluginCustomization, type SessionState } from '../../src/protocol/index.js';
import type { ContainerConfig, PlaygroundConfig, ServerConfig } from './config.js';

const IMAGE_TYPES: Record<string, string> = {
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
};

/** Content type of an image file by extension (octet-stream when unknown). */
export function imageContentType(file: string): string {
  return IMAGE_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
}

/** URL path under which the playground serves a config icon file. */
export function iconPath(ownerId: string, file: string): string {
  return `/icons/${encodeURIComponent(ownerId)}${path.extname(file).toLowerCase()}`;
}

function icons(ownerId: string, icon: string | undefined, origin: string): Icon[] | undefined {
  if (!icon) return undefined;
  if (/^data:/i.test(icon)) {
    const type = /^data:([^;,]+)/i.exec(icon)?.[1];
    return [type ? { src: icon, contentType: type } : { src: icon }];
  }
  if (/^https?:/i.test(icon)) return [{ src: icon }];
  return [{ src: new URL(iconPath(ownerId, icon), origin).href, contentType: imageContentType(icon) }];
}

const global = (enabled: boolean) => [{ kind: 'global' as const, enabled }];

/** Extra `_meta` per MCP server customization (e.g. where its MCP Apps are sandboxed). */
export type ServerMeta = (serverId: string) => Record<string, unknown> | undefined;

function serverCustomization(server: ServerConfig, uri: string, origin: string, containerEnabled = true, meta?: ServerMeta): McpServerCustomization {
  const c: McpServerCustomization = {
    type: 'mcpServer',
    id: server.id,
    uri: `${uri}#${encodeURIComponent(server.id)}`,
    name: server.name,
    enablement: global(server.enabled),
    // Enabled servers are started right after the session is created.
    state: { kind: server.enabled && containerEnabled ? 'starting' : 'stopped' },
  };
  const ic = icons(server.id, server.icon, origin);
  if (ic) c.icons = ic;
  const extra = meta?.(server.id);
  if (extra) c._meta = extra;
  return c;
}

function pluginCustomization(container: ContainerConfig, children: McpServerCustomization[], uri: string, origin: string): PluginCustomization {
  const c: PluginCustomization = {
    type: 'plugin',
    id: container.id,
    uri: `${uri}#${encodeURIComponent(container.id)}`,
    name: container.name,
    enablement: global(container.enabled),
    load: { kind: 'loaded' },
    children,
  };
  const ic = icons(container.id, container.icon, origin);
  if (ic) c.icons = ic;
  if (container.version) c.version = container.version;
  return c;
}

/**
 * Builds the session: top-level servers and containers in config order, each container holding its servers.
 * `origin` is the playground's http origin, used for icon URLs; `meta` adds `_meta` to server entries.
 */
export function playgroundSessionState(config: PlaygroundConfig, origin: string, meta?: ServerMeta): SessionState {
  const uri = pathToFileURL(config.source).href;
  const customizations: SessionState['customizations'] = [];
  for (const server of config.servers) if (!server.container) customizations.push(serverCustomization(server, uri, origin, true, meta));
  for (const container of config.containers) {
    const children = config.servers.filter((s) => s.container === container.id).map((s) => serverCustomization(s, uri, origin, container.enabled, meta));
    customizations.push(pluginCustomization(container, children, uri, origin));
  }
  return {
    provider: 'ahp-elements-playground',
    title: 'Playground',
    status: SessionStatus.Idle,
    lifecycle: 'ready',
    activeClients: [],
    chats: [],
    customizations,
  };
}

/** Every icon file the config names, keyed by the URL path it is served at. */
export function iconFiles(config: PlaygroundConfig): Map<string, string> {
  const files = new Map<string, string>();
  for (const owner of [...config.servers, ...config.containers]) {
    if (owner.icon && !/^(https?:|data:)/i.test(owner.icon)) files.set(iconPath(owner.id, owner.icon), owner.icon);
  }
  return files;
}
