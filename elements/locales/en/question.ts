/**
 * English messages of the answer form for agent questions (in `<ahp-chat>` and `<ahp-input-needed>`). The module that renders them adds them with `addEnglish` when it loads, so each
 * CDN chunk carries its own strings. All English messages together are `ENGLISH_MESSAGES` (elements/shared/messages-en.ts).
 */
export const QUESTION_EN = {
  'question.submit': 'Submit',
  'question.continue': 'Continue',
  'question.decline': 'Decline',
  'question.openUrl': 'Open the page the agent asks you to visit',
  'question.other': 'Other…',
  'question.otherLabel': 'Other',
  'question.recommended': '(recommended)',
  'question.unsupported': 'This kind of question ({kind}) can be answered in another client.',
  'question.asked': 'The agent asked for input.',
  'question.answered': 'Answered',
  'question.declined': 'Declined',
  'question.cancelled': 'Cancelled',
  'question.closed': 'No longer waiting',
} as const;
