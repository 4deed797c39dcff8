/** Every user-visible string of `<ahp-mcp-app>`, in one place (for a later localization seam). */
export const mcpAppStrings = {
  loading: 'Loading app…',
  exit: (mode: string) => (mode === 'pip' ? 'Exit picture-in-picture' : 'Exit full screen'),
  frameTitle: (app: string | undefined, server: string) => (app ? `${app} (MCP App from ${server})` : `MCP App from ${server}`),
  promptLabel: (server: string) => `Request from ${server}`,
  promptMessage: (server: string, text: string) => `${server} wants to send: “${text}”`,
  promptOpenLink: (server: string, url: string) => `${server} wants to open: ${url}`,
  promptDownload: (server: string, names: string) => `${server} wants to download: ${names}`,
  promptDisplayMode: (server: string, mode: string) => `${server} wants to show itself ${mode === 'pip' ? 'in picture-in-picture' : 'full screen'}`,
  confirm: { message: 'Send', openLink: 'Open', download: 'Download', displayMode: 'Allow' } as Record<string, string>,
  dismiss: 'Dismiss',
  notStarted: (why: string | undefined, seconds: number) => `${why ?? 'The App did not start'} (no ui/notifications/initialized within ${seconds} s)`,
  hijacked: 'This App was stopped: its sandbox frame was navigated away or replaced, so it can no longer be trusted.',
} as const;
