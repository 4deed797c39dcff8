import { expect } from '@open-wc/testing';
import { render } from 'lit';
import { renderMarkdown, renderStringOrMarkdown, safeHref } from '../../elements/shared/markdown.js';

function md(source: string): HTMLDivElement {
  const div = document.createElement('div');
  render(renderMarkdown(source), div);
  return div;
}
const clean = (div: Element) => div.innerHTML.replace(/<!--[^>]*-->/g, '');

describe('renderMarkdown', () => {
  it('renders paragraphs, line breaks, emphasis, strong and inline code', () => {
    const div = md('Hello *you* and **them**\nnext `a<b>` line\n\nsecond _para_ snake_case_name __bold__');
    expect(clean(div)).to.equal(
      '<p>Hello <em>you</em> and <strong>them</strong><br>next <code>a&lt;b&gt;</code> line</p>' +
        '<p>second <em>para</em> snake_case_name <strong>bold</strong></p>',
    );
  });

  it('renders fenced code blocks verbatim, with the language as data', () => {
    const div = md('before\n```js\nconst x = "<b>";\n\n*not em*\n```\nafter');
    const pre = div.querySelector('pre')!;
    expect(pre.dataset.lang).to.equal('js');
    expect(pre.textContent).to.equal('const x = "<b>";\n\n*not em*');
    expect(div.querySelector('em')).to.equal(null);
    expect([...div.querySelectorAll('p')].map((p) => p.textContent)).to.deep.equal(['before', 'after']);
  });

  it('renders unordered and ordered lists and headings', () => {
    const div = md('# Title\n- one\n- **two**\n\n3. three\n4. four\n### Small');
    expect(div.querySelector('h1')!.textContent).to.equal('Title');
    expect([...div.querySelectorAll('ul > li')].map((l) => l.textContent)).to.deep.equal(['one', 'two']);
    expect(div.querySelector('ul strong')!.textContent).to.equal('two');
    const ol = div.querySelector('ol')!;
    expect(ol.getAttribute('start')).to.equal('3');
    expect([...ol.children].map((l) => l.textContent)).to.deep.equal(['three', 'four']);
    expect(div.querySelector('h3')!.textContent).to.equal('Small');
  });

  it('links http(s) only, opening safely in a new tab', () => {
    const div = md('[ok](https://example.com/a?b=1) [plain](http://x.test) [bad](javascript:alert(1)) [data](data:text/html,<b>) [rel](/local)');
    const links = [...div.querySelectorAll('a')];
    expect(links.map((a) => a.getAttribute('href'))).to.deep.equal(['https://example.com/a?b=1', 'http://x.test/']);
    for (const a of links) {
      expect(a.getAttribute('rel')).to.equal('noopener noreferrer');
      expect(a.target).to.equal('_blank');
    }
    expect(div.textContent).to.contain('bad').and.contain('data').and.contain('rel');
    expect(div.innerHTML).not.to.contain('javascript:');
  });

  it('never turns raw HTML into elements', () => {
    const div = md('<script>window.__pwned = 1</script>\n<img src=x onerror="window.__pwned=2">\n**<iframe src="https://evil.test">**');
    expect(div.querySelector('script, img, iframe')).to.equal(null);
    expect(div.textContent).to.contain('<script>window.__pwned = 1</script>');
    expect(div.textContent).to.contain('<img src=x onerror="window.__pwned=2">');
    expect((window as { __pwned?: number }).__pwned).to.equal(undefined);
  });

  it('neutralises hidden schemes and whitespace tricks in links', () => {
    for (const url of ['JaVaScRiPt:alert(1)', 'java\tscript:alert(1)', 'vbscript:x', 'file:///etc/passwd']) {
      expect(safeHref(url), url).to.equal(undefined);
    }
    expect(md('[x]( javascript:alert(1) )').querySelector('a')).to.equal(null);
  });

  it('survives garbage input', () => {
    expect(md(undefined as never).textContent).to.equal('');
    expect(md('```\nunterminated').querySelector('pre')!.textContent).to.equal('unterminated');
  });
});

describe('renderStringOrMarkdown', () => {
  const som = (v: unknown) => {
    const div = document.createElement('div');
    render(renderStringOrMarkdown(v as never), div);
    return div;
  };
  it('shows strings as text, markdown rendered, garbage as nothing', () => {
    expect(som('**not md** <b>x</b>').textContent).to.equal('**not md** <b>x</b>');
    expect(som('<b>x</b>').querySelector('b')).to.equal(null);
    expect(som({ markdown: '**md**' }).querySelector('strong')!.textContent).to.equal('md');
    expect(som(null).textContent).to.equal('');
    expect(som({ markdown: 5 }).textContent).to.equal('');
  });
});
