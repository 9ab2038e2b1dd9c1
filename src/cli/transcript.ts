import type { EventPayload, GameEvent } from '../protocol/index.js';
import { Narrator, type NarrationLine } from '../view/narrate.js';
import { vectorWords } from '../view/narrate-effects.js';
import { table } from './format.js';
import type { Swing } from '../eval/win-report.js';
import { storySwings, swingMarker } from './story-swings.js';

/**
 * The admin's transcript of a full event log, told by the same narrator as the web page's move
 * list (`src/view/narrate.ts`): every seat's secret plans, speech with its act, plays with their
 * attack plans, resolutions with the manipulation contest, the ledger, feelings, lives and
 * placements, grouped by round and phase, key moments starred and listed at the end. Routine
 * bookkeeping (draws, reaction requests, reflection records) is left out; `play --json` has everything.
 */
export function formatTranscript(events: readonly GameEvent[], options: TranscriptOptions = {}): string {
  const line = transcriptLines({ swings: storySwings(events), ...options });
  const out = events.flatMap((e) => line(e));
  return [...out, ...line.summary()].join('\n') + '\n';
}

type Transcript = ((e: GameEvent) => string[]) & { summary(): string[] };

export type TranscriptOptions = {
  /**
   * Why a seat gave no answer (its agent's failure: "connection refused (…)"), asked at each
   * rejection of a missing answer so the transcript says what happened instead of the engine's zod
   * issue about an undefined input. In order of the seat's missing answers in that window.
   */
  noAnswerCause?: (playerId: string, window: string) => string | null;
  /**
   * Big swings of win probability by the seq of the event that made them (story-swings.ts): that
   * event's first line ends with "(Ada's chance 22% → 61%)"; an event the story does not tell
   * (a draw) gets a line of its own.
   */
  swings?: ReadonlyMap<number, readonly Swing[]>;
  /** Seats a person plays: a missing answer of theirs reads "Ada took too long; …" (NarrateOptions.humans). */
  humans?: readonly string[];
};

/** How the engine's zod check words a decision that is not there. */
const NO_INPUT = 'received undefined';

/** The cause of a missing answer, when the event is the engine refusing or defaulting one and the cause is known. */
function missingCause(e: GameEvent, options: TranscriptOptions): string | null {
  // A person's missing answer is their clock, which the story line already tells.
  if (options.humans?.includes(String((e.payload as { player_id?: unknown }).player_id))) return null;
  if (e.type === 'action_rejected' && e.payload.message?.includes(NO_INPUT)) return options.noAnswerCause?.(e.payload.player_id, e.payload.window) ?? null;
  if (e.type === 'secret_plan_committed' && e.payload.defaulted && e.payload.rejection?.message?.includes(NO_INPUT)) return options.noAnswerCause?.(e.payload.player_id, 'intent') ?? null;
  return null;
}

/** A stateful formatter over the narrator: it adds round and phase headers, the seat table and the placements table. */
export function transcriptLines(options: TranscriptOptions = {}): Transcript {
  const narrator = new Narrator({ humans: options.humans ?? [] });
  const labels = new Map<string, string>();
  const agents = new Map<string, string>();
  const moments: NarrationLine[] = [];
  let round = 0;
  let phase = '';

  const headers = (l: NarrationLine): string[] => {
    const out: string[] = [];
    if (l.round !== round) {
      round = l.round;
      phase = '';
      out.push('', `=== Round ${round} ===`);
    }
    if (l.phase !== phase) {
      phase = l.phase;
      if (phase !== 'upkeep') out.push(`-- ${phase} --`);
    }
    return out;
  };

  const fn = (e: GameEvent): string[] => {
    const lines = narrator.push(e);
    if (e.type === 'game_started') return header(e, labels, agents);
    const out: string[] = [];
    if (e.type === 'game_ended') out.push('', `=== Game over after ${e.payload.rounds} rounds (${e.payload.reason.replace(/_/g, ' ')}) ===`);
    const swung = options.swings?.get(e.seq);
    const marker = swung ? ` ${swingMarker(swung, (id) => agents.get(id) ?? id)}` : '';
    for (const [i, l] of lines.entries()) {
      if (e.type !== 'game_ended') out.push(...headers(l));
      if (l.key_moment) moments.push(l);
      out.push(`${l.key_moment ? '★ ' : '  '}${l.text}${i === 0 ? marker : ''}`, ...l.details.map((d) => `      ${d}`));
    }
    if (marker && lines.length === 0) out.push(`  ~ ${e.type.replace(/_/g, ' ')} ${marker.trim()}`);
    const cause = missingCause(e, options);
    if (cause) out.push(`      (${e.type === 'secret_plan_committed' ? 'defaulted: ' : ''}no answer — ${cause})`);
    if (e.type === 'game_ended') out.push(...placements(e.payload, labels, agents));
    return out;
  };
  return Object.assign(fn, {
    summary: (): string[] =>
      // "event N" is where `tiltyard replay <game> --at N` shows it.
      moments.length ? ['', 'Key moments', ...table(moments.map((l) => [`round ${l.round}`, l.phase, `event ${l.seq}`, l.key_moment!.title]), 4).map((x) => `  ${x}`)] : [],
  });
}

function header(e: Extract<GameEvent, { type: 'game_started' }>, labels: Map<string, string>, agents: Map<string, string>): string[] {
  const p = e.payload;
  for (const s of p.players) {
    labels.set(s.player_id, `P${s.seat + 1}`);
    agents.set(s.player_id, s.display_name);
  }
  // Seats by label and name: the story never prints a seat id (P1 is plr_1 for `--view`).
  const rows = p.players.map((s) => [`P${s.seat + 1}`, s.display_name, `baseline ${vectorWords(s.baseline)}`]);
  return [
    `Game ${e.game_id} · seed ${p.seed ?? '?'} · rules ${p.rules_version} (${p.rules['windows'] === 'compact' ? 'compact' : 'full'} windows) · ${p.players.length} seats · deck ${p.deck_count}`,
    ...table(rows, 4).map((l) => `  ${l}`),
    `  base order ${p.base_order.map((id) => agents.get(id) ?? id).join(', ')}`,
  ];
}

function placements(p: EventPayload<'game_ended'>, labels: Map<string, string>, agents: Map<string, string>): string[] {
  const rows = [
    ['#', 'seat', 'agent', 'lives', 'resolve', 'tempo', 'exposure', 'out'],
    ...p.placements.map((x) => [
      String(x.placement),
      labels.get(x.player_id) ?? x.player_id,
      agents.get(x.player_id) ?? '',
      ...[x.lives, x.resolve, x.tempo, x.exposure].map(String),
      x.alive ? 'alive' : `round ${x.eliminated_turn ?? '?'}`,
    ]),
  ];
  return ['Placements', ...table(rows, 3).map((l) => `  ${l}`)];
}
