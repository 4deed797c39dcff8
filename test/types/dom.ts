// Type-checked (never run): every tag is in HTMLElementTagNameMap and its events in GlobalEventHandlersEventMap.
import type { AhpToolCall, AhpSession } from 'ahp-elements/elements';

const toolCall: AhpToolCall | null = document.querySelector('ahp-tool-call');
const session: AhpSession = document.createElement('ahp-session');
toolCall?.addEventListener('ahp-tool-call-approve', (e) => e.detail.toolCallId);
session.addEventListener('ahp-connection-change', (e) => e.detail.state.kind);
document.addEventListener('ahp-app-open-link', (e) => e.detail.url);
// @ts-expect-error the approve event has no `text`
document.addEventListener('ahp-tool-call-approve', (e) => e.detail.text);
