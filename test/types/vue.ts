// Type-checked (never run) by `tsc -p test/types/tsconfig.json`: Vue `GlobalComponents` from types/vue.d.ts, used the
// way an SFC's compiled render function uses them (`h(component, props)` with `on…` listeners).
import { defineComponent, h, type GlobalComponents } from 'vue';

declare const components: GlobalComponents;
const { 'ahp-session': AhpSession, 'ahp-tool-call': AhpToolCall, 'ahp-mcp-server-list': AhpMcpServerList } = components;

export default defineComponent({
  setup() {
    return () =>
      h(AhpSession, { url: 'ws://127.0.0.1:8080/ahp', session: 'ahp-session:/s', onAhpConnectionChange: (e) => e.detail.state.kind }, () => [
        h(AhpMcpServerList, { headingLevel: 2 }),
        h(AhpToolCall, {
          chat: 'ahp-chat:/c',
          toolCallId: 't1',
          onAhpToolCallApprove: (e) => e.detail.toolCallId,
          onAhpAuthRequest: (e) => e.detail.customizationId,
        }),
      ]);
  },
});

// @ts-expect-error `toolCallId` is a string
h(AhpToolCall, { toolCallId: 42 });
// @ts-expect-error the listener gets the tool call event, which has no `text`
h(AhpToolCall, { onAhpToolCallApprove: (e) => e.detail.text });
