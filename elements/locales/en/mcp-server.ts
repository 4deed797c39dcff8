/**
 * English messages of `<ahp-mcp-server>` (its state, controls and sign-in panel). The module that renders them adds them with `addEnglish` when it loads, so each
 * CDN chunk carries its own strings. All English messages together are `ENGLISH_MESSAGES` (elements/shared/messages-en.ts).
 */
export const MCP_SERVER_EN = {
  'server.unknown': 'Unknown MCP server “{id}”',
  'server.state.starting': 'Starting…',
  'server.state.ready': 'Ready',
  'server.state.authRequired': 'Sign-in required',
  'server.state.error': 'Error',
  'server.state.stopped': 'Stopped',
  'server.disabled': 'Disabled',
  'server.disabledBy': 'Disabled by {container}',
  'server.enable': 'Enable {name}',
  'server.start': 'Start',
  'server.stop': 'Stop',
  'server.restart': 'Restart',
  'server.startLabel': 'Start {name}',
  'server.stopLabel': 'Stop {name}',
  'server.restartLabel': 'Restart {name}',
  'server.failedAgain': 'Failed again at {time} ({count} attempts)',
  'auth.required': 'Sign-in required',
  'auth.expired': 'Session expired',
  'auth.insufficientScope': 'More access needed',
  'auth.other': 'Authentication needed',
  'auth.signIn': 'Sign in',
  'auth.signInAgain': 'Sign in again',
  'auth.grantAccess': 'Grant access',
  'auth.buttonLabel': '{action} to {name}',
  'auth.scopes': 'Access requested:',
  'auth.signingIn': 'Signing in…',
  'auth.finishInWindow': 'Finish signing in in the window that opened.',
  'auth.failed': 'Sign-in failed.',
} as const;
