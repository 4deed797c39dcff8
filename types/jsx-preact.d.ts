// Generated from custom-elements.json by scripts/typings.mjs (npm run docs). Do not edit.
// Preact: `/// <reference types="ahp-elements/types/jsx-preact.d.ts" />`. `onahp-tool-call-approve={…}` listens to the event.
import type { HTMLAttributes } from 'preact';
import type { AhpElements } from './elements.js';

type Tag = keyof AhpElements;
type Handlers<E> = { [K in keyof E as `on${K & string}`]?: (event: E[K]) => void };
type Props<T extends Tag> = HTMLAttributes<AhpElements[T]['element']> &
  AhpElements[T]['attributes'] & AhpElements[T]['properties'] & Handlers<AhpElements[T]['events']>;

declare global {
  namespace preact.JSX {
    interface IntrinsicElements {
      /** Transcript and composer of one AHP chat. */
      'ahp-chat': Props<'ahp-chat'>;
      /** Everything in the session that waits for the user, with its answers. */
      'ahp-input-needed': Props<'ahp-input-needed'>;
      /** Renders an MCP App (the UI of an MCP tool call) in a sandbox. */
      'ahp-mcp-app': Props<'ahp-mcp-app'>;
      /** Shows and controls one MCP server. */
      'ahp-mcp-server': Props<'ahp-mcp-server'>;
      /** Lists the session's MCP servers grouped by container. */
      'ahp-mcp-server-list': Props<'ahp-mcp-server-list'>;
      /** Provides an AHP session store to the elements inside it. */
      'ahp-session': Props<'ahp-session'>;
      /** Shows and operates one AHP tool call. */
      'ahp-tool-call': Props<'ahp-tool-call'>;
    }
  }
}
