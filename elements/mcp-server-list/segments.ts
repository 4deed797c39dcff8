/** A run of a group's servers: each rendered as its own element, or a block of names rendered as one piece of HTML. */
export type Segment = { kind: 'server'; id: string } | { kind: 'names'; key: string; ids: string[]; names: string[] };

/** Servers per block of names: a block becomes server elements as a whole when it nears the viewport. */
export const BLOCK_SIZE = 25;

/**
 * Splits a group into servers to render as elements (`full(id)`) and blocks of at most `BLOCK_SIZE` names for the
 * rest, in order. Rendering thousands of servers as elements at once took seconds; a block of names is one
 * template and one stretch of HTML, and still holds every name for find-in-page and Tab.
 */
export function segmentsOf(ids: readonly string[], names: readonly string[], full: (id: string) => boolean): Segment[] {
  const out: Segment[] = [];
  let block: Extract<Segment, { kind: 'names' }> | undefined;
  ids.forEach((id, i) => {
    if (full(id)) {
      block = undefined;
      out.push({ kind: 'server', id });
      return;
    }
    if (!block || block.ids.length >= BLOCK_SIZE) {
      block = { kind: 'names', key: `names:${id}`, ids: [], names: [] };
      out.push(block);
    }
    block.ids.push(id);
    block.names.push(names[i] ?? id);
  });
  return out;
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

/** The HTML of a block: one focusable list item per name (ids and names escaped). */
export const namesHtml = (ids: readonly string[], names: readonly string[]): string =>
  ids.map((id, i) => `<div role="listitem" class="deferred" tabindex="0" data-server-id="${escapeHtml(id)}">${escapeHtml(names[i] ?? id)}</div>`).join('');
