/** Headless core: protocol types, reducers, SessionStore, AhpClient and connectSession. No DOM, no Lit. */
export * from './protocol/index.js';
export * from './reducers/index.js';
export * from './store/index.js';
export * from './client/index.js';
export * from './connect-session.js';
