/**
 * Makes `names` the element's custom states (`:state(name)`), removing the others it set before.
 * Does nothing where `ElementInternals.states` is missing; falls back to the older `--name` form
 * on browsers that only accept dashed idents.
 */
export function setCustomStates(internals: ElementInternals | undefined, names: readonly string[]): void {
  const states = internals?.states;
  if (!states) return;
  const wanted = new Set(names);
  for (const s of [...states]) {
    const plain = s.startsWith('--') ? s.slice(2) : s;
    if (!wanted.has(plain)) states.delete(s);
  }
  for (const name of wanted) {
    try {
      states.add(name);
    } catch {
      states.add(`--${name}`);
    }
  }
}

/** `attachInternals()` where supported, else undefined. */
export function tryAttachInternals(el: HTMLElement): ElementInternals | undefined {
  return typeof el.attachInternals === 'function' ? el.attachInternals() : undefined;
}
