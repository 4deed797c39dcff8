export * from './json-rpc.js';
export * from './common.js';
export * from './customizations.js';
export * from './tool-calls.js';
export * from './session.js';
export * from './actions.js';
export * from './commands.js';
