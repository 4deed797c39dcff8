/** Released protocol baselines this host accepts, each with its caret range. */
export const HOST_PROTOCOL_BASELINES: readonly string[] = ['1.0.0', '0.9.0'];

type Version = readonly [number, number, number];

const VERSION = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)$/;

/** Parses `MAJOR.MINOR.PATCH` (no pre-release, no leading zeros); undefined when malformed. */
export function parseVersion(v: unknown): Version | undefined {
  if (typeof v !== 'string') return undefined;
  const m = VERSION.exec(v);
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : undefined;
}

function compare(a: Version, b: Version): number {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
}

/** Caret range: same major for >=1, same minor for 0.x; not below the baseline. */
function inCaretRange(v: Version, base: Version): boolean {
  if (compare(v, base) < 0 || v[0] !== base[0]) return false;
  return base[0] > 0 || v[1] === base[1];
}

export type Negotiation =
  | { kind: 'ok'; version: string }
  | { kind: 'malformed'; value: unknown }
  | { kind: 'unsupported'; supportedVersions: string[] };

/** Picks the highest offered version inside any baseline's caret range, echoing the offered string. */
export function negotiateVersion(offered: readonly unknown[], baselines: readonly string[] = HOST_PROTOCOL_BASELINES): Negotiation {
  const bases = baselines.map((b) => parseVersion(b)).filter((b): b is Version => b !== undefined);
  let best: { text: string; v: Version } | undefined;
  for (const entry of offered) {
    const v = parseVersion(entry);
    if (!v) return { kind: 'malformed', value: entry };
    if (bases.some((b) => inCaretRange(v, b)) && (!best || compare(v, best.v) > 0)) best = { text: entry as string, v };
  }
  return best ? { kind: 'ok', version: best.text } : { kind: 'unsupported', supportedVersions: baselines.map((b) => `^${b}`) };
}
