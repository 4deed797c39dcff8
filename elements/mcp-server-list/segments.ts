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

/** A group's servers past the first paint's window, rendered as one empty stretch of their height. */
export type Tail = { kind: 'tail'; key: string; count: number };

/**
 * The segments up to and including the `blocks`-th block of names; the servers after it become one tail (their
 * count sets its height). Returns what it kept and how many blocks of names that holds.
 */
export function windowOf(segments: readonly Segment[], blocks: number, key: string): { kept: Array<Segment | Tail>; blocks: number } {
  const kept: Array<Segment | Tail> = [];
  let seen = 0;
  let rest = 0;
  for (const s of segments) {
    if (seen >= blocks) rest += s.kind === 'server' ? 1 : s.ids.length;
    else {
      kept.push(s);
      if (s.kind === 'names') seen++;
    }
  }
  if (rest) kept.push({ kind: 'tail', key: `tail:${key}`, count: rest });
  return { kept, blocks: seen };
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

/** The HTML of a block: one focusable list item per name (ids and names escaped). */
export const namesHtml = (ids: readonly string[], names: readonly string[]): string =>
  ids.map((id, i) => `<div role="listitem" class="deferred" tabindex="0" data-server-id="${escapeHtml(id)}">${escapeHtml(names[i] ?? id)}</div>`).join('');
