/** @jsxImportSource preact */
// Type-checked (never run): Preact JSX from types/jsx-preact.d.ts.
import type { AhpChatSendEvent } from 'ahp-elements/elements';

export const page = (
  <ahp-session url="ws://127.0.0.1:8080/ahp" session="ahp-session:/s" onahp-connection-change={(e) => e.detail.state.kind}>
    <ahp-tool-call chat="ahp-chat:/c" tool-call-id="t1" onahp-tool-call-approve={(e) => e.detail.toolCallId} />
    {/* @ts-expect-error a handler for another event's class */}
    <ahp-tool-call onahp-tool-call-approve={(e: AhpChatSendEvent) => e.detail.text} />
    {/* @ts-expect-error `headingLevel` is a number */}
    <ahp-mcp-server-list headingLevel="two" />
  </ahp-session>
);
