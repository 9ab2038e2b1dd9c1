import type { EmotionVector } from '../protocol/index.js';
import { EMOTIONS, SCHEMA_VERSION } from '../protocol/index.js';
import { catalogNames } from './cards.js';
import { parseGameConfig, type GameConfigInput, type SeatConfig } from './config.js';
import type { StepContext } from './context.js';
import { drawCards } from './draw.js';
import { Rng, seedRng } from './rng.js';
import { vouchRules } from './rules.js';
import type { GameState } from './state.js';

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/**
 * The state before `game_started`: the configuration, the seed and the seeded PRNG. Nothing is
 * dealt yet; `decide(state, {type: "start"})` deals, so the log alone can rebuild the game.
 * Invalid configuration is a programming error at this layer, so it throws a ConfigError.
 */
export function initialState(config: GameConfigInput, seed: number): GameState {
  const parsed = parseGameConfig(config);
  if (!parsed.success) throw new ConfigError(`invalid game config: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  if (!Number.isSafeInteger(seed)) throw new ConfigError(`seed must be a safe integer, got ${seed}`);
  const c = parsed.data;
  vouchRules(c.rules);
  const seats = typeof c.seats === 'number' ? c.seats : c.seats.length;
  if (Array.isArray(c.seats)) {
    // Speech names seats by display name (the betrayal cue reads it): no name may contain another.
    const names = c.seats.map((x, i) => (x.display_name ?? `Seat ${i + 1}`).toLowerCase());
    const clash = names.find((a, i) => names.some((b, j) => i !== j && b.includes(a)));
    if (clash !== undefined) throw new ConfigError(`display names must be distinct and none may contain another ("${clash}")`);
  }
  if (seats < c.rules.min_seats || seats > c.rules.max_seats) {
    throw new ConfigError(`a game has ${c.rules.min_seats}–${c.rules.max_seats} seats, got ${seats}`);
  }
  return {
    schema_version: SCHEMA_VERSION,
    game_id: c.game_id ?? defaultGameId(seed),
    seed,
    status: 'setup',
    turn: 0,
    phase: 'upkeep',
    seq: 0,
    ts: '1970-01-01T00:00:00.000Z',
    rules: c.rules,
    players: [],
    seat_configs: typeof c.seats === 'number' ? Array.from({ length: seats }, () => ({})) : c.seats,
    base_order: [],
    initiative_order: [],
    cards: {},
    deck: [],
    discard: [],
    arena: [],
    stack: [],
    ledger: [],
    predictions: [],
    speech: [],
    revealed_plans: {},
    rounds: [],
    window: null,
    suspended: null,
    rng: seedRng(`tiltyard:${seed}`),
    placements: null,
    next_action: 1,
    next_commitment: 1,
  };
}

/**
 * A default id that does not spell out the seed, which every viewer sees. It is still a function of
 * the seed, so hidden information needs an unguessable seed (the server draws 53-bit ones); small
 * CLI seeds are for reproducible experiments.
 */
function defaultGameId(seed: number): string {
  const rng = new Rng(seedRng(`tiltyard:game-id:${seed}`));
  let id = '';
  for (let i = 0; i < 3; i++) id += rng.int(0x10000).toString(16).padStart(4, '0');
  return `game_${id}`;
}

function baselineOf(seat: SeatConfig, confidence: number): EmotionVector {
  const v = Object.fromEntries(EMOTIONS.map((e) => [e, 0])) as EmotionVector;
  v.confidence = confidence;
  return { ...v, ...seat.baseline };
}

/** Deals the game: random card ids, the deck, the base initiative order, the opening hands. */
export function startGame(ctx: StepContext): void {
  const s = ctx.state;
  const rng = ctx.random();
  const names = rng.shuffle(catalogNames());
  const ids = names.map((_, i) => `card_${String(i + 1).padStart(3, '0')}`);
  const cards = Object.fromEntries(ids.map((id, i) => [id, names[i]!]));
  const deck = rng.shuffle(ids);
  const players = s.seat_configs.map((seat, i) => ({
    player_id: `plr_${i + 1}`,
    display_name: seat.display_name ?? `Seat ${i + 1}`,
    seat: i,
    baseline: baselineOf(seat, s.rules.start_confidence),
  }));
  const baseOrder = rng.shuffle(players.map((p) => p.player_id));
  ctx.emit(
    'game_started',
    {
      rules_version: s.rules.rules_version,
      rules: s.rules,
      seed: s.seed,
      players,
      base_order: baseOrder,
      cards,
      deck,
      deck_count: deck.length,
    },
    [
      { key: 'seed', to: [] },
      { key: 'cards', to: [] },
      { key: 'deck', to: [] },
    ],
  );
  for (const id of baseOrder) drawCards(ctx, id, s.rules.opening_hand, 'opening');
}
