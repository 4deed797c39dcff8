import { css } from 'lit';
import { tokenStyles } from '../shared/tokens.js';
import { controlStyles } from '../shared/controls.styles.js';

export const chatStyles = [
  tokenStyles,
  controlStyles,
  css`
    :host {
      --_transcript-max-height: var(--ahp-chat-transcript-max-height, 28rem);
      display: flex;
      flex-direction: column;
      gap: var(--_space-2);
      min-block-size: 0;
    }
    :host([hidden]) {
      display: none;
    }
    .transcript {
      flex: 1 1 auto;
      min-block-size: 0;
      max-block-size: var(--_transcript-max-height);
      overflow-y: auto;
      overscroll-behavior: contain;
      padding: var(--_space-2);
      background: var(--_surface);
      border: 1px solid var(--_border);
      border-radius: var(--_radius);
    }
    .transcript:focus-visible,
    textarea:focus-visible,
    summary:focus-visible {
      outline: 2px solid var(--_focus);
      outline-offset: 2px;
    }
    .turns {
      display: flex;
      flex-direction: column;
      gap: var(--_space-3);
    }
    .turn {
      display: flex;
      flex-direction: column;
      gap: var(--_space-2);
    }
    .message {
      align-self: flex-end;
      max-inline-size: 85%;
      padding: var(--_space-2) var(--_space-3);
      border-radius: var(--_radius);
      background: color-mix(in srgb, var(--_accent) 10%, var(--_surface));
      border: 1px solid color-mix(in srgb, var(--_accent) 30%, var(--_border));
    }
    .message:not([data-origin='user']) {
      align-self: flex-start;
      background: transparent;
      border-style: dashed;
    }
    .who {
      display: block;
      font-size: 0.8em;
      color: var(--_text-muted);
    }
    .text {
      margin: 0;
      white-space: pre-wrap;
      overflow-wrap: anywhere;
    }
    .response {
      display: flex;
      flex-direction: column;
      gap: var(--_space-2);
    }
    .markdown > :first-child {
      margin-block-start: 0;
    }
    .markdown > :last-child {
      margin-block-end: 0;
    }
    .markdown pre {
      overflow-x: auto;
      padding: var(--_space-2);
      border-radius: var(--_radius);
      background: color-mix(in srgb, var(--_text) 6%, var(--_surface));
    }
    .markdown a {
      color: var(--_accent);
    }
    .reasoning {
      color: var(--_text-muted);
    }
    .reasoning summary {
      cursor: pointer;
    }
    .notification,
    .input-request,
    .reference {
      margin: 0;
      padding: var(--_space-1) var(--_space-2);
      border-inline-start: 3px solid var(--_neutral);
      color: var(--_text-muted);
    }
    .input-request p {
      margin: 0;
    }
    .error {
      color: var(--_danger);
    }
    .error p {
      margin: 0;
    }
    .uri {
      overflow-wrap: anywhere;
    }
    .muted,
    .turn-state {
      margin: 0;
      color: var(--_text-muted);
      font-size: 0.9em;
    }
    .turn-state.error {
      color: var(--_danger);
    }
    .empty {
      margin: 0;
      padding: var(--_space-2) var(--_space-3);
      color: var(--_text-muted);
    }
    p.empty[data-empty='loading'] {
      border: 1px dashed var(--_border);
      border-radius: var(--_radius);
    }
    .composer {
      display: flex;
      gap: var(--_space-2);
      align-items: flex-end;
    }
    textarea {
      flex: 1;
      min-inline-size: 0;
      resize: vertical;
      font: inherit;
      color: var(--_text);
      background: var(--_surface);
      border: 1px solid var(--_border);
      border-radius: var(--_radius);
      padding: var(--_space-1) var(--_space-2);
    }
    .buttons {
      display: flex;
      gap: var(--_space-2);
    }
    button[data-action='send']:not([disabled]) {
      background: var(--_accent);
      color: var(--_on-accent);
      border-color: transparent;
    }
    button[disabled] {
      cursor: not-allowed;
      opacity: 0.6;
    }
    .visually-hidden {
      position: absolute;
      inline-size: 1px;
      block-size: 1px;
      overflow: hidden;
      clip-path: inset(50%);
      white-space: nowrap;
    }
  `,
];
