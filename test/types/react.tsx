// Type-checked (never run) by `tsc -p test/types/tsconfig.json`: React 19 JSX and the React ≤18 wrappers.
import { AhpSession as Session, AhpToolCall as ToolCall, AhpMcpServer as McpServer } from 'ahp-elements/react';
import type { AhpChatSendEvent, AhpToolCallApproveEvent } from 'ahp-elements/elements';
import type { SessionStoreLike } from '../../src/store/types.js';

declare const store: SessionStoreLike;

export function React19Page() {
  return (
    <ahp-session url="ws://127.0.0.1:8080/ahp" session="ahp-session:/s" onahp-connection-change={(e) => e.detail.state.kind}>
      <ahp-mcp-server-list heading-level={2} top-level-label="Servers" />
      <ahp-mcp-server server-id="fs" store={store} onahp-mcp-server-toggle={(e) => e.detail.enabled} />
      <ahp-tool-call
        chat="ahp-chat:/c"
        tool-call-id="t1"
        onahp-tool-call-approve={(e) => {
          const id: string = e.detail.toolCallId;
          e.preventDefault();
          return id;
        }}
        onahp-auth-request={(e) => e.detail.customizationId}
      />
      <ahp-chat chat="ahp-chat:/c" onahp-chat-send={(e) => e.detail.text} />
      <ahp-input-needed onahp-input-needed-open={(e) => e.detail.chat} />
      <ahp-mcp-app display-mode="inline" onahp-app-open-link={(e) => e.detail.url} />
      {/* @ts-expect-error a handler for another event's class */}
      <ahp-tool-call onahp-tool-call-approve={(e: AhpChatSendEvent) => e.detail.text} />
      {/* @ts-expect-error `headingLevel` is a number */}
      <ahp-mcp-server-list headingLevel="two" />
      {/* @ts-expect-error no such property */}
      <ahp-tool-call toolCallIdd="t1" />
    </ahp-session>
  );
}

export function React18Page() {
  const approve = (e: AhpToolCallApproveEvent) => e.detail.toolCallId;
  return (
    <Session url="ws://127.0.0.1:8080/ahp" session="ahp-session:/s" onAhpConnectionChange={(e) => e.detail.state.kind}>
      <McpServer serverId="fs" onAhpMcpServerStop={(e) => e.detail.id} />
      <ToolCall chat="ahp-chat:/c" toolCallId="t1" onAhpToolCallApprove={approve} />
      {/* @ts-expect-error a handler for another event's class */}
      <ToolCall onAhpToolCallApprove={(e: AhpChatSendEvent) => e.detail.text} />
    </Session>
  );
}
