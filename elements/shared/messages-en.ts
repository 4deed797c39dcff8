import { CORE_EN } from '../locales/en/core.js';
import { CHAT_EN } from '../locales/en/chat.js';
import { TOOL_CALL_EN } from '../locales/en/tool-call.js';
import { INPUT_NEEDED_EN } from '../locales/en/input-needed.js';
import { QUESTION_EN } from '../locales/en/question.js';
import { MCP_APP_EN } from '../locales/en/mcp-app.js';
import { MCP_SERVER_EN } from '../locales/en/mcp-server.js';
import { MCP_SERVER_LIST_EN } from '../locales/en/mcp-server-list.js';

/**
 * Every user-visible string of the elements, in English (the built-in language and the fallback for any id a
 * pack lacks). Ids are grouped by element; `{name}` marks a placeholder; `id#one` / `id#other` are plural variants.
 * A language pack is a table with these ids (`elements/locales/zh-TW.ts`); register more with `registerLanguage`.
 * The strings live per element in `elements/locales/en/`: only the shared ones are built in, each element adds its own
 * when it loads (so the CDN entry does not carry the strings of the elements that load on first use).
 */
export const EN = { ...CORE_EN, ...CHAT_EN, ...TOOL_CALL_EN, ...INPUT_NEEDED_EN, ...QUESTION_EN, ...MCP_APP_EN, ...MCP_SERVER_EN, ...MCP_SERVER_LIST_EN } as const;

/** The id of a message of the elements. */
export type MessageId = keyof typeof EN;
