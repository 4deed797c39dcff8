import { css } from 'lit';
import { fieldLook } from './controls.styles.js';

/** Styles of an agent's question answered in place (`<ahp-chat>`, `<ahp-input-needed>`) and of the chat's pending messages. */
export const inputRequestStyles = css`
  .input-request {
    display: grid;
    gap: var(--_space-2);
    margin: var(--_space-2) 0;
    padding: var(--_space-2);
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
  }
  .input-request.done {
    display: block;
    border-style: dashed;
  }
  .input-request .question {
    margin: 0;
    font-weight: 600;
  }
  .input-request .field {
    display: grid;
    gap: var(--_space-1);
  }
  .input-request .options {
    display: flex;
    flex-wrap: wrap;
    gap: var(--_space-1) var(--_space-3);
  }
  .input-request input[type='text'],
  .input-request input[type='number'] {
    ${fieldLook}
  }
  .input-request .hint,
  .input-request .recommended {
    color: var(--_text-muted);
    font-size: 0.9em;
  }
  .input-request .buttons,
  .resume {
    display: flex;
    gap: var(--_space-2);
    align-items: center;
  }
  .pending {
    list-style: none;
    margin: var(--_space-1) 0;
    padding: 0;
    display: grid;
    gap: var(--_space-1);
  }
  .pending-message .who,
  .activity,
  .history-note {
    color: var(--_text-muted);
    font-size: 0.9em;
  }
  .activity,
  .history-note {
    margin: var(--_space-1) 0;
  }
`;
