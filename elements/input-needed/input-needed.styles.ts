import { css } from 'lit';
import { tokenStyles } from '../shared/tokens.js';
import { controlStyles } from '../shared/controls.styles.js';

export const inputNeededStyles = [
  tokenStyles,
  controlStyles,
  css`
    :host {
      display: block;
    }
    :host([hidden]) {
      display: none;
    }
    .list {
      display: grid;
      gap: var(--_space-2);
      margin: 0;
      padding: 0;
      list-style: none;
    }
    .item {
      display: grid;
      gap: var(--_space-1);
      padding: var(--_space-2) var(--_space-3);
      border: 1px solid var(--_border);
      border-inline-start: 3px solid var(--_warning);
      border-radius: var(--_radius);
    }
    .head,
    .actions {
      display: flex;
      flex-wrap: wrap;
      align-items: center;
      gap: var(--_space-2);
    }
    .title {
      font-weight: 600;
    }
    .server,
    .muted,
    .empty,
    .badge {
      margin: 0;
      color: var(--_text-muted);
    }
    .badge {
      margin-inline-start: auto;
      font-size: 0.85em;
    }
    .message,
    .result,
    .message > p {
      margin: 0;
      overflow-wrap: anywhere;
    }
    button[aria-disabled='true'] {
      opacity: 0.6;
    }
  `,
];
