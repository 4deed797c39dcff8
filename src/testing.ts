/** Test helpers for code built on the headless core: an in-memory transport pair (unit tests only; real apps use WebSocket). */
export { createInMemoryPair } from './client/in-memory-transport.js';
