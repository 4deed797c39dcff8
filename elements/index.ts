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
export type { AppDisplayModeDetail, AppMessageDetail, AppModelContextDetail, AppOpenLinkDetail, AppToolsChangedDetail } from './mcp-app/events.js';
export { AhpChat } from './chat/chat.js';
export { AhpInputNeeded } from './input-needed/input-needed.js';
export {
  AhpToolCallApproveEvent,
  AhpToolCallAuthRequestEvent,
  AhpToolCallCancelEvent,
  AhpToolCallDenyEvent,
  AhpToolCallResultConfirmEvent,
} from './tool-call/events.js';
export type {
  ToolCallActionDetail,
  ToolCallApproveDetail,
  ToolCallAuthRequestDetail,
  ToolCallDenyDetail,
  ToolCallResultConfirmDetail,
} from './tool-call/events.js';
export { AhpAuthCompleteEvent, AhpAuthErrorEvent, AhpAuthStartEvent } from './session/events.js';
export type { AuthFlowDetail } from './session/events.js';
export { AhpMcpServerAuthRequestEvent } from './mcp-server/events.js';
export type { McpServerAuthRequestDetail } from './mcp-server/events.js';
export { AuthController } from './shared/auth-controller.js';
export type { AuthStatus } from './shared/auth-controller.js';
export { AhpEvent } from './shared/ahp-event.js';
export { renderMarkdown, renderStringOrMarkdown } from './shared/markdown.js';
export { defineElement } from './shared/define-element.js';
export { handleContext, storeContext } from './shared/store-context.js';
export { SessionHandleController } from './shared/session-handle-controller.js';
export { StoreController } from './shared/store-controller.js';
export type { StoreControllerOptions } from './shared/store-controller.js';
export { VERSION } from './shared/version.js';
export { AhpConnectionChangeEvent } from './session/events.js';
export type { ConnectionChangeDetail } from './session/events.js';
export { AhpMcpServerRestartEvent, AhpMcpServerStartEvent, AhpMcpServerStopEvent, AhpMcpServerToggleEvent } from './mcp-server/events.js';
export type { McpServerEventDetail, McpServerToggleDetail } from './mcp-server/events.js';
export { AhpChatSendEvent, AhpChatCancelEvent, AhpChatPendingRemoveEvent, AhpChatResumeEvent } from './chat/events.js';
export type { ChatCancelDetail, ChatSendDetail, ChatPendingRemoveDetail, ChatResumeDetail } from './chat/events.js';
export { AhpInputNeededOpenEvent } from './input-needed/events.js';
export type { InputNeededOpenDetail } from './input-needed/events.js';
export { LocaleController, formatNumber, langOf, loadLanguage, registerLanguage, translate } from './shared/i18n.js';
export type { LanguageSource, Messages } from './shared/i18n.js';
export { EN as ENGLISH_MESSAGES } from './shared/messages-en.js';
export type { MessageId } from './shared/messages-en.js';
export { AhpChatInputAnswerEvent } from './shared/events.js';
export type { ChatInputAnswerDetail } from './shared/events.js';
