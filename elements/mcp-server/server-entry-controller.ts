import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { selectMcpServer, type McpServerEntry } from '../../src/store/selectors.js';
import type { SessionStoreLike } from '../../src/store/types.js';

/** How a `ServerEntryController` finds its store and server. */
export interface ServerEntryControllerOptions {
  /** The current store; read on connect and before every host update, so it may arrive later. */
  getStore: () => SessionStoreLike | undefined;
  /** The server's customization id. */
  getId: () => string | null | undefined;
}

/** Renders the same: the same server object and enablement, and a container with the same id and name (a sibling's change copies the container). */
const sameEntry = (a: McpServerEntry | undefined, b: McpServerEntry | undefined): boolean =>
  a === b ||
  (!!a && !!b && a.server === b.server && a.enabled === b.enabled && a.container?.id === b.container?.id && a.container?.name === b.container?.name);

/**
 * Follows one MCP server through `subscribeMcpServer`, so a change to one server wakes only its element
 * (with a whole-session subscription every element re-selected on every change: O(servers) per change).
 * The session itself is followed only while it matters: until the first snapshot (loading → found or not
 * found), and while the server sits in a container (its name and enablement are the container's).
 */
export class ServerEntryController implements ReactiveController {
  /** The server with its container and effective enablement; undefined while loading or when not found. */
  value: McpServerEntry | undefined;
  private readonly host: ReactiveControllerHost;
  private readonly options: ServerEntryControllerOptions;
  private store: SessionStoreLike | undefined;
  private id: string | null | undefined;
  private offServer: (() => void) | undefined;
  private offSession: (() => void) | undefined;
  private connected = false;
  private loaded = false;

  constructor(host: ReactiveControllerHost, options: ServerEntryControllerOptions) {
    this.host = host;
    this.options = options;
    host.addController(this);
  }

  hostConnected(): void {
    this.connected = true;
    this.attach();
    this.check();
  }

  hostDisconnected(): void {
    this.connected = false;
    this.detach();
  }

  /** Before each render: follows a replaced store or id and re-selects. */
  hostUpdate(): void {
    this.attach();
    this.value = this.select();
    this.loaded = this.store?.getState() !== undefined;
    this.followSession();
  }

  private select(): McpServerEntry | undefined {
    return this.store && this.id ? selectMcpServer(this.store.getState(), this.id) : undefined;
  }

  private attach(): void {
    const store = this.options.getStore();
    const id = this.options.getId();
    if (store !== this.store || id !== this.id) {
      this.detach();
      this.store = store;
      this.id = id;
    }
    if (!this.connected || !this.store) return;
    if (!this.offServer && this.id) this.offServer = this.store.subscribeMcpServer(this.id, this.check);
    this.followSession();
  }

  /** Subscribes to the whole session only while loading or while the server is a container's child. */
  private followSession(): void {
    const needed = this.connected && !!this.store && (this.store.getState() === undefined || this.value?.container !== undefined);
    if (needed && !this.offSession) this.offSession = this.store!.subscribe(this.check);
    else if (!needed && this.offSession) {
      this.offSession();
      this.offSession = undefined;
    }
  }

  private detach(): void {
    this.offServer?.();
    this.offServer = undefined;
    this.offSession?.();
    this.offSession = undefined;
  }

  private readonly check = (): void => {
    const next = this.select();
    const loaded = this.store?.getState() !== undefined;
    if (sameEntry(this.value, next) && loaded === this.loaded) return;
    this.value = next;
    this.loaded = loaded;
    this.followSession();
    this.host.requestUpdate();
  };
}
