/**
 * Action creators for what a user asks for (start a turn, approve a call, toggle a server…): each returns the AHP
 * action to `store.dispatch`. The elements use them; headless code can too.
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
} from './chat.js';
export type { TurnStartedOptions, ToolCallTarget, ToolCallChoice } from './chat.js';
export { mcpServerToggled, mcpServerStartRequested, mcpServerStopRequested, mcpServerRestartRequested } from './session.js';
export { toggledEnablement } from './enablement.js';
export { newTurnId, elapsedSince } from './turn-id.js';
