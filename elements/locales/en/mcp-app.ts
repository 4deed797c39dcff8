/**
 * English messages of `<ahp-mcp-app>`. The module that renders them adds them with `addEnglish` when it loads, so each
 * CDN chunk carries its own strings. All English messages together are `ENGLISH_MESSAGES` (elements/shared/messages-en.ts).
 */
export const MCP_APP_EN = {
  'app.loading': 'Loading app…',
  'app.frameTitle': 'MCP App from {server}',
  'app.frameTitleNamed': '{app} (MCP App from {server})',
  'app.promptLabel': 'Request from {server}',
  'app.promptMessage': '{server} wants to send: “{text}”',
  'app.promptOpenLink': '{server} wants to open: {url}',
  'app.promptDownload': '{server} wants to download: {names}',
  'app.promptFullscreen': '{server} wants to show itself full screen',
  'app.promptPip': '{server} wants to show itself in picture-in-picture',
  'app.confirm.message': 'Send',
  'app.confirm.openLink': 'Open',
  'app.confirm.download': 'Download',
  'app.confirm.displayMode': 'Allow',
  'app.dismiss': 'Dismiss',
  'app.flooded': 'This App was stopped: it sent far more messages than allowed, past its sandbox\'s own limit.',
  'app.hijacked': 'This App was stopped: its sandbox frame was navigated away or replaced, so it can no longer be trusted.',
  'app.exitFullscreen': 'Exit full screen',
  'app.exitPip': 'Exit picture-in-picture',
  'app.noSandbox': 'App not shown: this page sets no sandbox for MCP Apps (sandbox-url or AhpMcpApp.sandboxUrlFor).',
  'app.invalidSandbox': 'Invalid sandbox-url “{url}”',
  'app.sameOriginSandbox': "The sandbox-url must be an http(s) URL on another origin than this page ({origin}); a View on the page's own origin could read it.",
  'app.noChannel': 'MCP server “{id}” has no mcp:// channel: {reason}',
  'app.noHandle': 'no session handle (put the element inside <ahp-session> or set .handle)',
  'app.loadFailed': 'Could not load {uri}: {error}',
  'app.tooLarge': 'App not shown: {uri} is over the {limit} MB limit.',
  'app.noAnswer': 'The sandbox at {url} did not answer (is it served with its script, on another origin?)',
  'app.didNotStart': 'The App did not start',
  'app.startTimeout': '{errors} (no ui/notifications/initialized within {seconds} s)',
} as const;
