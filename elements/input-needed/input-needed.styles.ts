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
      display: flex;
      flex-direction: column;
      gap: var(--_space-2);
      margin: 0;
      padding: 0;
      list-style: none;
    }
    .item {
      display: flex;
      flex-direction: column;
      gap: var(--_space-1);
      padding: var(--_space-2) var(--_space-3);
      background: var(--_surface);
      border: 1px solid var(--_border);
      border-inline-start: 3px solid var(--_warning);
      border-radius: var(--_radius);
    }
    .item[data-kind='toolClientExecution'] {
      border-inline-start-color: var(--_neutral);
    }
    .head {
      display: flex;
      flex-wrap: wrap;
      align-items: baseline;
      gap: var(--_space-2);
    }
    .title {
      font-weight: 600;
      overflow-wrap: anywhere;
    }
    .server,
    .muted {
      color: var(--_text-muted);
    }
    .badge {
      margin-inline-start: auto;
      padding: 0 var(--_space-2);
      border: 1px solid var(--_border);
      border-radius: 999px;
      font-size: 0.85em;
      white-space: nowrap;
    }
    .message,
    .result {
      margin: 0;
      overflow-wrap: anywhere;
    }
    .message > p,
    .result > p {
      margin: 0;
    }
    p.muted {
      margin: 0;
    }
    .actions {
      display: flex;
      flex-wrap: wrap;
      align-items: center;
      gap: var(--_space-2);
    }
    button[data-action='approve'],
    button[data-action='accept'],
    button[data-action='grant'],
    button[data-kind='approve'] {
      background: var(--_accent);
      color: var(--_on-accent);
      border-color: transparent;
    }
    button[aria-disabled='true'] {
      cursor: progress;
      opacity: 0.6;
    }
    .empty {
      margin: 0;
      padding: var(--_space-2) var(--_space-3);
      color: var(--_text-muted);
      border: 1px dashed var(--_border);
      border-radius: var(--_radius);
    }
  `,
];
