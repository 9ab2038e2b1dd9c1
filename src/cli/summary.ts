import { CARD_TYPES } from '../protocol/index.js';
import type { SimulationResult } from '../runner/simulate.js';
import { int, num, pct, signed, table } from './format.js';
import { formatRate } from './rate.js';
import { formatAgentHealth } from './agent-health-format.js';

/** The human-readable report of a simulation (what `simulate` prints without --json). */
export function formatSummary(r: SimulationResult): string {
  const lastSeed = r.seed + r.deals - 1;
  const research = new Map(r.research.map((a) => [a.agent, a]));
  const coupling = r.emotionCoupling;
  const rejections = Object.entries(r.rejectionsByCode)
    .sort((a, b) => b[1] - a[1])
    .map(([code, n]) => `${code} ${int(n)}`);
  const agents = Object.entries(r.byAgent).sort((a, b) => (a[1].meanPlacement ?? 99) - (b[1].meanPlacement ?? 99));
  const lines = [
    `Tiltyard simulation: ${int(r.games)} games, seeds ${r.seed}–${lastSeed}, ${r.seats} seats, ${r.windows} windows`,
    r.mode === 'rotate'
      ? `line-up ${r.lineup.join(', ')} (rotating through the seats)`
      : `line-up ${r.lineup.join(', ')}: every ${r.seats} of them (${int(r.lineups)} tables), each table in all ${r.seats} seat rotations on each of ${int(r.deals)} deal${r.deals === 1 ? '' : 's'} (${int(r.games / r.deals)} games a deal)`,
    '',
    ...table([
      ['events', int(r.events), `${int(r.meanEventsPerGame ?? 0)} per game`],
      ['decisions', int(r.decisions), `${int(r.meanDecisionsPerGame ?? 0)} per game`],
      ['wall time', `${(r.wallMs / 1000).toFixed(2)} s`, ''],
      ['throughput', formatRate(r.events, r.wallMs, 'event'), formatRate(r.games, r.wallMs, 'game')],
    ]).map((l) => `  ${l}`),
    `  log hash    ${r.logHash}`,
    '',
    'Games',
    ...table([
      ['median rounds', num(r.medianRounds, 1)],
      ['ended at round cap', pct(r.roundCapRate)],
      ['eliminations per game', num(r.eliminationsPerGame)],
      ['manipulation success', pct(r.manipulationSuccessRate)],
      ['slips per resolved action', pct(r.slipRate)],
      ['rejected decisions', pct(r.rejectionRate, 2)],
    ]).map((l) => `  ${l}`),
    ...(rejections.length ? [`  rejections: ${rejections.join(', ')}`] : []),
    '',
    'Win rate by seat',
    `  ${r.seatWinRate.map((w, i) => `seat ${i + 1} ${pct(w)}`).join('   ')}`,
    '',
    `Card plays (${int(r.cardPlays)})`,
    `  ${CARD_TYPES.map((t) => `${t} ${pct(r.cardTypeShare[t])}`).join('   ')}`,
    '',
    'Emotion coupling (guard + mask share of non-random agents\' plays)',
    `  fear ≥ 0.5: ${pct(coupling.highFear)} of ${int(coupling.highFearSamples)}   fear < 0.2: ${pct(coupling.lowFear)} of ${int(coupling.lowFearSamples)}`,
    '',
    'By agent',
    ...table([
      ['agent', 'seats', 'wins', 'win rate', 'mean placement', 'manipulates (success)', 'is manipulated (success)', 'slips', 'tilt Δ place'],
      ...agents.map(([name, a]) => {
        const x = research.get(name);
        const outcome = (o: { attempts: number; success_rate: number | null } | undefined) => (o ? `${int(o.attempts)} (${pct(o.success_rate)})` : '–');
        const delta = x?.tilt_resilience.placement_delta;
        return [name, int(a.games), int(a.wins), pct(a.winRate), num(a.meanPlacement), outcome(x?.manipulation_given), outcome(x?.manipulation_received), pct(x?.slip_rate), delta == null ? '–' : signed(delta, 2)];
      }),
    ]).map((l) => `  ${l}`),
    '  (tilt Δ place: mean placement once manipulated − otherwise, – below 3 games a side; every research figure: --json `research`)',
  ];
  const llm = formatAgentHealth(r.llm);
  return lines.join('\n') + '\n' + (llm ? `\n${llm}` : '');
}
