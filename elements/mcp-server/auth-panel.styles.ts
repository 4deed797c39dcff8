import { css } from 'lit';

/** Looks of the sign-in panel `<ahp-mcp-server>` shows in `authRequired`. */
export const authPanelStyles = css`
  .auth {
    flex-basis: 100%;
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: var(--_space-1) var(--_space-2);
  }
  .auth p {
    margin: 0;
  }
  .auth-reason {
    font-weight: 600;
  }
  .auth-description,
  .auth-scopes {
    flex-basis: 100%;
    color: var(--_text-muted);
    overflow-wrap: anywhere;
  }
  .auth-status:empty {
    display: none;
  }
  .auth-status[data-status='error'] {
    flex-basis: 100%;
    color: var(--_danger);
  }
  button[aria-disabled='true'] {
    cursor: progress;
  }
`;
