// Type-checked (never run): the Svelte 5 element typings from types/svelte.d.ts, as svelte-check sees a tag's attributes.
import type { SvelteHTMLElements } from 'svelte/elements';

export const toolCall: SvelteHTMLElements['ahp-tool-call'] = {
  chat: 'ahp-chat:/c',
  'tool-call-id': 't1',
  'onahp-tool-call-approve': (e) => e.detail.toolCallId,
};
export const list: SvelteHTMLElements['ahp-mcp-server-list'] = {
  // @ts-expect-error `headingLevel` is a number
  headingLevel: 'two',
};
export const chat: SvelteHTMLElements['ahp-chat'] = {
  // @ts-expect-error the send event has no `toolCallId`
  'onahp-chat-send': (e) => e.detail.toolCallId,
};
