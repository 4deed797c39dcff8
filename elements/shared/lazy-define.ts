/**
 * Defines elements on first use: a tag registered here is loaded (its module imported, which defines it) when it first
 * appears in the document, when an element that renders it inside its shadow root asks for it (`requestDefinition`),
 * or when a page asks for its class (`loadElement`). Only the CDN entry registers tags; elsewhere
 * `requestDefinition` does nothing and `loadElement` waits for a definition made by an import.
 */
type Loader = () => Promise<unknown>;

const pending = new Map<string, Loader>();
const loading = new Map<string, Promise<unknown>>();
let observer: MutationObserver | undefined;

function load(tag: string): void {
  const loader = pending.get(tag);
  if (!loader) return;
  pending.delete(tag);
  if (!pending.size) observer?.disconnect();
  const started = loader().catch((err: unknown) => {
    // A chunk that failed to load (offline, a deploy in between) is tried again the next time the tag is added or
    // asked for; not at once (the tags already on the page would retry in a loop).
    console.error(`[ahp-elements] could not load <${tag}>`, err);
    loading.delete(tag);
    pending.set(tag, loader);
    watchDocument(false);
  });
  loading.set(tag, started);
}

/** Loads every registered tag in `root` (the root itself included). */
function scan(root: Node): void {
  if (!pending.size || !(root instanceof Element || root instanceof Document || root instanceof DocumentFragment)) return;
  if (root instanceof Element && pending.has(root.localName)) load(root.localName);
  if (!pending.size) return;
  for (const el of root.querySelectorAll([...pending.keys()].join(','))) load(el.localName);
}

function watchDocument(scanNow = true): void {
  if (typeof document === 'undefined' || typeof MutationObserver === 'undefined') return;
  observer ??= new MutationObserver((records) => {
    for (const r of records) for (const node of r.addedNodes) scan(node);
  });
  observer.observe(document, { childList: true, subtree: true });
  if (scanNow) scan(document);
}

/** Registers tags to load on first use (tag → a dynamic import that defines it). Tags already defined are skipped. */
export function defineOnFirstUse(loaders: Record<string, Loader>): void {
  for (const [tag, loader] of Object.entries(loaders)) {
    if (typeof customElements !== 'undefined' && customElements.get(tag)) continue;
    pending.set(tag, loader);
  }
  if (pending.size) watchDocument();
}

/**
 * Watches the shadow root `node` sits in (if any) like the document: registered tags in it load now and when added.
 * `<ahp-session>` calls it, so elements placed beside it inside a page component's shadow root load too.
 */
export function watchRootOf(node: Node): void {
  const root = node.getRootNode();
  if (!pending.size || !observer || typeof ShadowRoot === 'undefined' || !(root instanceof ShadowRoot)) return;
  observer.observe(root, { childList: true, subtree: true });
  scan(root);
}

/** Asks for `tag` to be defined; for elements that render a registered tag inside their shadow root. */
export function requestDefinition(tag: string): void {
  load(tag);
}

/**
 * Resolves with the class of an ahp-elements tag once it is defined, loading it now when it loads on first use,
 * e.g. `(await loadElement('ahp-mcp-app')).sandboxUrlFor = …` with the CDN file (in TypeScript name the class:
 * `loadElement<typeof AhpMcpApp>('ahp-mcp-app')`). Rejects for a tag that is neither defined nor registered, and
 * when its chunk fails to load.
 */
export async function loadElement<T extends CustomElementConstructor = CustomElementConstructor>(tag: string): Promise<T> {
  if (typeof customElements === 'undefined') throw new Error('loadElement needs a browser (customElements)');
  const defined = customElements.get(tag);
  if (defined) return defined as T;
  load(tag);
  const started = loading.get(tag);
  if (!started) throw new Error(`<${tag}> is not an ahp-elements tag that this page loads`);
  await started;
  const ctor = customElements.get(tag);
  if (!ctor) throw new Error(`<${tag}> could not be loaded`);
  return ctor as T;
}
