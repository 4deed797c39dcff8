import { css } from 'lit';
import { tokenStyles } from '../shared/tokens.js';
import { controlStyles } from '../shared/controls.styles.js';

/**
 * @cssprop --ahp-tool-call-icon-size - Server icon size (default 1rem).
 * @cssprop --ahp-tool-call-image-max-height - Largest height of an image result (default 16rem).
 */
export const toolCallStyles = [
  tokenStyles,
  controlStyles,
  css`
    :host {
      --_icon-size: var(--ahp-tool-call-icon-size, 1rem);
      --_image-max: var(--ahp-tool-call-image-max-height, 16rem);
      display: block;
    }
    :host([hidden]) {
      display: none;
    }
    .card {
      display: flex;
      flex-direction: column;
      gap: var(--_space-2);
      padding: var(--_space-2) var(--_space-3);
      background: var(--_surface);
      border: 1px solid var(--_border);
      border-radius: var(--_radius);
      overflow-wrap: anywhere;
    }
    .card:focus-visible,
    summary:focus-visible,
    textarea:focus-visible,
    a:focus-visible {
      outline: 2px solid var(--_focus);
      outline-offset: 2px;
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
    .server {
      gap: var(--_space-1);
      color: var(--_text-muted);
    }
    .icon {
      inline-size: var(--_icon-size);
      block-size: var(--_icon-size);
      object-fit: contain;
    }
    .badge {
      --_badge: var(--_neutral);
      margin-inline-start: auto;
      padding: 0 var(--_space-2);
      border: 1px solid var(--_badge);
      border-radius: 999px;
      background: color-mix(in srgb, var(--_badge) 12%, var(--_surface));
      font-size: 0.85em;
      white-space: nowrap;
    }
    .badge[data-status='running'],
    .badge[data-status='streaming'] {
      --_badge: var(--_accent);
    }
    .badge[data-status='pending-confirmation'],
    .badge[data-status='pending-result-confirmation'],
    .badge[data-status='auth-required'] {
      --_badge: var(--_warning);
    }
    .badge[data-status='completed'] {
      --_badge: var(--_success);
    }
    .badge[data-outcome='failed'] {
      --_badge: var(--_danger);
    }
    p,
    pre,
    ul,
    ol,
    h1,
    h2,
    h3,
    h4,
    h5,
    h6 {
      margin: 0;
    }
    .md > * + *,
    .content > li + li {
      margin-block-start: var(--_space-1);
    }
    .md h1,
    .md h2,
    .md h3 {
      font-size: 1.1em;
    }
    .md h4,
    .md h5,
    .md h6 {
      font-size: 1em;
    }
    a {
      color: var(--_accent);
    }
    pre,
    code,
    textarea {
      font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
      font-size: 0.9em;
    }
    pre {
      padding: var(--_space-2);
      border: 1px solid var(--_border);
      border-radius: var(--_radius);
      white-space: pre-wrap;
      max-block-size: 20rem;
      overflow: auto;
    }
    .intention,
    .muted,
    .label,
    .risk,
    .reason {
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
    summary {
      cursor: pointer;
      color: var(--_text-muted);
    }
    .edit {
      display: flex;
      flex-direction: column;
      gap: var(--_space-1);
    }
    textarea {
      min-block-size: 5rem;
      color: var(--_text);
      background: var(--_surface);
      border: 1px solid var(--_border);
      border-radius: var(--_radius);
      padding: var(--_space-1);
      resize: vertical;
    }
    button.primary {
      color: var(--_on-accent);
      background: var(--_accent);
      border-color: var(--_accent);
    }
    .error,
    .risk[data-risk='high'] {
      color: var(--_danger);
    }
    .auth {
      display: flex;
      flex-direction: column;
      gap: var(--_space-2);
      padding: var(--_space-2);
      border: 1px dashed var(--_warning);
      border-radius: var(--_radius);
    }
    .live {
      position: absolute;
      inline-size: 1px;
      block-size: 1px;
      overflow: hidden;
      clip-path: inset(50%);
      white-space: nowrap;
    }
    .empty {
      padding: var(--_space-2) var(--_space-3);
      color: var(--_text-muted);
      border: 1px dashed var(--_border);
      border-radius: var(--_radius);
    }
  `,
];
