/**
 * Dedicated Worker entry of worker mode: exposes the session worker API on the worker itself via
 * comlink. Also serves a SharedWorker, so one `workerUrl` fits both modes. Does nothing when
 * imported outside a worker.
 */
import { serveSessionWorker } from './session-worker.js';

serveSessionWorker();
