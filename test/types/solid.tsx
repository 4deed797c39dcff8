/** @jsxImportSource solid-js */
// Type-checked (never run): Solid JSX from types/jsx-solid.d.ts (`prop:` for properties, `on:` for events).
import type { AhpChatSendEvent } from 'ahp-elements/elements';

export const page = () => (
  <ahp-session url="ws://127.0.0.1:8080/ahp" session="ahp-session:/s" on:ahp-connection-change={(e) => e.detail.state.kind}>
    <ahp-tool-call chat="ahp-chat:/c" tool-call-id="t1" prop:toolCallId="t1" on:ahp-tool-call-approve={(e) => e.detail.toolCallId} />
    {/* @ts-expect-error a handler for another event's class */}
    <ahp-tool-call on:ahp-tool-call-approve={(e: AhpChatSendEvent) => e.detail.text} />
    {/* @ts-expect-error `headingLevel` is a number */}
    <ahp-mcp-server-list prop:headingLevel="two" />
  </ahp-session>
);
