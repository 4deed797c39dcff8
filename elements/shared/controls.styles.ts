import { css } from 'lit';

/** The look every text field and button shares: the element's font, surface, border and radius. */
export const fieldLook = css`
  font: inherit;
  color: var(--_text);
  background: var(--_surface);
  border: 1px solid var(--_border);
  border-radius: var(--_radius);
  padding: var(--_space-1) var(--_space-2);
`;

/** Shared look of buttons and switches inside the elements' shadow roots, and the visually hidden text. */
export const controlStyles = css`
  .visually-hidden,
  .live {
    position: absolute;
    inline-size: 1px;
    block-size: 1px;
    overflow: hidden;
    clip-path: inset(50%);
    white-space: nowrap;
  }
  button {
    ${fieldLook}
    cursor: pointer;
  }
  button:hover {
    border-color: var(--_text-muted);
  }
  button:focus-visible {
    outline: var(--_focus-width) solid var(--_focus);
    outline-offset: var(--_focus-offset);
  }
  button[role='switch'] {
    position: relative;
    inline-size: 2.25rem;
    block-size: 1.25rem;
    padding: 0;
    border-radius: 999px;
    background: var(--_neutral);
    border-color: transparent;
    flex: none;
  }
  button[role='switch']::after {
    content: '';
    position: absolute;
    inset-block-start: 2px;
    inset-inline-start: 2px;
    inline-size: calc(1.25rem - 6px);
    block-size: calc(1.25rem - 6px);
    border-radius: 50%;
    background: var(--_surface);
    transition: transform 120ms ease;
  }
  button[role='switch'][aria-checked='true'] {
    background: var(--_accent);
  }
  button[role='switch'][aria-checked='true']::after {
    transform: translateX(1rem);
    background: var(--_on-accent);
  }
  :host(:dir(rtl)) button[role='switch'][aria-checked='true']::after {
    transform: translateX(-1rem);
  }
  @media (prefers-reduced-motion: reduce) {
    button[role='switch']::after {
      transition: none;
    }
  }
`;
