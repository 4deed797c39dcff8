import type { ReactiveControllerHost } from 'lit';
import { selectMcpServer, type McpServerEntry } from '../../src/store/selectors.js';
import type { SessionStoreLike } from '../../src/store/types.js';
import { StoreBinding } from './store-binding.js';

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
export class ServerEntryController extends StoreBinding {
  /** The server with its container and effective enablement; undefined while loading or when not found. */
  declare value: McpServerEntry | undefined;
  declare private readonly options: ServerEntryControllerOptions;
  /** The store the subscriptions are open on. */
  declare private store: SessionStoreLike | undefined;
  declare private offSession: (() => void) | undefined;
  private loaded = false;

  constructor(host: ReactiveControllerHost, options: ServerEntryControllerOptions) {
    super(host);
    this.options = options;
  }

  protected dependencies(): readonly unknown[] {
    return [this.options.getStore(), this.options.getId()];
  }

  protected open(): (() => void) | undefined {
    const store = (this.store = this.options.getStore());
    const id = this.options.getId();
    if (!store) return undefined;
    const offServer = id ? store.subscribeMcpServer(id, this.check) : undefined;
    this.followSession();
    return () => {
      offServer?.();
      this.offSession?.();
      this.offSession = undefined;
    };
  }

  override hostConnected(): void {
    super.hostConnected();
    this.check();
  }

  /** Before each render: follows a replaced store or id and re-selects. */
  override hostUpdate(): void {
    super.hostUpdate();
    this.store = this.options.getStore();
    this.value = this.select();
    this.loaded = this.store?.getState() !== undefined;
    this.followSession();
  }

  private select(): McpServerEntry | undefined {
    const id = this.options.getId();
    return this.store && id ? selectMcpServer(this.store.getState(), id) : undefined;
  }

  /** Subscribes to the whole session only while loading or while the server is a container's child. */
  private followSession(): void {
    const store = this.store;
    const needed = this.hostIsConnected && !!store && (store.getState() === undefined || this.value?.container !== undefined);
    if (needed && !this.offSession) this.offSession = store!.subscribe(this.check);
    else if (!needed && this.offSession) {
      this.offSession();
      this.offSession = undefined;
    }
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
