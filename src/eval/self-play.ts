/**
 * The games the win-probability model learns from and is measured on: seeded self-play of the
 * built-in agents at 3–6 seats, every position sampled as a spectator and as an admin sees it,
 * labelled with who won. Training and the calibration bench draw from disjoint seed ranges.
 */
import type { Placement } from '../protocol/index.js';
import { awaiting, initialState, requestFor, stepInPlace, viewState, type StateView } from '../game/index.js';
import { Rng, seedRng } from '../game/rng.js';
import { buildAgents, seatConfigs } from '../runner/lineup.js';

/** Cheap built-ins fill most seats; `expert:fast` (≈ 2.5 s a game) sits in one game in ten. */
const CHEAP = ['random', 'balanced', 'aggressor', 'turtle', 'manipulator', 'trickster'] as const;

/** A game's line-up, from its seed alone: 3–6 seats of built-ins. */
export function lineupFor(seed: number): string[] {
  const rng = new Rng(seedRng(`winprob:lineup:${seed}`));
  const seats = 3 + rng.int(4);
  const names: string[] = Array.from({ length: seats }, () => CHEAP[rng.int(CHEAP.length)]!);
  if (rng.next() < 0.1) names[rng.int(seats)] = 'expert:fast';
  return names;
}

/** One sampled position: the spectator's and the admin's view of it, and how far into the log it is. */
export type Sample = { seq: number; turn: number; spectator: StateView; admin: StateView };

export type SampledGame = { seed: number; lineup: string[]; events: number; samples: Sample[]; placements: Placement[] };

/**
 * Plays game `seed` and keeps the position after every `stride`-th engine step (and the first).
 *
 * @example sampleGame(1_000_001, 3).samples.length // ≈ a third of the game's decisions
 */
export function sampleGame(seed: number, stride: number): SampledGame {
  const lineup = lineupFor(seed);
  const agents = buildAgents(lineup, seed);
  const state = initialState({ seats: seatConfigs(lineup) }, seed);
  let ts = 0;
  const clock = () => new Date(Date.UTC(2026, 0, 1) + ts++ * 1000).toISOString();
  const started = stepInPlace(state, { type: 'start', ts: clock() });
  if (!started.ok) throw new Error(`start refused: ${started.rejection.message}`);
  const samples: Sample[] = [];
  let placements: Placement[] = [];
  let steps = 0;
  for (let next = awaiting(state); next; next = awaiting(state)) {
    if (steps++ % stride === 0) samples.push({ seq: state.seq, turn: state.turn, spectator: viewState(state, { role: 'spectator' }), admin: viewState(state, { role: 'broadcast' }) });
    const seat = next.seats[0]!;
    const decision = agents[Number(seat.slice(4)) - 1]!.decide(requestFor(state, seat));
    const res = stepInPlace(state, { type: 'decision', player_id: seat, window: next.window, decision, ts: clock() });
    if (!res.ok) throw new Error(`engine refused ${seat}'s ${next.window}: ${res.rejection.code}`);
    for (const e of res.events) if (e.type === 'game_ended') placements = (e.payload as { placements: Placement[] }).placements;
  }
  return { seed, lineup, events: state.seq, samples, placements };
}

/** Each seat's share of the win: the seats placed first split it. */
export function winShares(placements: readonly Placement[]): Map<string, number> {
  const top = placements.filter((p) => p.placement === 1);
  return new Map(placements.map((p) => [p.player_id, p.placement === 1 ? 1 / top.length : 0]));
}
