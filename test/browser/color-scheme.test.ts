// ColorSchemeController: elements that pick a server icon by theme follow a flip of prefers-color-scheme without any
// other change (under `color-scheme: light dark`, the scheme the user prefers decides).
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import { emulateMedia } from '@web/test-runner-commands';
import '../../elements/mcp-server/define.js';
import '../../elements/tool-call/define.js';
import { CALLS, CHAT, FakeChatStore, chatState } from './fixtures/tool-calls.js';
import { DARK_ICON, LIGHT_ICON, STATES, mcpServer, session } from './fixtures/sessions.js';

const icons = [
  { src: LIGHT_ICON, theme: 'light' as const },
  { src: DARK_ICON, theme: 'dark' as const },
];
const iconOf = (el: Element) => el.shadowRoot!.querySelector('img')?.getAttribute('src');

describe('colour scheme', () => {
  afterEach(() => emulateMedia({ colorScheme: 'light' }));

  for (const tag of ['ahp-mcp-server', 'ahp-tool-call'] as const) {
    it(`<${tag}> switches its server icon when prefers-color-scheme flips, and back`, async () => {
      await emulateMedia({ colorScheme: 'light' });
      const store = new FakeChatStore(session([mcpServer('a', STATES.ready!, { icons })]), { [CHAT]: chatState([CALLS.running!]) });
      const el = await fixture<HTMLElement & { updateComplete: Promise<unknown> }>(
        tag === 'ahp-mcp-server'
          ? html`<ahp-mcp-server style="color-scheme: light dark" server-id="a" .store=${store}></ahp-mcp-server>`
          : html`<ahp-tool-call style="color-scheme: light dark" chat=${CHAT} tool-call-id="tc1" .store=${store}></ahp-tool-call>`,
      );
      await el.updateComplete;
      expect(iconOf(el)).to.equal(LIGHT_ICON);
      await emulateMedia({ colorScheme: 'dark' });
      await waitUntil(() => iconOf(el) === DARK_ICON, `<${tag}> shows the dark icon`);
      await emulateMedia({ colorScheme: 'light' });
      await waitUntil(() => iconOf(el) === LIGHT_ICON, `<${tag}> shows the light icon again`);
    });
  }
});
