import type { AppProblem } from '../../src/apps/app-run.js';
import type { LocaleController } from '../shared/i18n.js';
import { MCP_APP_EN } from '../locales/en/mcp-app.js';
import { addEnglish } from '../shared/i18n.js';

addEnglish(MCP_APP_EN);

/** Every user-visible string of `<ahp-mcp-app>`, in the element's language (ids `app.*` of the localization seam). */
export function mcpAppStrings(l: LocaleController) {
  return {
    loading: l.t('app.loading'),
    exit: (mode: string) => l.t(mode === 'pip' ? 'app.exitPip' : 'app.exitFullscreen'),
    frameTitle: (app: string | undefined, server: string) => (app ? l.t('app.frameTitleNamed', { app, server }) : l.t('app.frameTitle', { server })),
    promptLabel: (server: string) => l.t('app.promptLabel', { server }),
    promptMessage: (server: string, text: string) => l.t('app.promptMessage', { server, text }),
    promptOpenLink: (server: string, url: string) => l.t('app.promptOpenLink', { server, url }),
    promptDownload: (server: string, names: string) => l.t('app.promptDownload', { server, names }),
    promptDisplayMode: (server: string, mode: string) => l.t(mode === 'pip' ? 'app.promptPip' : 'app.promptFullscreen', { server }),
    confirm: {
      message: l.t('app.confirm.message'),
      openLink: l.t('app.confirm.openLink'),
      download: l.t('app.confirm.download'),
      displayMode: l.t('app.confirm.displayMode'),
    } as Record<string, string>,
    dismiss: l.t('app.dismiss'),
    notStarted: (why: string | undefined, seconds: number) => l.t('app.startTimeout', { errors: why ?? l.t('app.didNotStart'), seconds }),
    hijacked: l.t('app.hijacked'),
    flooded: l.t('app.flooded'),
    noSandbox: l.t('app.noSandbox'),
    invalidSandbox: (url: string) => l.t('app.invalidSandbox', { url }),
    sameOriginSandbox: (origin: string) => l.t('app.sameOriginSandbox', { origin }),
    noChannel: (id: string, reason: string) => l.t('app.noChannel', { id, reason }),
    noHandle: l.t('app.noHandle'),
    loadFailed: (uri: string, error: string) => l.t('app.loadFailed', { uri, error }),
    noAnswer: (url: string) => l.t('app.noAnswer', { url }),
  };
}

export type McpAppStrings = ReturnType<typeof mcpAppStrings>;

/** What to tell the user when an App did not start or stopped on its own. */
export function problemText(t: McpAppStrings, problem: AppProblem, app: { uri: string; serverId: string; noChannel: string }): string {
  switch (problem.kind) {
    case 'sandbox':
      if (problem.problem === 'missing') return t.noSandbox;
      return problem.problem === 'invalid' ? t.invalidSandbox(problem.url ?? '') : t.sameOriginSandbox(location.origin);
    case 'noChannel':
      return t.noChannel(app.serverId, app.noChannel);
    case 'load':
      return t.loadFailed(app.uri, problem.message);
    case 'noAnswer':
      return t.noAnswer(problem.origin);
    case 'notStarted':
      return t.notStarted(problem.viewErrors.length ? problem.viewErrors.join(' · ') : undefined, Math.round(problem.timeoutMs / 1000));
    default:
      return t.hijacked;
  }
}
