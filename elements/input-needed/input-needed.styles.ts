import { css } from 'lit';
import { tokenStyles } from '../shared/tokens.js';
import { controlStyles } from '../shared/controls.styles.js';
import { inputRequestStyles } from '../shared/input-request.styles.js';

export const inputNeededStyles = [
  tokenStyles,
  controlStyles,
  inputRequestStyles,
  css`
    :host {
      display: block;
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
      justify-items: start;
    }
    .plain {
      padding: var(--_space-2) var(--_space-3);
      border: 1px solid var(--_border);
      border-radius: var(--_radius);
    }
    .item > ahp-tool-call {
      justify-self: stretch;
    }
    .message,
    .muted,
    .empty,
    .badge {
      margin: 0;
    }
    .muted,
    .empty,
    .badge {
      color: var(--_text-muted);
    }
    .badge {
      font-size: 0.85em;
    }
    .item[aria-busy='true'] > ahp-tool-call {
      opacity: 0.6;
    }
  `,
];
