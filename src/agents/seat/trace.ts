import type { Metrics, Stage, StageEvent, StageSource } from '../../protocol/index.js';

/**
 * Collects one decision's seed-004 stage events. Timestamps are wall time: traces describe how
 * the agent behaved, they are not part of the deterministic game log.
 */
export class TraceBuilder {
  readonly stages: StageEvent[] = [];
  constructor(private readonly sessionId: string) {}

  add(stage: Stage, source: StageSource, payload: Record<string, unknown>, metrics?: Partial<Metrics>): void {
    const event: StageEvent = {
      event_id: `${this.sessionId}#${this.stages.length + 1}`,
      session_id: this.sessionId,
      stage,
      ts: new Date().toISOString(),
      payload,
      source,
    };
    if (metrics) event.metrics = metrics;
    this.stages.push(event);
  }
}

/** Replaces every occurrence of each secret in a JSON value's strings (keys too) with "***". */
export function maskSecrets<T>(value: T, secrets: readonly string[]): T {
  const active = secrets.filter((s) => s.length > 0);
  if (active.length === 0) return value;
  const maskText = (text: string): string => active.reduce((t, secret) => t.split(secret).join('***'), text);
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return maskText(v);
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [maskText(k), walk(x)]));
    return v;
  };
  return walk(value) as T;
}

/** A short, bounded excerpt for a trace. */
export const excerpt = (text: string, max = 2_000): string => (text.length > max ? `${text.slice(0, max)}… (${text.length - max} more chars)` : text);
