import { ConnectionClosedError, RpcError } from '../client/errors.js';
import type { McpChannelClient } from '../client/mcp-channel.js';
import type { WorkerCallError } from './worker-messages.js';

/** How the page reaches the worker's connection for `mcp://` traffic (each call goes through comlink). */
export interface WorkerChannelCalls {
  request(method: string, params: Record<string, unknown>, timeoutMs: number | undefined): Promise<unknown>;
  notify(method: string, params: Record<string, unknown>): void;
  listen(method: string): void;
  unlisten(method: string): void;
}

export interface WorkerChannelClient {
  /** What `createMcpChannel` runs on: requests, notifications and notification listeners through the worker. */
  client: McpChannelClient;
  /** Hands a host notification the worker forwarded to this page's listeners of that method. */
  deliver(method: string, params: unknown): void;
  /** Wraps a worker call so it rejects when the page closes first (a closed comlink port never answers). */
  track<T>(call: Promise<T>): Promise<T>;
  /** Rejects every call still waiting with ConnectionClosedError; later calls reject at once. */
  close(reason: string): void;
}

/** A failure from the worker back as the error it was there: RpcError with its code, else an Error with its name. */
export function fromWorkerError(err: unknown): Error {
  if (err instanceof Error) return err;
  const e = err as Partial<WorkerCallError> | undefined;
  const message = typeof e?.message === 'string' ? e.message : String(err);
  if (typeof e?.code === 'number') return new RpcError(e.code, message, e.data);
  const out = new Error(message);
  if (typeof e?.name === 'string') out.name = e.name;
  return out;
}

/**
 * The page half of `mcp://` in worker mode: requests and notifications go to the worker's connection;
 * host notifications come back as events and fan out to local listeners. (An aborted request is given up
 * by `createMcpChannel` on this side, as in page mode.)
 */
export function workerChannelClient(calls: WorkerChannelCalls): WorkerChannelClient {
  let closedReason: string | undefined;
  const waiting = new Set<(err: Error) => void>();
  const listeners = new Map<string, Set<(params: unknown) => void>>();

  const track = <T>(call: Promise<T>): Promise<T> => {
    if (closedReason !== undefined) return Promise.reject(new ConnectionClosedError(closedReason));
    return new Promise<T>((resolve, reject) => {
      const fail = (err: Error): void => reject(err);
      waiting.add(fail);
      call.then(
        (v) => {
          waiting.delete(fail);
          resolve(v);
        },
        (err: unknown) => {
          waiting.delete(fail);
          reject(fromWorkerError(err));
        },
      );
    });
  };

  const client: McpChannelClient = {
    request<R>(method: string, params?: unknown, options?: { timeoutMs?: number }): Promise<R> {
      return track(calls.request(method, params as Record<string, unknown>, options?.timeoutMs)) as Promise<R>;
    },
    notify(method, params) {
      if (closedReason === undefined) calls.notify(method, params as Record<string, unknown>);
    },
    onNotification(method, listener) {
      let set = listeners.get(method);
      if (!set) {
        listeners.set(method, (set = new Set()));
        calls.listen(method);
      }
      const own = (params: unknown): void => listener(params);
      set.add(own);
      return () => {
        if (!set.delete(own) || set.size > 0 || listeners.get(method) !== set) return;
        listeners.delete(method);
        calls.unlisten(method);
      };
    },
  };

  return {
    client,
    track,
    deliver(method, params) {
      const set = listeners.get(method);
      if (!set) return;
      for (const l of [...set]) {
        try {
          l(params);
        } catch (err) {
          console.error(`mcp:// notification listener for ${method} threw`, err);
        }
      }
    },
    close(reason) {
      if (closedReason !== undefined) return;
      closedReason = reason;
      const fails = [...waiting];
      waiting.clear();
      for (const fail of fails) fail(new ConnectionClosedError(reason));
    },
  };
}
