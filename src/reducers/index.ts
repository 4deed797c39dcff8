export { sessionReducer, SESSION_ACTION_TYPES } from './session-reducer.js';
export {
  effectiveEnabled,
  findMcpServer,
  forEachMcpServer,
  isMcpServer,
  locateMcpServer,
  updateMcpServer,
  type EnablementCarrier,
  type McpServerLocation,
} from './customizations.js';
export { hasStatus, withActivity, withInputNeededStatus, withStatusFlag } from './status.js';
export { chatReducer, CHAT_ACTION_TYPES } from './chat-reducer.js';
export { isTerminal as isToolCallTerminal, needsInput as toolCallNeedsInput } from './chat-tool-calls.js';
export { rootReducer, ROOT_ACTION_TYPES } from './root-reducer.js';
export { normalizeCustomizationToggle } from './customization-toggle.js';
export { isResumable as isResumableTurn } from './chat-history.js';
export { foldBurst } from './burst.js';
