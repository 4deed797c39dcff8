/**
 * English messages of `<ahp-mcp-server-list>`. The module that renders them adds them with `addEnglish` when it loads, so each
 * CDN chunk carries its own strings. All English messages together are `ENGLISH_MESSAGES` (elements/shared/messages-en.ts).
 */
export const MCP_SERVER_LIST_EN = {
  'list.session': 'Session',
  'list.empty': 'No MCP servers',
} as const;
