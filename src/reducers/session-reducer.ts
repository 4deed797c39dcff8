import type { AnyAction, StateAction } from '../protocol/actions.js';
import type { SessionState } from '../protocol/session.js';
import * as c from './customization-actions.js';
import { normalizeCustomizationToggle } from './customization-toggle.js';
import * as artifacts from './session-artifacts.js';
import { tableReducer, type Rec } from './guards.js';
import * as chats from './session-chats.js';
import * as lists from './session-collections.js';
import * as meta from './session-metadata.js';

type Handler = (state: SessionState, action: Rec) => SessionState;

const HANDLERS: ReadonlyMap<string, Handler> = new Map<string, Handler>([
  ['session/ready', meta.ready],
  ['session/creationFailed', meta.creationFailed],
  ['session/chatAdded', chats.chatAdded],
  ['session/chatRemoved', chats.chatRemoved],
  ['session/chatUpdated', chats.chatUpdated],
  ['session/chatsReordered', chats.chatsReordered],
  ['session/defaultChatChanged', meta.defaultChatChanged],
  ['session/titleChanged', meta.titleChanged],
  ['session/isReadChanged', meta.isReadChanged],
  ['session/isArchivedChanged', meta.isArchivedChanged],
  ['session/activityChanged', meta.activityChanged],
  ['session/changesetsChanged', meta.changesetsChanged],
  ['session/configChanged', meta.configChanged],
  ['session/metaChanged', meta.metaChanged],
  ['session/serverToolsChanged', meta.serverToolsChanged],
  ['session/activeClientSet', lists.activeClientSet],
  ['session/activeClientRemoved', lists.activeClientRemoved],
  ['session/workingDirectorySet', lists.workingDirectorySet],
  ['session/workingDirectoryRemoved', lists.workingDirectoryRemoved],
  ['session/workingDirectoryReplaced', lists.workingDirectoryReplaced],
  ['session/inputNeededSet', lists.inputNeededSet],
  ['session/inputNeededRemoved', lists.inputNeededRemoved],
  ['session/customizationsChanged', c.customizationsChanged],
  ['session/customizationUpdated', c.customizationUpdated],
  ['session/customizationRemoved', c.customizationRemoved],
  ['session/customizationToggled', (s, a) => c.customizationToggled(s, normalizeCustomizationToggle(s, a))],
  ['session/mcpServerStateChanged', c.mcpServerStateChanged],
  ['session/mcpServerStartRequested', c.mcpServerStartRequested],
  ['session/mcpServerStopRequested', c.mcpServerStopRequested],
  ['session/mcpServerBackgroundRequested', c.mcpServerBackgroundRequested],
  ['session/artifactSet', artifacts.artifactSet],
  ['session/artifactRemoved', artifacts.artifactRemoved],
]);
const reduce = tableReducer(HANDLERS);

/**
 * Pure, total session reducer (AHP §5). Unknown types, ids and garbage payloads return the same
 * state object; only the path to what changed gets new objects.
 */
export function sessionReducer(state: SessionState, action: AnyAction | StateAction): SessionState {
  return reduce(state, action);
}

/** Session action types this reducer understands. */
export const SESSION_ACTION_TYPES: ReadonlySet<string> = /* @__PURE__ */ new Set(/* @__PURE__ */ HANDLERS.keys());
