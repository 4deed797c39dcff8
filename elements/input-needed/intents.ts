// The list sends no intents of its own: each row does, a tool call through `<ahp-tool-call>` and an agent's question
// through the shared question form. These are the intents a row can send.
export { approveIntent, cancelIntent, denyIntent, resultIntent } from '../tool-call/intents.js';
export { answerQuestion } from '../shared/input-request-form.js';
