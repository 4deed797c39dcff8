import { css } from 'lit';
import { tokenStyles } from '../shared/tokens.js';
import { controlStyles } from '../shared/controls.styles.js';

/**
 * @cssprop --ahp-tool-call-icon-size - Server icon size (default 1rem).
 * @cssprop --ahp-tool-call-image-max-height - Largest height of an image result (default 16rem).
 * @cssprop --ahp-tool-call-background - Background of the card (default `--ahp-color-surface`).
 * @cssprop --ahp-tool-call-border-color - Border of the card (default `--ahp-color-border`).
 */
export const toolCallStyles = [
  tokenStyles,
  controlStyles,
  css`
    :host {
      --_icon-size: var(--ahp-tool-call-icon-size, 1rem);
      --_image-max: var(--ahp-tool-call-image-max-height, 16rem);
      --_card-bg: var(--ahp-tool-call-background, var(--_surface));
      --_card-border: var(--ahp-tool-call-border-color, var(--_border));
      display: block;
    }
    .card,
    .auth,
    .edit {
      display: flex;
      flex-direction: column;
      gap: var(--_space-2);
    }
    .card,
    .empty {
      padding: var(--_space-2) var(--_space-3);
      background: var(--_card-bg);
      border: 1px solid var(--_card-border);
      border-radius: var(--_radius);
      overflow-wrap: anywhere;
    }
    /* On a phone an MCP App spans the card's full width. */
    @media (max-width: 30rem) {
      [part~='app'] {
        margin-inline: calc(-1 * var(--_space-3));
      }
    }
    .card:focus-visible {
      outline: var(--_focus-width) solid var(--_focus);
    }
    .header,
    .server,
    .actions {
      display: flex;
      flex-wrap: wrap;
      align-items: center;
      gap: var(--_space-2);
    }
    .name {
      font-weight: 600;
    }
    .icon {
      inline-size: var(--_icon-size);
      block-size: var(--_icon-size);
    }
    .badge {
      --_badge: var(--_neutral);
      margin-inline-start: auto;
      padding: 0 var(--_space-2);
      border: 1px solid var(--_badge);
      border-radius: 999px;
      background: color-mix(in srgb, var(--_badge) 12%, var(--_surface));
      font-size: 0.85em;
    }
    [data-status='running'],
    [data-status='streaming'] {
      --_badge: var(--_accent);
    }
    [data-status^='pending'],
    [data-status='auth-required'] {
      --_badge: var(--_warning);
    }
    [data-status='completed'] {
      --_badge: var(--_success);
    }
    [data-outcome='failed'] {
      --_badge: var(--_danger);
    }
    * {
      margin: 0;
    }
    h1,
    h2,
    h3,
    h4,
    h5,
    h6 {
      font-size: 1em;
    }
    .md > * + *,
    li + li {
      margin-block-start: var(--_space-1);
    }
    a {
      color: var(--_accent);
    }
    pre,
    code,
    textarea {
      font-family: var(--_font-mono);
    }
    pre,
    textarea {
      padding: var(--_space-1);
      border: 1px solid var(--_border);
      border-radius: var(--_radius);
      color: inherit;
      background: none;
    }
    pre {
      white-space: pre-wrap;
      max-block-size: 20rem;
      overflow: auto;
    }
    textarea {
      min-block-size: 5rem;
    }
    .server,
    .intention,
    .muted,
    .label,
    .risk,
    .reason,
    summary,
    .empty {
      color: var(--_text-muted);
    }
    .content {
      list-style: none;
      padding: 0;
    }
    .text {
      white-space: pre-wrap;
    }
    .image {
      max-inline-size: 100%;
      max-block-size: var(--_image-max);
    }
    .primary {
      color: var(--_on-accent);
      background: var(--_accent);
    }
    .error,
    [data-risk='high'] {
      color: var(--_danger);
    }
    .auth {
      padding: var(--_space-2);
      border: 1px dashed var(--_warning);
      border-radius: var(--_radius);
    }
    .empty {
      border-style: dashed;
    }
  `,
];
