import type { GameEvent } from '../../protocol/index.js';
import type { AgentFigures, SimFigures } from '../../runner/sim-stats.js';

/**
 * Figures folded from a projected log where a figure's inputs were hidden are not zeros: they are
 * unknown. Each rule names the payload keys (`event_type.key`) a figure is counted from; when the
 * projection dropped one of them, the figure becomes null and its name goes into `unknown`.
 */
const RULES: ReadonlyArray<{ figure: string; from: readonly string[] }> = [
  // Face-down plays hide the card: the type shares would count only the open ones.
  { figure: 'cardPlays', from: ['action_submitted.action'] },
  { figure: 'cardTypeShare', from: ['action_submitted.action'] },
  { figure: 'byAgent.*.attacks', from: ['action_submitted.attack_plan'] },
  { figure: 'emotionCoupling', from: ['emotion_updated.emotions'] },
];

export type AnalyticsFigures = Omit<SimFigures, 'cardPlays' | 'cardTypeShare' | 'emotionCoupling' | 'byAgent'> & {
  cardPlays: SimFigures['cardPlays'] | null;
  cardTypeShare: SimFigures['cardTypeShare'] | null;
  emotionCoupling: SimFigures['emotionCoupling'] | null;
  byAgent: Record<string, Omit<AgentFigures, 'attacks'> & { attacks: number | null }>;
};

/**
 * The figures with every one whose inputs the projection hid set to null, and the list of those.
 *
 * @example maskHidden(stats.figures(), projectedEvents) // { figures: { …, cardPlays: null }, unknown: ['cardPlays', …] }
 */
export function maskHidden(figures: SimFigures, events: readonly GameEvent[]): { figures: AnalyticsFigures; unknown: string[] } {
  const redacted = new Set(events.flatMap((e) => (e.redacted ?? []).map((k) => `${e.type}.${k}`)));
  const unknown = RULES.filter((r) => r.from.some((k) => redacted.has(k))).map((r) => r.figure);
  const hides = (figure: string) => unknown.includes(figure);
  return {
    figures: {
      ...figures,
      cardPlays: hides('cardPlays') ? null : figures.cardPlays,
      cardTypeShare: hides('cardTypeShare') ? null : figures.cardTypeShare,
      emotionCoupling: hides('emotionCoupling') ? null : figures.emotionCoupling,
      byAgent: Object.fromEntries(Object.entries(figures.byAgent).map(([name, a]) => [name, { ...a, attacks: hides('byAgent.*.attacks') ? null : a.attacks }])),
    },
    unknown,
  };
}
