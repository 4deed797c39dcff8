import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { MessageId } from './messages-en.js';
import { CORE_EN } from '../locales/en/core.js';

/**
 * The elements' localization seam: every user-visible string goes through `LocaleController.t()`.
 *
 * - Messages are plain strings with `{name}` placeholders; numbers in them are formatted with `Intl.NumberFormat` of
 *   the element's language. A `{count}` message can have plural variants `id#one`, `id#other`, … (`Intl.PluralRules`).
 * - An element's language is the nearest `lang` attribute (itself, its ancestors, across shadow roots), so it can be
 *   set per element or once for the page; changing a `lang` attribute re-renders the elements under it.
 * - English is built in. Other languages are registered as a table or as a loader that runs on first use, so a pack
 *   costs nothing until a page uses it (zh-TW ships that way, see `elements/locales/zh-TW.ts`).
 */
export type Messages = { readonly [id: string]: string };
/** A message table, or a loader resolving to one (`() => import('./my-pack.js')` works: its `default` is used). */
export type LanguageSource = Messages | (() => Promise<Messages | { default: Messages }>);

/** English: the shared messages, and each element's own once its module has loaded (`addEnglish`). */
const english: { [id: string]: string } = { ...CORE_EN };
const packs = new Map<string, Messages>([['en', english]]);
const loaders = new Map<string, () => Promise<Messages | { default: Messages }>>();
const loading = new Map<string, Promise<void>>();
const controllers = new Set<LocaleController>();

const norm = (tag: string): string => tag.trim().replace(/_/g, '-').toLowerCase();

/**
 * Adds (or replaces) a language: `registerLanguage('fr', { 'chat.send': 'Envoyer', … })`, or lazily,
 * `registerLanguage('fr', () => import('./fr.js'))`. Missing ids fall back to English. Elements in that language re-render.
 */
export function registerLanguage(lang: string, source: LanguageSource): void {
  const key = norm(lang);
  loading.delete(key);
  if (typeof source === 'function') {
    packs.delete(key);
    loaders.set(key, source);
  } else {
    loaders.delete(key);
    packs.set(key, source);
  }
  for (const c of controllers) c.refresh();
}

/** Adds an element's English messages (elements/locales/en/); its module calls this when it loads, before it renders. */
export function addEnglish(messages: Messages): void {
  Object.assign(english, messages);
}

/** The registered key `lang` resolves to: itself, then shorter prefixes (`zh-Hant-TW` → `zh-Hant` → `zh`), then its likely script (`zh-HK` → `zh-Hant`). */
function resolve(lang: string): string {
  const tag = norm(lang);
  const known = (k: string) => packs.has(k) || loaders.has(k);
  const parts = tag.split('-');
  for (let n = parts.length; n > 0; n--) {
    const k = parts.slice(0, n).join('-');
    if (known(k) && (n > 1 || !hasScriptVariants(k))) return k;
  }
  try {
    const max = new Intl.Locale(tag).maximize();
    const k = norm(`${max.language}-${max.script}`);
    if (known(k)) return k;
  } catch {
    // not a valid BCP 47 tag
  }
  return 'en';
}

/** `zh` alone says nothing about the script: do not give Simplified readers the Traditional pack (or the reverse). */
const hasScriptVariants = (lang: string) => lang === 'zh';

/** Loads a lazily registered language now (e.g. before rendering, or in tests). Resolves when its elements can show it. */
export function loadLanguage(lang: string): Promise<void> {
  const key = resolve(lang);
  if (packs.has(key)) return Promise.resolve();
  let p = loading.get(key);
  if (!p) {
    const loader = loaders.get(key)!;
    p = loader().then(
      (m) => {
        if (loaders.get(key) !== loader) return;
        packs.set(key, 'default' in m && typeof m.default === 'object' ? (m.default as Messages) : (m as Messages));
        for (const c of controllers) c.refresh();
      },
      (err: unknown) => {
        loading.delete(key);
        console.warn(`[ahp-elements] could not load the "${lang}" language pack; showing English`, err);
      },
    );
    loading.set(key, p);
  }
  return p;
}

/** The BCP 47 tag in force for `el`: its own or nearest ancestor's `lang` (crossing shadow roots), else the document's, else `en`. */
export function langOf(el: Element): string {
  for (let n: Node | null = el; n; n = n.parentNode ?? (n instanceof ShadowRoot ? n.host : null)) {
    if (n instanceof Element) {
      const lang = n.getAttribute('lang');
      if (lang) return lang;
    }
  }
  return 'en';
}

/** Fills `{name}` placeholders; numbers go through `Intl.NumberFormat(lang)`. Unknown placeholders stay as written. */
function fill(text: string, params: Record<string, unknown> | undefined, lang: string): string {
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => {
    if (!Object.hasOwn(params, name)) return whole;
    const v = params[name];
    return typeof v === 'number' ? formatNumber(lang, v) : String(v);
  });
}

const numberFormats = new Map<string, Intl.NumberFormat>();
/** `Intl.NumberFormat` for `lang` (cached), falling back to English for a tag Intl does not accept. */
export function formatNumber(lang: string, n: number, options?: Intl.NumberFormatOptions): string {
  const key = `${lang}|${options ? JSON.stringify(options) : ''}`;
  let f = numberFormats.get(key);
  if (!f) {
    try {
      f = new Intl.NumberFormat(lang, options);
    } catch {
      f = new Intl.NumberFormat('en', options);
    }
    numberFormats.set(key, f);
  }
  return f.format(n);
}

/** The message `id` in `lang` (English when the pack lacks it or is not loaded yet), with `params` filled in. */
export function translate(lang: string, id: MessageId, params?: Record<string, unknown>): string {
  const pack = packs.get(resolve(lang));
  const pick = (table: Messages | undefined): string | undefined => {
    if (!table) return undefined;
    const count = params?.count;
    if (typeof count === 'number') {
      let rule = 'other';
      try {
        rule = new Intl.PluralRules(lang).select(count);
      } catch {
        // keep "other"
      }
      const plural = table[`${id}#${rule}`] ?? table[`${id}#other`];
      if (plural !== undefined) return plural;
    }
    return table[id];
  };
  return fill(pick(pack) ?? pick(english) ?? id, params, lang);
}

let observer: MutationObserver | undefined;
/** One observer for the whole document: a changed `lang` attribute anywhere re-checks every element's language. */
function watchLangAttributes(): void {
  if (observer || typeof MutationObserver !== 'function' || typeof document === 'undefined') return;
  observer = new MutationObserver(() => {
    for (const c of controllers) c.refresh();
  });
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ['lang'], subtree: true });
}

/**
 * Gives an element its language: `t(id, params)` for messages, `number()` and `time()` for values (Intl).
 * Re-renders the host when its language changes or that language's pack arrives.
 */
export class LocaleController implements ReactiveController {
  /** The language in force (the nearest `lang`); updated on connect and before every render. */
  lang = 'en';
  readonly #host: ReactiveControllerHost & Element;
  #shown = '';

  constructor(host: ReactiveControllerHost & Element) {
    this.#host = host;
    host.addController(this);
  }

  hostConnected(): void {
    controllers.add(this);
    watchLangAttributes();
    this.lang = langOf(this.#host);
    void this.ensureLoaded();
  }

  hostDisconnected(): void {
    controllers.delete(this);
  }

  hostUpdate(): void {
    this.lang = langOf(this.#host);
    void this.ensureLoaded();
    this.#shown = this.#signature();
  }

  /** Re-renders when the language in force, or what is loaded for it, changed. */
  refresh(): void {
    this.lang = langOf(this.#host);
    void this.ensureLoaded();
    if (this.#signature() !== this.#shown) this.#host.requestUpdate();
  }

  #signature(): string {
    const key = resolve(this.lang);
    return `${this.lang}|${key}|${packs.has(key)}`;
  }

  private ensureLoaded(): Promise<void> | undefined {
    const key = resolve(this.lang);
    return packs.has(key) ? undefined : loadLanguage(this.lang);
  }

  /** The message `id` in this element's language. */
  t(id: MessageId, params?: Record<string, unknown>): string {
    return translate(this.lang, id, params);
  }

  /** A number in this element's language (`Intl.NumberFormat`). */
  number(n: number, options?: Intl.NumberFormatOptions): string {
    return formatNumber(this.lang, n, options);
  }

  /** A time of day (or date) in this element's language (`Intl.DateTimeFormat`, default: hours and minutes). */
  time(at: number | Date, options: Intl.DateTimeFormatOptions = { timeStyle: 'short' }): string {
    try {
      return new Intl.DateTimeFormat(this.lang, options).format(at);
    } catch {
      return new Intl.DateTimeFormat('en', options).format(at);
    }
  }
}

// zh-TW ships with the package and loads on first use (a separate chunk of the CDN build).
registerLanguage('zh-TW', () => import('../locales/zh-TW.js'));
registerLanguage('zh-Hant', () => import('../locales/zh-TW.js'));
