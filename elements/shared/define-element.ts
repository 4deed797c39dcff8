import { VERSION } from './version.js';

interface Registry {
  /** Tag → version of the ahp-elements copy that defined it. */
  versions: Map<string, string>;
  /** `tag|existing|ours` pairs already warned about. */
  warned: Set<string>;
}

// Shared through globalThis so two copies of the library on one page see each other.
const REGISTRY_KEY = Symbol.for('ahp-elements.registry');

function registry(): Registry {
  const g = globalThis as typeof globalThis & { [REGISTRY_KEY]?: Registry };
  return (g[REGISTRY_KEY] ??= { versions: new Map(), warned: new Set() });
}

/**
 * Defines `tag` unless it is already defined. A definition by the same version is skipped silently;
 * one by another version (or another library) is kept and warned about once. Does nothing without
 * `customElements` (SSR). `version` exists for tests that simulate a second copy.
 */
export function defineElement(tag: string, ctor: CustomElementConstructor, version: string = VERSION): void {
  if (typeof customElements === 'undefined') return;
  const reg = registry();
  const existing = customElements.get(tag);
  if (!existing) {
    customElements.define(tag, ctor);
    reg.versions.set(tag, version);
    return;
  }
  const existingVersion = reg.versions.get(tag) ?? '? (not ahp-elements)';
  if (existing === ctor || existingVersion === version) return;
  const key = `${tag}|${existingVersion}|${version}`;
  if (reg.warned.has(key)) return;
  reg.warned.add(key);
  console.warn(`[ahp-elements] <${tag}> is defined by version ${existingVersion}; version ${version} is not used. Load one copy per page.`);
}
