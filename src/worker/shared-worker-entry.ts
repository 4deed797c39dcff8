/**
 * SharedWorker entry of worker mode: every page that connects (`onconnect`) gets the session worker
 * API on its port via comlink. Also serves a dedicated Worker, so one `workerUrl` fits both modes.
 * Does nothing when imported outside a worker.
 */
import { serveSessionWorker } from './session-worker.js';

serveSessionWorker();
