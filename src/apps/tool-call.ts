import type { ToolCallState } from '../protocol/tool-calls.js';
import type { CallToolResult, ContentBlock } from './types.js';
import { isRecord } from '../protocol/guards.js';

type Obj = Record<string, unknown>;

/**
 * Where the MCP `CallToolResult._meta` rides over AHP (whose `ToolCallResult` has no `_meta`): this key of the
 * tool call's `_meta`, set by the host's `chat/toolCallComplete` (whose `_meta` replaces the tool call's, so
 * the host keeps `ui` next to it). Views depend on it (e.g. `_meta.viewUUID`, `_meta.interactEnabled`).
 */
export const MCP_RESULT_META_KEY = 'ahp-elements/mcpResultMeta';

/**
 * The longest `ui://` URI taken as a View's, in characters. A longer one names no View: the call shows without an App,
 * so that a server cannot make every update of `<ahp-mcp-app>`, every error text and every read carry megabytes.
 */
export const MAX_VIEW_URI_LENGTH = 8192;

/** True when `uri` can name a View: a `ui://` URI of at most `MAX_VIEW_URI_LENGTH` characters. */
export const isViewUri = (uri: unknown): uri is string => typeof uri === 'string' && uri.length <= MAX_VIEW_URI_LENGTH && uri.startsWith('ui://');

/** `_meta.ui.resourceUri` of a tool call (or the legacy flat `ui/resourceUri`), if it can name a View (`isViewUri`). */
export function resourceUriOf(toolCall: { _meta?: Obj | undefined } | undefined): string | undefined {
  const meta = toolCall?._meta;
  const ui = isRecord(meta) && isRecord(meta['ui']) ? meta['ui'] : undefined;
  const uri = ui?.['resourceUri'] ?? (isRecord(meta) ? meta['ui/resourceUri'] : undefined);
  return isViewUri(uri) ? uri : undefined;
}

/** Parses streamed JSON arguments, closing open strings, objects and arrays; undefined when still unusable. */
export function repairPartialJson(text: string): Obj | undefined {
  const stack: string[] = [];
  let inString = false;
  let escaped = false;
  for (const ch of text) {
    if (inString) {
      if (escaped) escaped = false;
      else if (ch === '\\') escaped = true;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') inString = true;
    else if (ch === '{') stack.push('}');
    else if (ch === '[') stack.push(']');
    else if (ch === '}' || ch === ']') stack.pop();
  }
  let fixed = text + (inString ? '"' : '');
  fixed = fixed.replace(/[,:]\s*$/, '');
  for (let i = stack.length - 1; i >= 0; i--) fixed += stack[i];
  try {
    const value: unknown = JSON.parse(fixed);
    return isRecord(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** The complete arguments of a tool call: inline JSON → object; anything else → `{}`; undefined while streaming. */
export function toolArgumentsOf(toolCall: ToolCallState): Obj | undefined {
  if (toolCall.status === 'streaming') return undefined;
  const input = (toolCall as { toolInput?: unknown }).toolInput;
  if (typeof input === 'string') {
    try {
      const value: unknown = JSON.parse(input);
      return isRecord(value) ? value : {};
    } catch {
      return {};
    }
  }
  return {};
}

/** The MCP `CallToolResult` of a completed AHP tool call. */
export function callToolResultOf(toolCall: ToolCallState): CallToolResult | undefined {
  if (toolCall.status !== 'completed') return undefined;
  const content: ContentBlock[] = [];
  for (const c of toolCall.content ?? []) {
    if (c.type === 'text') content.push({ type: 'text', text: (c as { text: string }).text });
    else if (c.type === 'embeddedResource') {
      const { data, contentType } = c as { data: string; contentType: string };
      if (contentType.startsWith('image/')) content.push({ type: 'image', data, mimeType: contentType });
      else if (contentType.startsWith('audio/')) content.push({ type: 'audio', data, mimeType: contentType });
    }
  }
  if (!content.length && toolCall.error?.message) content.push({ type: 'text', text: toolCall.error.message });
  const resultMeta = isRecord(toolCall._meta) ? toolCall._meta[MCP_RESULT_META_KEY] : undefined;
  return {
    content,
    ...(isRecord(resultMeta) && { _meta: resultMeta }),
    ...(toolCall.structuredContent && { structuredContent: toolCall.structuredContent }),
    ...(!toolCall.success && { isError: true }),
  };
}

/** Why a tool call was cancelled, as text for `tool-cancelled`; undefined when it is not cancelled. */
export function cancelReasonOf(toolCall: ToolCallState): string | undefined {
  if (toolCall.status !== 'cancelled') return undefined;
  const message = toolCall.reasonMessage;
  const text = typeof message === 'string' ? message : (message as { markdown?: string } | undefined)?.markdown;
  return text || toolCall.reason || 'cancelled';
}
