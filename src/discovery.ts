/**
 * Session discovery (`ahp-elements/discovery`): the host's root channel (`ahp-root://`) and its session list, for
 * pages that let the user pick a session or open the host's default one. Its own entry so the core stays small.
 */
export { discoverSessions, pickDefaultSession, watchRoot } from './discovery/root-catalog.js';
export type { DiscoverSessionsOptions, RootCatalog, RootWatch } from './discovery/root-catalog.js';
export { DEFAULT_SESSION_META_KEY, ROOT_NOTIFICATIONS } from './protocol/root.js';
export { ROOT_CHANNEL } from './protocol/commands.js';
