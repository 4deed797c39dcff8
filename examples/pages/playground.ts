// What every example page needs from the playground that serves it (GET /playground.json): the AHP endpoint, the
// session to show and its main chat. A page of your own knows these already.

export interface PlaygroundInfo {
  /** The host's WebSocket URL. */
  wsUrl: string;
  /** The session the page shows. */
  sessionUri: string;
  /** The session's main chat. */
  chatUri: string;
}

export async function playgroundInfo(): Promise<PlaygroundInfo> {
  const info = (await (await fetch('/playground.json')).json()) as Omit<PlaygroundInfo, 'chatUri'> & { chatUri?: string };
  return { ...info, chatUri: info.chatUri ?? 'ahp-chat:/playground-main' };
}
