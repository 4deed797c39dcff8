import { css } from 'lit';
import { tokenStyles } from '../shared/tokens.js';
import { controlStyles, fieldLook } from '../shared/controls.styles.js';
import { inputRequestStyles } from '../shared/input-request.styles.js';

/**
 * @cssprop --ahp-chat-transcript-max-height - Largest height of the scrolling transcript (default 28rem).
 * @cssprop --ahp-chat-message-background - Background of the user's messages (default: accent tint on the surface).
 */
export const chatStyles = [
  tokenStyles,
  controlStyles,
  inputRequestStyles,
  css`
    :host {
      --_transcript-max: var(--ahp-chat-transcript-max-height, 28rem);
      --_message-bg: var(--ahp-chat-message-background, color-mix(in srgb, var(--_accent) 12%, var(--_surface)));
      display: flex;
      flex-direction: column;
      gap: var(--_space-2);
      min-block-size: 0;
    }
    .transcript {
      /* Contains the visually hidden live regions of the tool calls, which would otherwise overflow the page. */
      position: relative;
      flex: 1 1 auto;
      min-block-size: 0;
      max-block-size: var(--_transcript-max);
      overflow-y: auto;
      padding: var(--_space-2);
      border: 1px solid var(--_border);
      border-radius: var(--_radius);
    }
    :focus-visible {
      outline: var(--_focus-width) solid var(--_focus);
      outline-offset: var(--_focus-offset);
    }
    .turns,
    .turn,
    .response {
      display: flex;
      flex-direction: column;
      gap: var(--_space-2);
    }
    .message {
      align-self: flex-end;
      max-inline-size: 85%;
      padding: var(--_space-1) var(--_space-2);
      border-radius: var(--_radius);
      background: var(--_message-bg);
    }
    .who,
    .muted,
    .turn-state,
    .empty,
    .reasoning,
    .notification,
    .input-request,
    .reference {
      margin: 0;
      color: var(--_text-muted);
    }
    .who {
      display: block;
      font-size: 0.8em;
    }
    .text {
      margin: 0;
      white-space: pre-wrap;
    }
    .text,
    .markdown,
    .uri {
      overflow-wrap: anywhere;
    }
    .markdown pre {
      overflow-x: auto;
    }
    .notification,
    .input-request,
    .reference {
      padding-inline-start: var(--_space-2);
      border-inline-start: 3px solid var(--_neutral);
    }
    .error {
      margin: 0;
      color: var(--_danger);
    }
    .composer {
      display: flex;
      gap: var(--_space-2);
      align-items: flex-end;
    }
    textarea {
      flex: 1;
      ${fieldLook}
    }
    .hint {
      margin: 0;
      color: var(--_text-muted);
      font-size: 0.9em;
    }
    .hint.error {
      color: var(--_danger);
    }
    .link {
      padding: 0 var(--_space-1);
    }
    @media (max-width: 30rem) {
      .transcript {
        padding: var(--_space-1);
      }
    }
    button[disabled] {
      opacity: 0.6;
    }
  `,
];
