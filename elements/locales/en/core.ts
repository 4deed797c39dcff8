/**
 * English messages shared by every element (loading, session choice, connection state), built in: built into the locale seam (elements/shared/i18n.ts).
 * All English messages together are `ENGLISH_MESSAGES` (elements/shared/messages-en.ts).
 */
export const CORE_EN = {
  loading: 'Loading…',
  'session.choose': "Choose a session",
  'session.none': "The host has no sessions.",
  'session.discoveryFailed': "Could not list the host's sessions: {error}",
  'session.retry': 'Try again',
  'connection.connecting': 'Connecting to the host…',
  'connection.reconnecting': 'Connection lost. Next attempt at {time} (attempt {attempt}).',
  'connection.retrying': 'Connection lost. Reconnecting (attempt {attempt})…',
  'connection.closed': 'Disconnected: {reason}',
  'connection.closedNoReason': 'Disconnected from the host.',
  'connection.retryNow': 'Retry now',
  'connection.offline': 'Not connected to the host: this can be used again once the connection is back.',
  'connection.offlineClosed': 'Not connected to the host.',
} as const;
