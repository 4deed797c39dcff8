import type { AnyAction, StateAction } from '../protocol/actions.js';
import type { AgentInfo, RootState } from '../protocol/root.js';
import { isRecord, tableReducer, type Rec } from './guards.js';

type Handler = (state: RootState, action: Rec) => RootState;

const agentsChanged: Handler = (state, a) =>
  Array.isArray(a.agents) && a.agents !== state.agents && a.agents.every((x) => isRecord(x) && typeof x.provider === 'string')
    ? { ...state, agents: a.agents as AgentInfo[] }
    : state;

const activeSessionsChanged: Handler = (state, a) =>
  typeof a.activeSessions === 'number' && Number.isFinite(a.activeSessions) && a.activeSessions !== state.activeSessions
    ? { ...state, activeSessions: a.activeSessions }
    : state;

const terminalsChanged: Handler = (state, a) => (Array.isArray(a.terminals) && a.terminals !== state.terminals ? { ...state, terminals: a.terminals } : state);

/** Merges into (or replaces) `config.values`; no-op without a root config. */
const configChanged: Handler = (state, a) => {
  const config = state.config;
  if (!isRecord(config) || !isRecord(a.config)) return state;
  const values = a.replace === true ? { ...a.config } : { ...(isRecord(config.values) ? config.values : {}), ...a.config };
  return { ...state, config: { ...config, values } };
};

const HANDLERS: ReadonlyMap<string, Handler> = new Map<string, Handler>([
  ['root/agentsChanged', agentsChanged],
  ['root/activeSessionsChanged', activeSessionsChanged],
  ['root/terminalsChanged', terminalsChanged],
  ['root/configChanged', configChanged],
]);
const reduce = tableReducer(HANDLERS);

/** Pure, total reducer of the `ahp-root://` channel. Unknown types and garbage return the same state. */
export function rootReducer(state: RootState, action: AnyAction | StateAction): RootState {
  return reduce(state, action);
}

/** Root action types this reducer understands. */
export const ROOT_ACTION_TYPES: ReadonlySet<string> = /* @__PURE__ */ new Set(/* @__PURE__ */ HANDLERS.keys());
