/** Worker mode: the session client + store in a SharedWorker / Worker (comlink), a synchronous store in the page. */
export { connectSessionInWorker, connectSessionOverEndpoint } from './worker-store.js';
export type { WorkerMode, WorkerSessionOptions, WorkerSessionConnection, EndpointSessionOptions } from './worker-store.js';
export { WorkerSessionStore } from './worker-session-store.js';
export type { WorkerStoreBridge, WorkerActionFailure } from './worker-session-store.js';
export { createSessionWorkerApi, serveSessionWorker } from './session-worker.js';
export type { SessionWorkerOptions } from './session-worker.js';
export type { AttachOptions, SessionWorkerApi, WorkerEvent } from './worker-messages.js';
export { reuseEqual } from './structural-merge.js';
