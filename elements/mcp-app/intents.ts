import { turnStarted } from '../../src/intents/chat.js';
import { APP_MESSAGE_META_KEY, type ContentBlock } from '../../src/apps/types.js';
import { AhpAppMessageEvent, type AppMessageDetail } from './events.js';

/** The App a message comes from, as the transcript names it (`_meta[APP_MESSAGE_META_KEY]` of the message). */
export interface AppMessageSource {
  serverId: string | undefined;
  server: string;
  toolCallId?: string;
}

/**
 * The View's `ui/message`: `ahp-app-message`, then a user turn marked as the App's (and carrying the App's model
 * context, when it set one) on the tool call's chat.
 */
export function messageIntent(detail: AppMessageDetail, from: AppMessageSource): readonly [event: AhpAppMessageEvent, action: ReturnType<typeof turnStarted>] {
  const { text, modelContext } = detail;
  const messageMeta = { [APP_MESSAGE_META_KEY]: from, ...(modelContext !== undefined && { mcpAppModelContext: modelContext }) };
  return [new AhpAppMessageEvent(detail), turnStarted({ text, messageMeta })];
}

/** The text of a View's `ui/message` content (its text blocks, one per line). */
export function appMessageText(content: readonly ContentBlock[]): string {
  return content
    .filter((c) => c.type === 'text' && typeof c['text'] === 'string')
    .map((c) => c['text'] as string)
    .join('\n');
}
