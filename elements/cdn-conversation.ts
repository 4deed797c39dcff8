/**
 * Defines `<ahp-chat>`, `<ahp-tool-call>` and `<ahp-input-needed>` together: they render one another, so the CDN build
 * loads them as one chunk on first use (fewer bytes and requests than three).
 */
import './chat/define.js';
import './tool-call/define.js';
import './input-needed/define.js';
// The chat reducers come with the chat elements (the store loads them on first use, see
// src/store/chat-reducers-lazy.ts), so a chat element's first snapshot does not wait for another chunk.
import '../src/store/chat-reducers.js';
