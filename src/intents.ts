/**
 * Intent action creators (`ahp-elements/intents`): the actions the elements dispatch for a user's intent (send a
 * message, answer a confirmation, toggle or start a server, ...), for pages that build their own controls. Each returns
 * a plain action to hand to `SessionStore.dispatch`. Pure functions, no DOM.
 */

export {
  turnStarted,
  turnCancelled,
  turnResume,
  pendingMessageRemoved,
  inputCompleted,
  toolCallApproved,
  toolCallDenied,
  toolCallResultConfirmed,
  toolCallCancelled,
} from './intents/chat.js';
export type { ChatActionOf, TurnStartedOptions, ToolCallTarget, ToolCallChoice } from './intents/chat.js';
export { mcpServerToggled, mcpServerStartRequested, mcpServerStopRequested, mcpServerRestartRequested } from './intents/session.js';
export type { SessionActionOf } from './intents/session.js';
export { toggledEnablement } from './intents/enablement.js';
export { newTurnId } from './intents/turn-id.js';
