import type { AppProblem } from '../../src/apps/app-run.js';
import type { LocaleController } from '../shared/i18n.js';
import { MCP_APP_EN } from '../locales/en/mcp-app.js';
import { addEnglish } from '../shared/i18n.js';

addEnglish(MCP_APP_EN);

/**
 * `<ahp-mcp-app>`'s strings come straight from its element's LocaleController: `t.t('app.…', params)` with the ids of
 * elements/locales/en/mcp-app.ts (one table per language, no wrapper object per render).
 */
export type McpAppStrings = LocaleController;

/** What to tell the user when an App did not start or stopped on its own. */
export function problemText(t: McpAppStrings, problem: AppProblem, app: { uri: string; serverId: string; noChannel: string }): string {
  switch (problem.kind) {
    case 'sandbox':
      if (problem.problem === 'missing') return t.t('app.noSandbox');
      return problem.problem === 'invalid' ? t.t('app.invalidSandbox', { url: problem.url ?? '' }) : t.t('app.sameOriginSandbox', { origin: location.origin });
    case 'noChannel':
      return t.t('app.noChannel', { id: app.serverId, reason: app.noChannel });
    case 'load':
      return t.t('app.loadFailed', { uri: app.uri, error: problem.message });
    case 'tooLarge':
      return t.t('app.tooLarge', { uri: app.uri, limit: problem.limit / 1048576 });
    case 'noAnswer':
      return t.t('app.noAnswer', { url: problem.origin });
    case 'notStarted': {
      const errors = problem.viewErrors.length ? problem.viewErrors.join(' · ') : t.t('app.didNotStart');
      return t.t('app.startTimeout', { errors, seconds: Math.round(problem.timeoutMs / 1000) });
    }
    default:
      return t.t('app.hijacked');
  }
}
