import { Fragment } from 'preact';

/** Text for one value: numbers rounded, nulls as a dash; never markup. */
export function show(v: unknown): string {
  if (v === null || v === undefined) return '—';
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : v.toFixed(3).replace(/0+$/, '').replace(/\.$/, '');
  if (typeof v === 'string') return v;
  if (typeof v === 'boolean') return v ? 'yes' : 'no';
  if (Array.isArray(v)) return v.map(show).join('; ') || '—';
  // Deep objects as one compact line: "key value, key value".
  return (
    Object.entries(v as Record<string, unknown>)
      .map(([k, x]) => `${label(k)} ${show(x)}`)
      .join(', ') || '—'
  );
}

const label = (k: string): string => k.replace(/_/g, ' ');

/**
 * Any JSON-like object as a definition list, nested objects indented: the inspector shows a plan
 * or a resolution as the engine recorded it, every string as text.
 */
export function KeyValues({ value, depth = 0 }: { value: unknown; depth?: number }) {
  if (value === null || value === undefined || typeof value !== 'object' || (Array.isArray(value) && value.every((x) => typeof x !== 'object' || x === null))) return <span>{show(value)}</span>;
  const entries: (readonly [string, unknown])[] = Array.isArray(value) ? (value as unknown[]).map((v, i) => [String(i + 1), v] as const) : Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
  if (entries.length === 0) return <span class="muted">—</span>;
  return (
    <dl class={depth ? 'nested' : undefined}>
      {entries.map(([k, v]) => (
        <Fragment key={k}>
          <dt>{label(k)}</dt>
          <dd>{depth < 2 ? <KeyValues value={v} depth={depth + 1} /> : show(v)}</dd>
        </Fragment>
      ))}
    </dl>
  );
}
