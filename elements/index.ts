/** Element classes, events and helpers; importing this defines nothing (use `define-all.js` or a `define.js`). */
export { AhpSession } from './session/session.js';
export { AhpMcpServer } from './mcp-server/mcp-server.js';
export { AhpMcpServerList } from './mcp-server-list/mcp-server-list.js';
export { AhpToolCall } from './tool-call/tool-call.js';
export { AhpMcpApp } from './mcp-app/mcp-app.js';
export {
  AhpAppDisplayModeEvent,
  AhpAppDownloadEvent,
  AhpAppMessageEvent,
  AhpAppModelContextEvent,
  AhpAppOpenLinkEvent,
  AhpAppToolsChangedEvent,
} from './mcp-app/events.js';
export { AhpChat } from './chat/chat.js';
export { AhpInputNeeded } from './input-needed/input-needed.js';
export {
  AhpToolCallApproveEvent,
  AhpToolCallAuthRequestEvent,
  AhpToolCallCancelEvent,
  AhpToolCallDenyEvent,
  AhpToolCallResultConfirmEvent,
} from './shared/tool-call-events.js';
export type {
  ToolCallActionDetail,
  ToolCallApproveDetail,
  ToolCallAuthRequestDetail,
  ToolCallDenyDetail,
  ToolCallResultConfirmDetail,
} from './shared/tool-call-events.js';
export {
  AhpAuthCompleteEvent,
  AhpAuthErrorEvent,
  AhpAuthStartEvent,
  AhpMcpServerAuthRequestEvent,
  AuthController,
} from './shared/auth-controller.js';
export type { AuthFlowDetail, AuthStatus, McpServerAuthRequestDetail } from './shared/auth-controller.js';
export { renderMarkdown, renderStringOrMarkdown } from './shared/markdown.js';
export { defineElement } from './shared/define-element.js';
export { handleContext, storeContext } from './shared/store-context.js';
export { SessionHandleController } from './shared/session-handle-controller.js';
export { StoreController } from './shared/store-controller.js';
export type { StoreControllerOptions } from './shared/store-controller.js';
export { VERSION } from './shared/version.js';
export {
  AhpConnectionChangeEvent,
  AhpMcpServerRestartEvent,
  AhpMcpServerStartEvent,
  AhpMcpServerStopEvent,
  AhpMcpServerToggleEvent,
  AhpChatSendEvent,
  AhpChatCancelEvent,
  AhpInputNeededOpenEvent,
} from './shared/events.js';
export type { ConnectionChangeDetail, McpServerEventDetail, McpServerToggleDetail } from './shared/events.js';
export type { ChatCancelDetail, ChatSendDetail, InputNeededOpenDetail } from './shared/events.js';
export { LocaleController, formatNumber, langOf, loadLanguage, registerLanguage, translate } from './shared/i18n.js';
export type { LanguageSource, Messages } from './shared/i18n.js';
export { EN as ENGLISH_MESSAGES } from './shared/messages-en.js';
export type { MessageId } from './shared/messages-en.js';
export { AhpChatInputAnswerEvent, AhpChatPendingRemoveEvent, AhpChatResumeEvent } from './shared/chat-input-events.js';
export type { ChatInputAnswerDetail, ChatPendingRemoveDetail, ChatResumeDetail } from './shared/chat-input-events.js';
