// Types for manifest-model.mjs, so TypeScript tests can import it with a plain static import.

interface Named {
  name: string;
  description: string;
}

/** One element's public surface as read from custom-elements.json. */
export interface ElementModel {
  tagName: string;
  className: string;
  module: string;
  summary: string;
  attributes: (Named & { fieldName?: string; type?: string })[];
  properties: (Named & { type?: string; attribute?: string })[];
  events: (Named & { eventClass?: string; detail: string })[];
  slots: Named[];
  cssParts: Named[];
  cssStates: Named[];
  cssProperties: Named[];
}

/** `ahp-tool-call-approve` → `AhpToolCallApprove`. */
export function pascal(kebab: string): string;

/** Every custom element in the manifest, in tag order. */
export function elementsOf(manifest: unknown): ElementModel[];
