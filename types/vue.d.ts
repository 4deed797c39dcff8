// Generated from custom-elements.json by scripts/typings.mjs (npm run docs). Do not edit.
// Vue 3: `/// <reference types="ahp-elements/types/vue.d.ts" />` (Volar/vue-tsc then check templates). Tell the compiler the
// tags are custom elements: `compilerOptions.isCustomElement: (tag) => tag.startsWith('ahp-')`. `@ahp-tool-call-approve` listens.
import type { DefineComponent } from 'vue';
import type { AhpElements, PascalCase } from './elements.js';

type Tag = keyof AhpElements;
type Listeners<E> = { [K in keyof E as `on${PascalCase<K & string>}`]?: (event: E[K]) => void };
type Props<T extends Tag> = AhpElements[T]['attributes'] & AhpElements[T]['properties'] & Listeners<AhpElements[T]['events']>;

declare module 'vue' {
  interface GlobalComponents {
    /** Transcript and composer of one AHP chat. */
    'ahp-chat': DefineComponent<Props<'ahp-chat'>>;
    /** Everything in the session that waits for the user, with its answers. */
    'ahp-input-needed': DefineComponent<Props<'ahp-input-needed'>>;
    /** Renders an MCP App (the UI of an MCP tool call) in a sandbox. */
    'ahp-mcp-app': DefineComponent<Props<'ahp-mcp-app'>>;
    /** Shows and controls one MCP server. */
    'ahp-mcp-server': DefineComponent<Props<'ahp-mcp-server'>>;
    /** Lists the session's MCP servers grouped by container. */
    'ahp-mcp-server-list': DefineComponent<Props<'ahp-mcp-server-list'>>;
    /** Provides an AHP session store to the elements inside it. */
    'ahp-session': DefineComponent<Props<'ahp-session'>>;
    /** Shows and operates one AHP tool call. */
    'ahp-tool-call': DefineComponent<Props<'ahp-tool-call'>>;
  }
}
