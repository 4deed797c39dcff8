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
    /*
     * Servers not rendered yet, as their names; a block off screen is skipped by style, layout and paint.
     * --names (set per block) rows of .deferred's minimum height: the height of a block still waiting for its names.
     */
    .names {
      --_names-height: calc(var(--names, 25) * 2.75rem + (var(--names, 25) - 1) * var(--_space-2));
      display: grid;
      gap: var(--_space-2);
      content-visibility: auto;
      contain-intrinsic-size: auto var(--_names-height);
    }
    .names[data-pending] {
      block-size: var(--_names-height);
    }
    .deferred {
      min-block-size: 2.75rem;
      box-sizing: border-box;
      padding: var(--_space-2) var(--_space-3);
      border: 1px solid var(--_border);
      border-radius: var(--_radius);
      font-weight: 600;
    }
    .empty {
      margin: 0;
      color: var(--_text-muted);
    }
  `,
];
