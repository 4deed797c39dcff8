/**
 * English messages of `<ahp-input-needed>`. The module that renders them adds them with `addEnglish` when it loads, so each
 * CDN chunk carries its own strings. All English messages together are `ENGLISH_MESSAGES` (elements/shared/messages-en.ts).
 */
export const INPUT_NEEDED_EN = {
  'input.list': 'Waiting for your input',
  'input.empty': 'Nothing needs your input',
  'input.badge.toolConfirmation': 'Needs approval',
  'input.badge.toolAuthentication': 'Needs access',
  'input.badge.toolClientExecution': 'Runs on a client',
  'input.badge.chatInput': 'Question',
  'input.badge.reviewResult': 'Review result',
  'input.badge.needsInput': 'Needs input',
  'input.sending': 'sending…',
  'input.waitingFor': 'Waiting for {client} to run it.',
  'input.anotherClient': 'another client',
  'input.question': 'The agent asks a question.',
  'input.openToAnswer': 'Open the chat to answer.',
  'input.openChat': 'Open chat',
} as const;
