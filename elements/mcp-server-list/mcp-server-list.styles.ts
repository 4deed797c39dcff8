import { css } from 'lit';
import { tokenStyles } from '../shared/tokens.js';

export const mcpServerListStyles = [
  tokenStyles,
  css`
    :host {
      display: block;
    }
    .group + .group {
      margin-block-start: var(--_space-3);
    }
    .heading {
      margin-block-end: var(--_space-2);
      font-weight: 600;
      color: var(--_text-muted);
    }
    ul {
      display: grid;
      gap: var(--_space-2);
      margin: 0;
      padding: 0;
      list-style: none;
    }
    .empty {
      margin: 0;
      color: var(--_text-muted);
    }
  `,
];
