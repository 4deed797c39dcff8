/** Starts the config's built-in servers (`"builtin": "oauth-demo"`) and fills in their URLs. */
import type { PlaygroundConfig } from '../config.js';
import { startProtectedServer, type ProtectedServer } from './protected-server.js';

export interface BuiltinServers {
  /** The config with every built-in server's `url` set. */
  config: PlaygroundConfig;
  /** The running protected servers, by server id. */
  protectedServers: Map<string, ProtectedServer>;
  close(): Promise<void>;
}

/** One protected MCP server + authorization server per `oauth-demo` entry, on loopback. */
export async function startBuiltinServers(config: PlaygroundConfig): Promise<BuiltinServers> {
  const protectedServers = new Map<string, ProtectedServer>();
  try {
    const servers = await Promise.all(
      config.servers.map(async (s) => {
        if (s.transport !== 'http' || s.builtin !== 'oauth-demo') return s;
        // Always loopback, whatever interface the playground binds: the browser and the host both run here.
        const started = await startProtectedServer({
          ...(s.tokenLifetimeSeconds !== undefined && { tokenLifetimeSeconds: s.tokenLifetimeSeconds }),
        });
        protectedServers.set(s.id, started);
        return { ...s, url: started.mcpUrl };
      }),
    );
    return {
      config: { ...config, servers },
      protectedServers,
      close: async () => {
        await Promise.all([...protectedServers.values()].map((p) => p.close()));
      },
    };
  } catch (err) {
    await Promise.all([...protectedServers.values()].map((p) => p.close()));
    throw err;
  }
}
