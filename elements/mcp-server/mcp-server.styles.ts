import { css } from 'lit';
import { tokenStyles } from '../shared/tokens.js';
import { controlStyles } from '../shared/controls.styles.js';

/**
 * @cssprop --ahp-mcp-server-icon-size - Size of the server icon (default 1.5rem).
 * @cssprop --ahp-mcp-server-background - Background of the card (default `--ahp-color-surface`).
 * @cssprop --ahp-mcp-server-border-color - Border of the card (default `--ahp-color-border`).
 */
export const mcpServerStyles = [
  tokenStyles,
  controlStyles,
  css`
    :host {
      --_icon-size: var(--ahp-mcp-server-icon-size, 1.5rem);
      --_card-bg: var(--ahp-mcp-server-background, var(--_surface));
      --_card-border: var(--ahp-mcp-server-border-color, var(--_border));
      display: block;
    }
    .card {
      display: flex;
      flex-wrap: wrap;
      align-items: center;
      gap: var(--_space-2);
      padding: var(--_space-2) var(--_space-3);
      background: var(--_card-bg);
      border: 1px solid var(--_card-border);
      border-radius: var(--_radius);
    }
    .icon {
      inline-size: var(--_icon-size);
      block-size: var(--_icon-size);
      object-fit: contain;
      flex: none;
    }
    .placeholder {
      border-radius: var(--_radius);
      background: var(--_border);
    }
    .name {
      font-weight: 600;
      overflow-wrap: anywhere;
    }
    .badge,
    .disabled {
      --_badge: var(--_neutral);
      display: inline-flex;
      align-items: center;
      gap: var(--_space-1);
      padding: 0 var(--_space-2);
      border: 1px solid var(--_badge);
      border-radius: 999px;
      background: color-mix(in srgb, var(--_badge) 12%, var(--_surface));
      font-size: 0.85em;
      white-space: nowrap;
    }
    .badge::before {
      content: '';
      inline-size: 0.5em;
      block-size: 0.5em;
      border-radius: 50%;
      background: var(--_badge);
    }
    .badge[data-kind='ready'] {
      --_badge: var(--_success);
    }
    .badge[data-kind='starting'],
    .badge[data-kind='authRequired'] {
      --_badge: var(--_warning);
    }
    .badge[data-kind='error'] {
      --_badge: var(--_danger);
    }
    .disabled {
      color: var(--_text-muted);
      background: transparent;
      border-style: dashed;
    }
    .actions {
      display: flex;
      align-items: center;
      gap: var(--_space-2);
      margin-inline-start: auto;
    }
    .error {
      flex-basis: 100%;
      margin: 0;
      color: var(--_danger);
      overflow-wrap: anywhere;
    }
    .empty {
      margin: 0;
      padding: var(--_space-2) var(--_space-3);
      color: var(--_text-muted);
      border: 1px dashed var(--_border);
      border-radius: var(--_radius);
    }
    @media (prefers-reduced-motion: no-preference) {
      :host(:state(starting)) .badge::before {
        animation: ahp-pulse 1s ease-in-out infinite alternate;
      }
    }
    @keyframes ahp-pulse {
      to {
        opacity: 0.3;
      }
    }
  `,
];
