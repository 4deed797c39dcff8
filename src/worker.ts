/** Worker mode: the session client + store in a SharedWorker / Worker (comlink), a synchronous store in the page. */
export { connectSessionInWorker, connectSessionOverEndpoint } from './worker/worker-store.js';
export type { WorkerMode, WorkerSessionOptions, WorkerSessionConnection, EndpointSessionOptions } from './worker/worker-store.js';
export { WorkerSessionStore } from './worker/worker-session-store.js';
export type { WorkerStoreBridge, WorkerActionFailure } from './worker/worker-session-store.js';
export { createSessionWorkerApi, serveSessionWorker } from './worker/session-worker.js';
export type { SessionWorkerOptions } from './worker/session-worker.js';
export type { AttachOptions, SessionWorkerApi, WorkerEvent } from './worker/worker-messages.js';
export { reuseEqual } from './worker/structural-merge.js';
