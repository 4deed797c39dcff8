/** MCP tool results and progress → AHP tool-call results and content (AHP §6.2 `ToolCallResult`, `ToolResultContent`). */
import type { CallToolResult, Progress } from '@modelcontextprotocol/sdk/types.js';
import type { ToolCallResult, ToolResultContent } from '../../../src/protocol/index.js';
import { errorText } from '../../../src/protocol/guards.js';

type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/**
 * One MCP content block as AHP result content: text → text; image/audio → embeddedResource (base64 + type);
 * resource_link → resource (a content reference); an embedded resource → embeddedResource for a blob,
 * text for text. Anything else becomes a text line saying what it was, so nothing disappears silently.
 */
export function mapContentBlock(block: unknown): ToolResultContent {
  if (!isRec(block)) return { type: 'text', text: `[unsupported content: ${JSON.stringify(block)}]` };
  switch (block.type) {
    case 'text':
      return { type: 'text', text: str(block.text) ?? '' };
    case 'image':
    case 'audio':
      return {
        type: 'embeddedResource',
        data: str(block.data) ?? '',
        contentType: str(block.mimeType) ?? (block.type === 'image' ? 'image/*' : 'audio/*'),
      };
    case 'resource_link': {
      const ref: ToolResultContent = { type: 'resource', uri: str(block.uri) ?? '' };
      const contentType = str(block.mimeType);
      if (contentType) ref.contentType = contentType;
      const size = block.size;
      if (typeof size === 'number' && Number.isFinite(size)) ref.sizeHint = size;
      return ref;
    }
    case 'resource': {
      const resource = isRec(block.resource) ? block.resource : {};
      const blob = str(resource.blob);
      if (blob !== undefined) return { type: 'embeddedResource', data: blob, contentType: str(resource.mimeType) ?? 'application/octet-stream' };
      return { type: 'text', text: str(resource.text) ?? '' };
    }
    default:
      return { type: 'text', text: `[unsupported content type ${JSON.stringify(block.type)}]` };
  }
}

/** The text of an MCP error result (its text blocks), for `error.message`. */
function errorMessage(result: CallToolResult): string {
  const texts = (Array.isArray(result.content) ? result.content : [])
    .filter((b): b is { type: 'text'; text: string } => isRec(b) && b.type === 'text' && typeof b.text === 'string')
    .map((b) => b.text.trim())
    .filter(Boolean);
  return texts.join('\n') || 'The tool reported an error.';
}

/** An MCP `CallToolResult` as an AHP `ToolCallResult` (`success: !isError`, content mapped, `structuredContent` carried). */
export function mapCallToolResult(result: CallToolResult, displayName: string): ToolCallResult {
  const failed = result.isError === true;
  const mapped: ToolCallResult = {
    success: !failed,
    pastTenseMessage: failed ? `${displayName} failed` : `Ran ${displayName}`,
    content: (Array.isArray(result.content) ? result.content : []).map(mapContentBlock),
  };
  if (isRec(result.structuredContent)) mapped.structuredContent = result.structuredContent;
  if (failed) mapped.error = { message: errorMessage(result) };
  return mapped;
}

/** A call that never produced an MCP result (protocol error, lost connection, timeout) as a failed `ToolCallResult`. */
export function failedCallResult(err: unknown, displayName: string): ToolCallResult {
  const message = errorText(err);
  const code = isRec(err) && (typeof err.code === 'number' || typeof err.code === 'string') ? String(err.code) : undefined;
  return {
    success: false,
    pastTenseMessage: `${displayName} failed`,
    error: code === undefined ? { message } : { message, code },
  };
}

/** An MCP progress notification as the running tool call's content: one text line, e.g. "Step 3 of 10". */
export function progressContent(progress: Progress): ToolResultContent[] {
  const step = typeof progress.total === 'number' ? `Step ${progress.progress} of ${progress.total}` : `Progress: ${progress.progress}`;
  const message = typeof progress.message === 'string' && progress.message.trim() ? `${progress.message.trim()} (${step})` : step;
  return [{ type: 'text', text: message }];
}
