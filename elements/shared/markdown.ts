import { html, nothing } from 'lit';
import type { TemplateResult } from 'lit';
import type { StringOrMarkdown } from '../../src/protocol/common.js';

type Inline = string | TemplateResult;

/** The link target when `url` is an absolute http(s) URL, else undefined (the text is then shown without a link). */
export function safeHref(url: string): string | undefined {
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : undefined;
  } catch {
    return undefined;
  }
}

// Code spans, links, strong, then emphasis. `_` only counts at word edges so snake_case names stay intact.
const INLINE =
  /(`+)([\s\S]+?)\1|\[([^\]\n]*)\]\(\s*<?([^\s)>]*)>?(?:\s+"[^"\n]*")?\s*\)|\*\*(?!\s)([\s\S]+?)\*\*|(?<!\w)__(?!\s)([\s\S]+?)__(?!\w)|\*(?!\s)([^*]+?)\*|(?<!\w)_(?!\s)([^_]+?)_(?!\w)/g;

function inline(text: string): Inline[] {
  const out: Inline[] = [];
  let last = 0;
  for (const m of text.matchAll(INLINE)) {
    const [all, , code, label, url, strong, strong2, em, em2] = m;
    if (m.index > last) out.push(text.slice(last, m.index));
    last = m.index + all.length;
    if (code !== undefined) out.push(html`<code>${code.trim() || code}</code>`);
    else if (label !== undefined) {
      const href = safeHref(url ?? '');
      out.push(href ? html`<a href=${href} target="_blank" rel="noopener noreferrer">${inline(label)}</a>` : html`${inline(label)}`);
    } else if (strong ?? strong2) out.push(html`<strong>${inline((strong ?? strong2)!)}</strong>`);
    else out.push(html`<em>${inline((em ?? em2)!)}</em>`);
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

/** Inline markdown of a paragraph; every newline is a line break (chat style). */
const lines = (ls: string[]): Inline[] => ls.flatMap((l, i) => (i ? [html`<br />`, ...inline(l)] : inline(l)));

const HEADINGS = [
  (c: Inline[]) => html`<h1>${c}</h1>`,
  (c: Inline[]) => html`<h2>${c}</h2>`,
  (c: Inline[]) => html`<h3>${c}</h3>`,
  (c: Inline[]) => html`<h4>${c}</h4>`,
  (c: Inline[]) => html`<h5>${c}</h5>`,
  (c: Inline[]) => html`<h6>${c}</h6>`,
];

const FENCE = /^\s{0,3}(`{3,}|~{3,})\s*([\w+.-]*)/;
const HEADING = /^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$/;
const ITEM = /^\s{0,3}(?:([-*+])|(\d{1,9})[.)])\s+(.*)$/;

/**
 * Renders a small, safe subset of markdown as Lit templates: paragraphs, line breaks, `*em*`,
 * `**strong**`, `` `code` ``, fenced code, `-`/`1.` lists, `#` headings and `[links](https://…)`.
 * Everything is bound as text, so raw HTML shows literally; links other than http(s) become plain text.
 */
export function renderMarkdown(source: string): TemplateResult {
  const src = typeof source === 'string' ? source.replace(/\r\n?/g, '\n').split('\n') : [];
  const blocks: TemplateResult[] = [];
  let para: string[] = [];
  const flush = () => {
    if (para.length) blocks.push(html`<p>${lines(para)}</p>`);
    para = [];
  };
  for (let i = 0; i < src.length; i++) {
    const line = src[i]!;
    const fence = FENCE.exec(line);
    if (fence) {
      flush();
      const body: string[] = [];
      const close = new RegExp(`^\\s{0,3}${fence[1]![0]}{${fence[1]!.length},}\\s*$`);
      while (++i < src.length && !close.test(src[i]!)) body.push(src[i]!);
      blocks.push(html`<pre data-lang=${fence[2] || nothing}><code>${body.join('\n')}</code></pre>`);
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      flush();
      blocks.push(HEADINGS[heading[1]!.length - 1]!(inline(heading[2]!)));
      continue;
    }
    const item = ITEM.exec(line);
    if (item) {
      flush();
      const ordered = item[1] === undefined;
      const items: Inline[][] = [];
      let m: RegExpExecArray | null = item;
      for (; m && (m[1] === undefined) === ordered; m = ITEM.exec(src[++i] ?? '')) items.push(inline(m[3]!));
      i--;
      const lis = items.map((c) => html`<li>${c}</li>`);
      blocks.push(ordered ? html`<ol start=${Number(item[2]) === 1 ? nothing : Number(item[2])}>${lis}</ol>` : html`<ul>${lis}</ul>`);
      continue;
    }
    if (line.trim()) para.push(line.trim());
    else flush();
  }
  flush();
  return html`${blocks}`;
}

/** A `StringOrMarkdown`: plain strings as text, `{ markdown }` through `renderMarkdown`, anything else as nothing. */
export function renderStringOrMarkdown(som: StringOrMarkdown | null | undefined): TemplateResult | string | typeof nothing {
  if (typeof som === 'string') return som;
  const md: unknown = (som as { markdown?: unknown } | null | undefined)?.markdown;
  return typeof md === 'string' ? renderMarkdown(md) : nothing;
}

/** Plain text of a `StringOrMarkdown` (for labels and announcements). */
export function textOf(som: StringOrMarkdown | null | undefined): string {
  if (typeof som === 'string') return som;
  const md: unknown = (som as { markdown?: unknown } | null | undefined)?.markdown;
  return typeof md === 'string' ? md : '';
}
