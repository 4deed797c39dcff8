import { expect } from '@open-wc/testing';
import { VERSION } from '../../elements/shared/version.js';
import { captureWarnings, expectOneVersionWarning } from './fixtures/console-warnings.js';

const TAGS = ['ahp-session', 'ahp-mcp-server', 'ahp-mcp-server-list', 'ahp-tool-call', 'ahp-mcp-app', 'ahp-chat', 'ahp-input-needed'];


// One page per test file: nothing else here defines the tags, so the order of these tests matters.
describe('registration', () => {
  it('importing the element classes defines nothing', async () => {
    const classes = await import('../../elements/index.js');
    expect(typeof classes.AhpChat).to.equal('function');
    expect(TAGS.filter((t) => customElements.get(t))).to.deep.equal([]);
  });

  it('one import of define-all defines all seven tags with the exported classes', async () => {
    const warnings = await captureWarnings(() => import('../../elements/define-all.js'));
    const classes = await import('../../elements/index.js');
    expect(TAGS.filter((t) => !customElements.get(t))).to.deep.equal([]);
    expect(customElements.get('ahp-chat')).to.equal(classes.AhpChat);
    expect(customElements.get('ahp-mcp-server')).to.equal(classes.AhpMcpServer);
    expect(warnings).to.deep.equal([]);
  });

  it('defining again (each define entry, the same classes, a second copy of the same version) is harmless and silent', async () => {
    const classes = await import('../../elements/index.js');
    const before = TAGS.map((t) => customElements.get(t));
    const warnings = await captureWarnings(async () => {
      await import('../../elements/session/define.js');
      await import('../../elements/mcp-server/define.js');
      await import('../../elements/mcp-server-list/define.js');
      await import('../../elements/tool-call/define.js');
      await import('../../elements/mcp-app/define.js');
      await import('../../elements/chat/define.js');
      await import('../../elements/input-needed/define.js');
      classes.defineElement('ahp-chat', classes.AhpChat);
      classes.defineElement('ahp-tool-call', classes.AhpToolCall);
      classes.defineElement('ahp-mcp-server', class SameVersionCopy extends classes.AhpMcpServer {}, VERSION);
    });
    expect(TAGS.map((t) => customElements.get(t))).to.deep.equal(before);
    expect(warnings).to.deep.equal([]);
  });

  it('a second copy of another version warns once per tag, naming both versions, and keeps the first definition', async () => {
    const { defineElement, AhpChat } = await import('../../elements/index.js');
    class OtherCopy extends HTMLElement {}
    const warnings = await captureWarnings(async () => {
      defineElement('ahp-chat', OtherCopy, '9.9.9');
      defineElement('ahp-chat', OtherCopy, '9.9.9');
      defineElement('ahp-chat', class extends HTMLElement {}, '9.9.9');
    });
    expect(customElements.get('ahp-chat')).to.equal(AhpChat);
    expectOneVersionWarning(warnings, 'ahp-chat', [VERSION, '9.9.9']);
  });
});
