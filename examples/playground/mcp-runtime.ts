/** One configured MCP server, run through the MCP SDK client, with its lifecycle as an AHP `McpServerState`. */
import type { ChildProcess } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CallToolResult, JSONRPCMessage, Progress, ServerCapabilities, Tool } from '@modelcontextprotocol/sdk/types.js';
import { ResourceListChangedNotificationSchema, ResourceUpdatedNotificationSchema, ResultSchema, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import type { ErrorInfo, McpAuthRequirement, McpServerState } from '../../src/protocol/index.js';
import type { ServerConfig, StdioServerConfig } from './config.js';
import { withDemoNote } from './auth/auth-requirement.js';
import { StdioLineBuffer } from './stdio-line-buffer.js';
import { HttpAuth, McpAuthRequiredError } from './auth/http-auth.js';

export interface McpRuntimeOptions {
  /** Called with every stderr line of a stdio server (e.g. to print it with a prefix). */
  onStderrLine?: (line: string) => void;
  /** How long `initialize` may take before the start counts as failed. */
  initializeTimeoutMs?: number;
}

type StateListener = (state: McpServerState) => void;
/** Gets the server's `notifications/{tools,resources}/list_changed` and `notifications/resources/updated`. */
export type McpNotificationListener = (method: string, params: Record<string, unknown>) => void;

/** What the playground's MCP client tells servers it can do: render MCP Apps (`io.modelcontextprotocol/ui`). */
export const MCP_CLIENT_CAPABILITIES = {
  extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } },
};
/** Sees every JSON-RPC message of the current connection (after `initialize`), in either direction. */
export type McpMessageListener = (direction: 'sent' | 'received', message: JSONRPCMessage) => void;

/** Options of `McpServerRuntime.callTool`. */
export interface CallToolOptions {
  /** Aborting it cancels the request: the SDK sends `notifications/cancelled` and the call rejects. */
  signal?: AbortSignal;
  /** Gets the server's `notifications/progress` for this call (the SDK asks for them with a progress token). */
  onProgress?: (progress: Progress) => void;
  /** How long the call may go without a progress notification before it times out; default 120 000 ms. */
  timeoutMs?: number;
}

/** Thrown by `listTools`/`callTool` while the server is not `ready`. */
export class McpServerNotReadyError extends Error {
  override name = 'McpServerNotReadyError';
  constructor(readonly serverId: string, readonly stateKind: string) {
    super(`MCP server "${serverId}" is not ready (it is ${stateKind})`);
  }
}

const STDERR_TAIL_CHARS = 2000;

/** The SDK keeps its ChildProcess private; we read it only for the exit code/signal in error messages. */
class ObservedStdioTransport extends StdioClientTransport {
  exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  /** Unlike `pid`, kept after the process has exited. */
  spawnedPid: number | null = null;
  constructor(server: ConstructorParameters<typeof StdioClientTransport>[0]) {
    super(server);
    // The SDK's buffer is quadratic in a message's size (see StdioLineBuffer); the field is private to the SDK.
    (this as unknown as { _readBuffer: StdioLineBuffer })._readBuffer = new StdioLineBuffer(server.maxBufferSize);
  }
  override async start(): Promise<void> {
    await super.start();
    this.spawnedPid = this.pid;
    const child = (this as unknown as { _process?: ChildProcess })._process;
    child?.once('exit', (code, signal) => (this.exit = { code, signal }));
  }
}

/** Runs one MCP server: `start()` → starting → ready | error, `stop()` → stopped (process gone). */
export class McpServerRuntime {
  /** Current lifecycle state. */
  state: McpServerState = { kind: 'stopped' };
  /** Capabilities from the server's `initialize` answer while connected. */
  serverCapabilities: ServerCapabilities | undefined;
  /** The `mcp://` channel URI while ready (new on every start), else undefined. */
  channel: string | undefined;
  /** Bearer token applied to an HTTP server's transport and the 401/403 challenges seen (see auth/http-auth.ts). */
  readonly auth = new HttpAuth();

  private readonly listeners = new Set<StateListener>();
  private readonly messageListeners = new Set<McpMessageListener>();
  private readonly notificationListeners = new Set<McpNotificationListener>();
  private generation = 0;
  private client: Client | undefined;
  private transport: Transport | undefined;
  private starting: Promise<void> | undefined;
  private stopping: Promise<void> | undefined;
  /** Cleanup after a failure, still running. */
  private cleanup: Promise<void> | undefined;
  private stderrTail = '';
  /** The current attempt's transport closed without us asking. */
  private ended = false;

  constructor(readonly config: ServerConfig, private readonly options: McpRuntimeOptions = {}) {}

  /** Pid of the stdio server process while it runs (from spawn until stop/failure), else null. */
  get pid(): number | null {
    return this.transport instanceof ObservedStdioTransport ? this.transport.spawnedPid : null;
  }

  /** The configured id (also the customization id). */
  get id(): string {
    return this.config.id;
  }

  /** Subscribes to state changes; returns the unsubscribe function. */
  onStateChange(listener: StateListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Observes the JSON-RPC traffic (tests, debugging); returns the unsubscribe function. */
  onMessage(listener: McpMessageListener): () => void {
    this.messageListeners.add(listener);
    return () => this.messageListeners.delete(listener);
  }

  /** Every tool the server lists (all pages), with `title`, `annotations` and `_meta`. Throws McpServerNotReadyError unless ready. */
  async listTools(options: { signal?: AbortSignal } = {}): Promise<Tool[]> {
    const client = this.readyClient();
    const tools: Tool[] = [];
    let cursor: string | undefined;
    do {
      const page = await client
        .listTools(cursor === undefined ? undefined : { cursor }, options.signal ? { signal: options.signal } : undefined)
        .catch((err: unknown) => this.rethrowAuthFailure(err, true));
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor);
    return tools;
  }

  /**
   * Calls a tool through the SDK client. Resolves with the MCP result (also when `isError`); rejects for
   * protocol errors, a lost connection, a timeout or an abort. Throws McpServerNotReadyError unless ready.
   */
  async callTool(name: string, args: Record<string, unknown>, options: CallToolOptions = {}): Promise<CallToolResult> {
    const client = this.readyClient();
    const result = await client
      .callTool({ name, arguments: args }, undefined, {
        ...(options.signal && { signal: options.signal }),
        ...(options.onProgress && { onprogress: options.onProgress }),
        timeout: options.timeoutMs ?? 120_000,
        resetTimeoutOnProgress: true,
      })
      .catch((err: unknown) => this.rethrowAuthFailure(err, false));
    return result as CallToolResult;
  }

  /** Subscribes to the server's list_changed notifications (tools, resources) and resources/updated; returns the unsubscribe function. */
  onNotification(listener: McpNotificationListener): () => void {
    this.notificationListeners.add(listener);
    return () => this.notificationListeners.delete(listener);
  }

  /** Relays an MCP request verbatim (no SDK reshaping of the result). Throws McpServerNotReadyError unless ready. */
  async request(method: string, params?: Record<string, unknown>, options: { signal?: AbortSignal; timeoutMs?: number } = {}): Promise<Record<string, unknown>> {
    const client = this.readyClient();
    const request = { method, ...(params !== undefined && { params }) } as Parameters<Client['request']>[0];
    return client
      .request(request, ResultSchema, {
        ...(options.signal && { signal: options.signal }),
        ...(options.timeoutMs !== undefined && { timeout: options.timeoutMs }),
      })
      .catch((err: unknown) => this.rethrowAuthFailure(err, true));
  }

  /** Relays an MCP notification to the server. Throws McpServerNotReadyError unless ready. */
  async notify(method: string, params?: Record<string, unknown>): Promise<void> {
    const client = this.readyClient();
    await client.notification({ method, ...(params !== undefined && { params }) } as Parameters<Client['notification']>[0]);
  }

  private readyClient(): Client {
    if (this.state.kind !== 'ready' || !this.client) throw new McpServerNotReadyError(this.id, this.state.kind);
    return this.client;
  }

  /** Lets `onMessage` listeners see the traffic: wraps `send`, and `onmessage` once the SDK has installed it. */
  private tapMessages(transport: Transport): void {
    const emit = (direction: 'sent' | 'received', message: JSONRPCMessage) => {
      for (const listener of this.messageListeners) listener(direction, message);
    };
    const send = transport.send.bind(transport);
    transport.send = (message, options) => {
      emit('sent', message);
      return send(message, options);
    };
    const receive = transport.onmessage;
    transport.onmessage = (message, extra) => {
      emit('received', message);
      receive?.(message, extra);
    };
  }

  /** Connects and initializes; resolves once the server is ready or has failed (see `state`). */
  async start(): Promise<void> {
    if (this.stopping) await this.stopping;
    if (this.cleanup) await this.cleanup;
    if (this.starting) return this.starting;
    if (this.state.kind === 'ready') return;
    const gen = ++this.generation;
    this.starting = this.connect(gen).finally(() => {
      if (this.generation === gen) this.starting = undefined;
    });
    return this.starting;
  }

  /** Reconnects with the current credentials (after `auth.setToken`) without passing through `stopped`. */
  async reconnect(): Promise<void> {
    if (this.stopping) await this.stopping;
    if (this.cleanup) await this.cleanup;
    const gen = ++this.generation;
    this.starting = this.disconnect()
      .then(() => (gen === this.generation ? this.connect(gen) : undefined))
      .finally(() => {
        if (this.generation === gen) this.starting = undefined;
      });
    return this.starting;
  }

  /**
   * A 401 (server → authRequired, `expired` when a token was sent) or a 403 `insufficient_scope` becomes
   * McpAuthRequiredError; anything else is rethrown as is. A 403 on a tool call leaves the server as it is (the
   * step-up concerns that call); on a server-wide request (`serverWide`: listing, relays) it blocks the server.
   */
  private async rethrowAuthFailure(err: unknown, serverWide: boolean): Promise<never> {
    if (this.config.transport !== 'http') throw err;
    const gen = this.generation;
    const requirement = await this.authRequirement(err).catch(() => undefined);
    if (!requirement) throw err;
    if ((serverWide || requirement.reason !== 'insufficientScope') && gen === this.generation && this.state.kind === 'ready') this.needAuth(gen, requirement);
    throw new McpAuthRequiredError(this.id, requirement);
  }

  /** The requirement behind an auth failure (undefined for other errors), with the playground's note for its demo server. */
  private async authRequirement(err: unknown): Promise<McpAuthRequirement | undefined> {
    const config = this.config;
    if (config.transport !== 'http') return undefined;
    const requirement = await this.auth.requirementFor(err, config.url, this.auth.hasToken, config.oauthClient);
    return requirement && withDemoNote(config, requirement);
  }

  /** The server answered 401: close the connection and wait in authRequired for `authenticate`. */
  private needAuth(gen: number, requirement: McpAuthRequirement): void {
    if (gen !== this.generation) return;
    // State first: the close below must not look like an unexpected end of a ready connection.
    this.setState({ kind: 'authRequired', ...requirement });
    void this.disconnect();
  }

  /** Closes the client and waits until the server process has exited. */
  async stop(): Promise<void> {
    if (this.stopping) return this.stopping;
    this.generation++;
    this.starting = undefined;
    this.stopping = Promise.all([this.disconnect(), this.cleanup]).then(() => {}).finally(() => {
      this.stopping = undefined;
    });
    await this.stopping;
    this.setState({ kind: 'stopped' });
  }

  private async connect(gen: number): Promise<void> {
    this.stderrTail = '';
    this.ended = false;
    this.serverCapabilities = undefined;
    this.setState({ kind: 'starting' });
    const transport = this.createTransport(gen);
    const client = new Client({ name: 'ahp-elements-playground', version: '0.1.0' }, { capabilities: MCP_CLIENT_CAPABILITIES });
    for (const schema of [ToolListChangedNotificationSchema, ResourceListChangedNotificationSchema, ResourceUpdatedNotificationSchema]) {
      client.setNotificationHandler(schema, (n) => {
        if (gen !== this.generation) return;
        for (const listener of this.notificationListeners) listener(n.method, (n.params ?? {}) as Record<string, unknown>);
      });
    }
    client.onclose = () => this.onUnexpectedEnd(gen);
    client.onerror = (err) => this.onTransportError(gen, err);
    this.client = client;
    this.transport = transport;
    try {
      await client.connect(transport, { timeout: this.options.initializeTimeoutMs ?? 30_000 });
    } catch (err) {
      if (gen !== this.generation) return; // stop() took over
      if (this.config.transport === 'http') {
        const requirement = await this.authRequirement(err).catch((e: Error) => e);
        if (gen !== this.generation) return;
        if (requirement instanceof Error) return this.fail(gen, { errorType: 'AuthDiscoveryFailed', message: requirement.message });
        if (requirement) return this.needAuth(gen, requirement);
      }
      this.fail(gen, this.startFailure(err));
      return;
    }
    if (gen !== this.generation) return;
    if (this.ended) return this.fail(gen, this.endedError());
    this.serverCapabilities = client.getServerCapabilities();
    this.tapMessages(transport);
    this.setState({ kind: 'ready' });
  }

  private createTransport(gen: number): Transport {
    const config = this.config;
    if (config.transport === 'http') return new StreamableHTTPClientTransport(new URL(config.url), { fetch: this.auth.fetch });
    const transport = new ObservedStdioTransport({
      // "node" means the Node running the playground, so nvm/volta setups and odd PATHs work
      command: config.command === 'node' ? process.execPath : config.command,
      args: config.args,
      cwd: config.cwd,
      stderr: 'pipe',
      ...(config.env ? { env: config.env } : {}),
    });
    let partial = '';
    transport.stderr?.on('data', (chunk: Buffer) => {
      if (gen !== this.generation) return;
      const text = chunk.toString('utf8');
      this.stderrTail = (this.stderrTail + text).slice(-STDERR_TAIL_CHARS);
      const lines = (partial + text).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) if (line.trim()) this.options.onStderrLine?.(line);
    });
    return transport;
  }

  /** Transport closed (process exited, connection dropped) while we did not ask for it. */
  private onUnexpectedEnd(gen: number): void {
    if (gen !== this.generation) return;
    this.ended = true;
    // While starting, the failing `connect()` reports it (with the better message).
    if (this.state.kind === 'ready') this.fail(gen, this.endedError());
  }

  private endedError(): ErrorInfo {
    const transport = this.transport;
    const exit = transport instanceof ObservedStdioTransport ? transport.exit : undefined;
    const how = exit?.signal ? `: killed by ${exit.signal}` : exit?.code != null ? ` with exit code ${exit.code}` : '';
    const pid = this.pid;
    const message =
      this.config.transport === 'stdio'
        ? `The server process${pid ? ` (pid ${pid})` : ''} exited unexpectedly${how}.`
        : `The connection to ${this.config.url} closed unexpectedly.`;
    return { errorType: 'ServerExited', message: this.withDetails(message) };
  }

  private onTransportError(gen: number, err: Error): void {
    if (gen !== this.generation || this.state.kind !== 'ready') return;
    // stdio: the close that follows carries the news. HTTP: errors may be transient (SSE reconnects), so probe.
    const { config, client } = this;
    if (config.transport !== 'http' || !client) return;
    // An auth challenge on the probe moves the server to authRequired (then the check below lets it be).
    client.ping({ timeout: 5000 }).catch((e: unknown) => this.rethrowAuthFailure(e, true)).catch(() => {
      if (gen !== this.generation || this.state.kind !== 'ready') return;
      this.fail(gen, { errorType: 'ConnectionLost', message: `Lost the connection to ${config.url}: ${err.message}` });
    });
  }

  private startFailure(err: unknown): ErrorInfo {
    const e = err instanceof Error ? err : new Error(String(err));
    const code = (e as NodeJS.ErrnoException).code;
    if (this.config.transport === 'stdio' && (code === 'ENOENT' || code === 'EACCES')) {
      const c = this.config as StdioServerConfig;
      const why = code === 'ENOENT' ? 'command or working directory not found' : 'permission denied';
      return { errorType: 'SpawnFailed', message: `Could not start "${c.command}": ${why} (${code}).` };
    }
    if (this.ended && this.config.transport === 'stdio') return this.endedError();
    const cause = e.cause instanceof Error ? ` (${e.cause.message})` : '';
    const target = this.config.transport === 'http' ? this.config.url : `"${this.config.command}"`;
    return { errorType: 'StartFailed', message: this.withDetails(`Could not connect to ${target}: ${e.message}${cause}`) };
  }

  private withDetails(message: string): string {
    let out = message;
    const tail = this.stderrTail.trim();
    if (tail) out += `\nLast stderr output:\n${tail.split('\n').slice(-8).join('\n')}`;
    return out;
  }

  private fail(gen: number, error: ErrorInfo): void {
    if (gen !== this.generation || this.state.kind === 'error') return;
    this.setState({ kind: 'error', error });
    // Make sure nothing is left running (a crashed init may leave the process up).
    const cleanup = this.disconnect().finally(() => {
      if (this.cleanup === cleanup) this.cleanup = undefined;
    });
    this.cleanup = cleanup;
  }

  private async disconnect(): Promise<void> {
    const client = this.client;
    const transport = this.transport;
    const pid = this.pid;
    this.client = undefined;
    this.transport = undefined;
    this.serverCapabilities = undefined;
    if (client) await client.close().catch(() => {});
    else if (transport) await transport.close().catch(() => {});
    if (pid) await waitForExit(pid, 3000);
  }

  private setState(state: McpServerState): void {
    this.state = state;
    this.channel = state.kind === 'ready' ? `mcp://${encodeURIComponent(this.id)}/${this.generation}` : undefined;
    for (const listener of this.listeners) listener(state);
  }
}

/** True while a process with this pid exists. */
export function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Waits until the process is gone; SIGKILLs it when it outlives `timeoutMs`. */
export async function waitForExit(pid: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (processExists(pid)) {
    if (Date.now() > deadline) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
      return;
    }
    await new Promise((r) => setTimeout(r, 25));
  }
}
