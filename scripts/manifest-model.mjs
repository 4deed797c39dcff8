// The public surface of each element, read from custom-elements.json: what the typings, wrappers and README tables show.

/** `ahp-tool-call-approve` → `AhpToolCallApprove`. */
export const pascal = (kebab) => kebab.replace(/(^|-)([a-z0-9])/g, (_, __, c) => c.toUpperCase());

const oneLine = (text) => (text ?? '').replace(/\s+/g, ' ').trim();

/** Every custom element in the manifest, in tag order, with its public attributes, properties, events, parts, states and tokens. */
export function elementsOf(manifest) {
  const classes = new Map();
  for (const mod of manifest.modules) for (const d of mod.declarations ?? []) classes.set(d.name, d);
  const out = [];
  for (const mod of manifest.modules) {
    for (const d of mod.declarations ?? []) {
      if (!d.customElement || !d.tagName) continue;
      const attributes = (d.attributes ?? []).map((a) => ({
        name: a.name,
        fieldName: a.fieldName,
        type: a.type?.text,
        description: oneLine(a.description ?? d.members?.find((m) => m.name === a.fieldName)?.description),
      }));
      const properties = (d.members ?? [])
        .filter((m) => m.kind === 'field' && !m.static && !m.readonly && (m.privacy ?? 'public') === 'public')
        .map((m) => ({
          name: m.name,
          type: m.type?.text,
          description: oneLine(m.description),
          attribute: attributes.find((a) => a.fieldName === m.name)?.name,
        }));
      const events = (d.events ?? []).map((e) => {
        const cls = e.type?.text;
        const detail = classes.get(cls)?.members?.find((m) => m.name === 'detail')?.type?.text;
        return { name: e.name, eventClass: cls, detail: oneLine(detail), description: oneLine(e.description) };
      });
      const simple = (list) => (list ?? []).map((x) => ({ name: x.name, description: oneLine(x.description) }));
      out.push({
        tagName: d.tagName,
        className: d.name,
        module: mod.path,
        summary: oneLine(d.summary),
        attributes,
        properties,
        events,
        slots: simple(d.slots),
        cssParts: simple(d.cssParts),
        cssStates: simple(d.cssStates),
        cssProperties: simple(d.cssProperties),
      });
    }
  }
  return out.sort((a, b) => a.tagName.localeCompare(b.tagName));
}
