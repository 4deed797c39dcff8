import { nothing } from 'lit';
import { directive, PartType, type ElementPart, type PartInfo } from 'lit/directive.js';
import { AsyncDirective } from 'lit/async-directive.js';
import { afterPaint, later } from './after-paint.js';
import { namesHtml } from './segments.js';

/** Time one fill task may take before it yields to the page (input, paint). */
const SLICE_MS = 8;

const blockIds = new WeakMap<Element, readonly string[]>();

/** The server ids of a names block, filled or not. */
export const idsOfBlock = (el: Element): readonly string[] => blockIds.get(el) ?? [];

/** Blocks waiting to be filled, in the order they were rendered (document order within a render). */
const pending = new Set<NamesBlockDirective>();
let scheduled = false;

/** Fills waiting blocks after the next paint, a slice per background task, so the first paint carries only what is in view. */
function schedule(): void {
  if (scheduled) return;
  scheduled = true;
  const run = (): void => {
    const end = performance.now() + SLICE_MS;
    for (const block of pending) {
      pending.delete(block);
      block.fill();
      if (performance.now() >= end) break;
    }
    if (pending.size) later(run);
    else scheduled = false;
  };
  afterPaint(run);
}

/**
 * Fills its element with a block of server names as plain `innerHTML`. Lit's `unsafeHTML` parses each
 * string as a template (full parser and a tree walk); `innerHTML` on an element is the parser's fast
 * path for this markup. A block not needed for the first paint (`now` false) stays empty at the
 * height its names will take (`--names` sets the row count) and is filled in a later task: 10,000
 * names cost tens of milliseconds of parsing and layout the first paint does not wait for. Until
 * then its names are not in the page (find-in-page and Tab skip them).
 */
class NamesBlockDirective extends AsyncDirective {
  #element: HTMLElement | undefined;
  #ids: readonly string[] | undefined;
  #names: readonly string[] | undefined;

  constructor(part: PartInfo) {
    super(part);
    if (part.type !== PartType.ELEMENT) throw new Error('namesBlock() belongs on an element: <li ${namesBlock(ids, names, now)}>');
  }

  render(_ids: readonly string[], _names: readonly string[], _now: boolean) {
    return nothing;
  }

  override update(part: ElementPart, [ids, names, now]: [readonly string[], readonly string[], boolean]) {
    const el = (this.#element = part.element as HTMLElement);
    if (sameStrings(ids, this.#ids) && sameStrings(names, this.#names)) {
      if (now && pending.has(this)) this.#write();
      return nothing;
    }
    if (ids.length !== this.#ids?.length) el.style.setProperty('--names', String(ids.length));
    this.#ids = ids;
    this.#names = names;
    blockIds.set(el, ids);
    if (now) {
      this.#write();
    } else {
      el.dataset.pending = '';
      el.replaceChildren();
      pending.add(this);
      schedule();
    }
    return nothing;
  }

  /** Puts the names in (from the queue). */
  fill(): void {
    if (this.#element?.hasAttribute('data-pending')) this.#write();
  }

  /** A block taken out of the page (its servers became elements, or the list was removed) is not filled. */
  protected override disconnected(): void {
    pending.delete(this);
  }

  /** …and is queued again when its list comes back. */
  protected override reconnected(): void {
    if (!this.#element?.hasAttribute('data-pending')) return;
    pending.add(this);
    schedule();
  }

  #write(): void {
    pending.delete(this);
    const el = this.#element!;
    el.innerHTML = namesHtml(this.#ids!, this.#names!);
    el.removeAttribute('data-pending');
  }
}

const sameStrings = (a: readonly string[], b: readonly string[] | undefined): boolean =>
  a === b || (!!b && a.length === b.length && a.every((x, i) => x === b[i]));

/** `<li ${namesBlock(ids, names, now)}>`: the element holds one focusable name per server, now or after the next paint. */
export const namesBlock = directive(NamesBlockDirective);
