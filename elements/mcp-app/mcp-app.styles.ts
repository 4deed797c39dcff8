import { css } from 'lit';
import { tokenStyles } from '../shared/tokens.js';
import { controlStyles } from '../shared/controls.styles.js';

export const mcpAppStyles = [
  tokenStyles,
  controlStyles,
  css`
    :host { display: block; }
    .frame { position: relative; width: 100%; }
    .frame iframe { display: block; width: 100%; border: 0; background: transparent; height: var(--ahp-mcp-app-default-height, 320px); }
    :host([data-border]) .frame { border: 1px solid var(--_border); border-radius: var(--_radius); overflow: hidden; }
    :host([display-mode='fullscreen']) .frame {
      position: fixed; inset: 0; z-index: 2147483000; background: var(--_surface);
    }
    :host([display-mode='pip']) .frame {
      position: fixed; right: 1rem; bottom: 1rem; width: min(360px, 90vw); height: min(240px, 50vh);
      z-index: 2147483000; background: var(--_surface); box-shadow: 0 12px 32px rgb(0 0 0 / 0.25);
      border-radius: var(--_radius); overflow: hidden;
    }
    :host([display-mode='fullscreen']) .viewport, :host([display-mode='pip']) .viewport { height: 100%; }
    :host([display-mode='fullscreen']) .frame iframe, :host([display-mode='pip']) .frame iframe { height: 100% !important; }
    .exit { position: absolute; top: var(--_space-2); right: var(--_space-2); z-index: 1; }
    .status { margin: 0; color: var(--_text-muted); }
    .prompt {
      display: flex; flex-wrap: wrap; align-items: center; gap: var(--_space-2); margin-bottom: var(--_space-2);
      padding: var(--_space-2); border: 1px solid var(--_warning); border-radius: var(--_radius); background: var(--_surface);
    }
    .prompt-text { flex: 1 1 16rem; margin: 0; overflow-wrap: anywhere; }
    .status[data-kind='error'] { color: var(--_danger); }
  `,
];
