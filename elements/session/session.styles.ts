import { css } from 'lit';

/** Looks of `<ahp-session>`: a block around its slot, and the session picker shown without a `session`. */
export const sessionStyles = css`
  :host {
    display: block;
  }
  :host([hidden]) {
    display: none;
  }
  [part='sessions'] {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5rem;
    align-items: center;
  }
  [part='sessions'] p {
    margin: 0;
  }
`;
