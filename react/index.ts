// Generated from custom-elements.json by scripts/typings.mjs (npm run docs). Do not edit.
// React ≤18 wrappers (`ahp-elements/react`): properties pass through, events become `onAhp…` props.
// Importing this entry defines every element. React 19 can use the tags directly (types/jsx-react.d.ts).
import * as React from 'react';
import { createComponent, type EventName } from '@lit/react';
import '../elements/chat/define.js';
import '../elements/input-needed/define.js';
import '../elements/mcp-app/define.js';
import '../elements/mcp-server/define.js';
import '../elements/mcp-server-list/define.js';
import '../elements/session/define.js';
import '../elements/tool-call/define.js';
import * as elements from '../elements/index.js';
import type {
  AhpAppDisplayModeEvent,
  AhpAppDownloadEvent,
  AhpAppMessageEvent,
  AhpAppModelContextEvent,
  AhpAppOpenLinkEvent,
  AhpAppToolsChangedEvent,
  AhpAuthCompleteEvent,
  AhpAuthErrorEvent,
  AhpAuthStartEvent,
  AhpChatCancelEvent,
  AhpChatInputAnswerEvent,
  AhpChatPendingRemoveEvent,
  AhpChatResumeEvent,
  AhpChatSendEvent,
  AhpConnectionChangeEvent,
  AhpInputNeededOpenEvent,
  AhpMcpServerAuthRequestEvent,
  AhpMcpServerRestartEvent,
  AhpMcpServerStartEvent,
  AhpMcpServerStopEvent,
  AhpMcpServerToggleEvent,
  AhpToolCallApproveEvent,
  AhpToolCallAuthRequestEvent,
  AhpToolCallCancelEvent,
  AhpToolCallDenyEvent,
  AhpToolCallResultConfirmEvent,
} from '../elements/index.js';

/** `<ahp-chat>` for React: Transcript and composer of one AHP chat. */
export const AhpChat = createComponent({
  tagName: 'ahp-chat',
  elementClass: elements.AhpChat,
  react: React,
  events: {
    onAhpChatSend: 'ahp-chat-send' as EventName<AhpChatSendEvent>,
    onAhpChatCancel: 'ahp-chat-cancel' as EventName<AhpChatCancelEvent>,
    onAhpChatInputAnswer: 'ahp-chat-input-answer' as EventName<AhpChatInputAnswerEvent>,
    onAhpChatResume: 'ahp-chat-resume' as EventName<AhpChatResumeEvent>,
    onAhpChatPendingRemove: 'ahp-chat-pending-remove' as EventName<AhpChatPendingRemoveEvent>,
  },
  displayName: 'AhpChat',
});

/** `<ahp-input-needed>` for React: Everything in the session that waits for the user, with its answers. */
export const AhpInputNeeded = createComponent({
  tagName: 'ahp-input-needed',
  elementClass: elements.AhpInputNeeded,
  react: React,
  events: {
    onAhpToolCallApprove: 'ahp-tool-call-approve' as EventName<AhpToolCallApproveEvent>,
    onAhpToolCallDeny: 'ahp-tool-call-deny' as EventName<AhpToolCallDenyEvent>,
    onAhpToolCallResultConfirm: 'ahp-tool-call-result-confirm' as EventName<AhpToolCallResultConfirmEvent>,
    onAhpToolCallCancel: 'ahp-tool-call-cancel' as EventName<AhpToolCallCancelEvent>,
    onAhpAuthRequest: 'ahp-auth-request' as EventName<AhpToolCallAuthRequestEvent>,
    onAhpInputNeededOpen: 'ahp-input-needed-open' as EventName<AhpInputNeededOpenEvent>,
    onAhpChatInputAnswer: 'ahp-chat-input-answer' as EventName<AhpChatInputAnswerEvent>,
  },
  displayName: 'AhpInputNeeded',
});

/** `<ahp-mcp-app>` for React: Renders an MCP App (the UI of an MCP tool call) in a sandbox. */
export const AhpMcpApp = createComponent({
  tagName: 'ahp-mcp-app',
  elementClass: elements.AhpMcpApp,
  react: React,
  events: {
    onAhpAppOpenLink: 'ahp-app-open-link' as EventName<AhpAppOpenLinkEvent>,
    onAhpAppMessage: 'ahp-app-message' as EventName<AhpAppMessageEvent>,
    onAhpAppModelContext: 'ahp-app-model-context' as EventName<AhpAppModelContextEvent>,
    onAhpAppDownload: 'ahp-app-download' as EventName<AhpAppDownloadEvent>,
    onAhpAppDisplayMode: 'ahp-app-display-mode' as EventName<AhpAppDisplayModeEvent>,
    onAhpAppToolsChanged: 'ahp-app-tools-changed' as EventName<AhpAppToolsChangedEvent>,
  },
  displayName: 'AhpMcpApp',
});

/** `<ahp-mcp-server>` for React: Shows and controls one MCP server. */
export const AhpMcpServer = createComponent({
  tagName: 'ahp-mcp-server',
  elementClass: elements.AhpMcpServer,
  react: React,
  events: {
    onAhpMcpServerToggle: 'ahp-mcp-server-toggle' as EventName<AhpMcpServerToggleEvent>,
    onAhpMcpServerStart: 'ahp-mcp-server-start' as EventName<AhpMcpServerStartEvent>,
    onAhpMcpServerStop: 'ahp-mcp-server-stop' as EventName<AhpMcpServerStopEvent>,
    onAhpMcpServerRestart: 'ahp-mcp-server-restart' as EventName<AhpMcpServerRestartEvent>,
    onAhpAuthRequest: 'ahp-auth-request' as EventName<AhpMcpServerAuthRequestEvent>,
  },
  displayName: 'AhpMcpServer',
});

/** `<ahp-mcp-server-list>` for React: Lists the session's MCP servers grouped by container. */
export const AhpMcpServerList = createComponent({
  tagName: 'ahp-mcp-server-list',
  elementClass: elements.AhpMcpServerList,
  react: React,
  events: {
  },
  displayName: 'AhpMcpServerList',
});

/** `<ahp-session>` for React: Provides an AHP session store to the elements inside it. */
export const AhpSession = createComponent({
  tagName: 'ahp-session',
  elementClass: elements.AhpSession,
  react: React,
  events: {
    onAhpConnectionChange: 'ahp-connection-change' as EventName<AhpConnectionChangeEvent>,
    onAhpAuthStart: 'ahp-auth-start' as EventName<AhpAuthStartEvent>,
    onAhpAuthComplete: 'ahp-auth-complete' as EventName<AhpAuthCompleteEvent>,
    onAhpAuthError: 'ahp-auth-error' as EventName<AhpAuthErrorEvent>,
  },
  displayName: 'AhpSession',
});

/** `<ahp-tool-call>` for React: Shows and operates one AHP tool call. */
export const AhpToolCall = createComponent({
  tagName: 'ahp-tool-call',
  elementClass: elements.AhpToolCall,
  react: React,
  events: {
    onAhpToolCallApprove: 'ahp-tool-call-approve' as EventName<AhpToolCallApproveEvent>,
    onAhpToolCallDeny: 'ahp-tool-call-deny' as EventName<AhpToolCallDenyEvent>,
    onAhpToolCallResultConfirm: 'ahp-tool-call-result-confirm' as EventName<AhpToolCallResultConfirmEvent>,
    onAhpToolCallCancel: 'ahp-tool-call-cancel' as EventName<AhpToolCallCancelEvent>,
    onAhpAuthRequest: 'ahp-auth-request' as EventName<AhpToolCallAuthRequestEvent>,
  },
  displayName: 'AhpToolCall',
});
