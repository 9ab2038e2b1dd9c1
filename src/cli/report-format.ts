import type { EmotionalIntent } from '../protocol/index.js';
import type { AgentResearch } from '../runner/research-figures.js';
import type { Interval } from '../tournament/bootstrap.js';
import { FEW_SHIFT_CLUSTERS, FEW_SHIFT_SAMPLES, MIN_SHIFT_CLUSTERS, MIN_SHIFT_SAMPLES, type ChoiceShiftRow } from '../tournament/choice-shift.js';
import type { TournamentReportView } from '../tournament/stored-report.js';
import { WPA_KINDS, type WpaRow } from '../tournament/wpa-figures.js';
import { int, num, pct, signed, table } from './format.js';

/** How the text names a target after a successful manipulation with each intent. */
const MADE: Record<EmotionalIntent, string> = {
  fear: 'made afraid',
  anger: 'made angry',
  shame: 'shamed',
  tilt: 'tilted',
  overconfidence: 'made overconfident',
  paranoia: 'made paranoid',
};

/** A share difference in percentage points, with a real minus sign: −18.4 pp (and no −0.0). */
const pp = (x: number) => {
  const tenths = Math.round(x * 1000) / 10;
  return `${signed(tenths === 0 ? 0 : tenths, 1)} pp`;
};
const ci = (i: Interval | null) => (i ? `${pp(i.value)} [${pp(i.low)}, ${pp(i.high)}]` : '–');
const indent = (lines: readonly string[]) => lines.map((l) => `  ${l}`);
const games = (n: number) => `${int(n)} game${n === 1 ? '' : 's'}`;

/** One sentence per pooled intent: which way the attack share moved, and whether the interval excludes no change. */
function shiftSentence(r: ChoiceShiftRow): string {
  const who = `Targets ${MADE[r.emotional_intent]}`;
  if (r.status !== 'ok' || !r.attack_shift)
    return `${who}: ${r.samples} sample${r.samples === 1 ? '' : 's'} from ${r.clusters} duplicate group${r.clusters === 1 ? '' : 's'}, too few to say (${MIN_SHIFT_SAMPLES} samples from ${MIN_SHIFT_CLUSTERS} groups needed).`;
  const { value, low, high } = r.attack_shift;
  const size = `${Math.abs(value * 100).toFixed(1)} pp`;
  const moved = value < 0 ? `attack ${size} less` : value > 0 ? `attack ${size} more` : 'attack as often';
  const clear = high < 0 || low > 0 ? 'a clear shift' : 'not distinguishable from no change';
  const few = r.few_samples ? ` Few samples (${r.samples} from ${r.clusters} groups): a rough reading.` : '';
  return `${who} ${moved} the round after (${pct(r.attack_share_after)} of their actions against their usual ${pct(r.attack_share_baseline)}; 95% CI ${pp(low)} to ${pp(high)}: ${clear}).${few}`;
}

function shiftTable(rows: readonly ChoiceShiftRow[], first: 'intent' | 'target'): string[] {
  return table(
    [
      [first, 'samples', 'groups', 'attacks after', 'usual', 'attack shift [95% CI]', 'defensive after', 'usual', 'defensive shift [95% CI]'],
      ...rows.map((r) => [
        first === 'intent' ? r.emotional_intent : `${r.target ?? '*'} · ${r.emotional_intent}`,
        r.few_samples ? `${int(r.samples)} few` : int(r.samples),
        int(r.clusters),
        pct(r.attack_share_after),
        pct(r.attack_share_baseline),
        ci(r.attack_shift),
        pct(r.defensive_share_after),
        pct(r.defensive_share_baseline),
        ci(r.defensive_shift),
      ]),
    ],
    1,
  );
}

/** A chance in percentage points to 2 places (WPA per decision is small): +0.15 pp. */
const pp2 = (x: number) => `${signed(Math.round(x * 1e4) / 100 || 0, 2)} pp`;

/** Mean choice WPA per decision: one row per agent, one column per kind, each with its interval. */
function wpaTable(rows: readonly WpaRow[]): string[] {
  const agents = [...new Set(rows.map((r) => r.agent))];
  const cell = (agent: string, kind: string) => {
    const r = rows.find((x) => x.agent === agent && x.kind === kind);
    return r?.mean ? `${pp2(r.mean.value)} [${pp2(r.mean.low)}, ${pp2(r.mean.high)}]` : '–';
  };
  return table([['agent', 'decisions', ...WPA_KINDS.map((k) => (k === 'all' ? 'every decision [95% CI]' : k))], ...agents.map((a) => [a, int(rows.find((r) => r.agent === a && r.kind === 'all')?.decisions ?? 0), ...WPA_KINDS.map((k) => cell(a, k))])], 1);
}

function resilienceRow(a: AgentResearch): string[] {
  const t = a.tilt_resilience;
  const ci = t.placement_delta_ci ? ` [${signed(t.placement_delta_ci.low, 2)}, ${signed(t.placement_delta_ci.high, 2)}]` : '';
  return [a.agent, games(t.manipulated_games), num(t.placement_when_manipulated), games(t.other_games), num(t.placement_otherwise), t.placement_delta === null ? '–' : `${signed(t.placement_delta, 2)}${ci}`, t.note ?? ''];
}

/**
 * The research report as text: sentences and tables a person reads, not the JSON (which `--json`
 * prints). Agents by mean placement; the emotion → choice shifts pooled by intent (a sentence
 * each), then per target agent, each with its 95 % bootstrap interval.
 *
 * @example io.out(formatReport(await storedReport(store, t, games)))
 */
export function formatReport(view: TournamentReportView): string {
  const { report } = view;
  const o = report.overall;
  const placement = (a: AgentResearch) => o.byAgent[a.agent]?.meanPlacement ?? Number.POSITIVE_INFINITY;
  const agents = [...report.agents].sort((a, b) => placement(a) - placement(b));
  if (report.games === 0) return `Tournament ${view.tournament_id} (${view.status}): no ended games yet, so nothing to report.\n`;
  const shifts = report.choice_shift;
  const seen = shifts.by_target.filter((r) => r.samples > 0);
  const usage = agents.filter((a) => a.usage);
  const pairs = report.pairs.filter((p) => p.manipulation.attempts > 0);
  const lines = [
    `Tournament ${view.tournament_id} (${view.status}): research report over ${games(view.games_counted)}.`,
    `Median game ${num(o.medianRounds, 1)} rounds; ${pct(o.manipulationSuccessRate)} of manipulation attempts succeeded; ${pct(o.slipRate)} of resolved actions slipped.`,
    '',
    'Agents (best mean placement first)',
    ...indent(
      table([
        ['agent', 'games', 'wins', 'win rate', 'mean place', 'manipulates', 'success', 'is manipulated', 'success', 'slips', 'forced-error lift', 'reads right', 'promises kept'],
        ...agents.map((a) => {
          const f = o.byAgent[a.agent];
          return [
            a.agent,
            int(f?.games ?? 0),
            int(f?.wins ?? 0),
            pct(f?.winRate),
            num(f?.meanPlacement),
            int(a.manipulation_given.attempts),
            pct(a.manipulation_given.success_rate),
            int(a.manipulation_received.attempts),
            pct(a.manipulation_received.success_rate),
            pct(a.slip_rate),
            a.forced_errors.lift === null ? '–' : pp(a.forced_errors.lift),
            pct(a.prediction_accuracy),
            pct(a.promise_keep_rate),
          ];
        }),
      ]),
    ),
    '',
    'Tilt resilience: mean placement in games where a manipulation against it succeeded, and in its other games',
    '(delta > 0: it places worse once manipulated; each side needs 3 games; 95% CI resamples whole duplicate groups)',
    ...indent(table([['agent', 'manipulated', 'place', 'otherwise', 'place', 'delta [95% CI]', ''], ...agents.map(resilienceRow)])),
    '',
    'Emotion → choice: how a successful manipulation moves its target the round after',
    "(the target's share of attacks and of defensive plays among its actions that round, against its usual share over every round it acted in;",
    `95% CI resamples whole duplicate groups; "few": under ${FEW_SHIFT_SAMPLES} samples or ${FEW_SHIFT_CLUSTERS} groups, a rough reading)`,
    ...indent(report.choice_shift.by_intent.map(shiftSentence)),
    '',
    ...indent(shiftTable(shifts.by_intent, 'intent')),
    '',
    'By target agent',
    ...(seen.length ? indent(shiftTable(seen, 'target')) : ['  no successful manipulation was followed by its target acting']),
    '',
    'Win probability added: how much each decision moved its own seat’s chance to win, on average',
    '(omniscient model; draws and contest rolls are chance, not the decision’s; 95% CI resamples whole duplicate groups)',
    ...(report.wpa.length ? indent(wpaTable(report.wpa)) : ['  no stored decisions to measure']),
    '',
    'Who manipulated whom (attempts, success rate)',
    ...(pairs.length
      ? indent(table([['agent → target', 'attempts', 'success', 'forced errors'], ...pairs.map((p) => [`${p.agent} → ${p.target}`, int(p.manipulation.attempts), pct(p.manipulation.success_rate), int(p.forced_errors)])]))
      : ['  no manipulation attempts']),
    ...(usage.length
      ? ['', 'LLM use', ...indent(table([['agent', 'calls', 'failed', 'tokens in', 'tokens out', 'cost', 'mean latency'], ...usage.map((a) => [a.agent, int(a.usage!.calls), int(a.usage!.failed_calls), int(a.usage!.input_tokens), int(a.usage!.output_tokens), `$${a.usage!.cost_usd.toFixed(4)}`, a.usage!.mean_latency_ms === null ? '–' : `${int(a.usage!.mean_latency_ms)} ms`])]))]
      : []),
    '',
    'Every figure: --json; one table as CSV: --csv --table agents|pairs|plans|intents|ledger|shifts|wpa (docs/tournaments.md).',
  ];
  return `${lines.join('\n')}\n`;
}
