import type { AttackPlan, EmotionVector, TurnPlanRequest } from '../../../protocol/index.js';
import { EMOTIONS } from '../../../protocol/index.js';
import { CATALOG, RulesConfig, cardDef } from '../../../game/index.js';
import type { GameState, PlayerState } from '../../../game/index.js';
import type { Rng } from '../../../game/rng.js';
import { seedRng } from '../../../game/rng.js';

/**
 * One determinization: a full engine state built from a seat's request alone, with every unknown
 * sampled (opponents' hands, face-down cards, the deck's order, other seats' emotions where no
 * tell shows them, their attack plans on the stack). Nothing here reads hidden state: the request
 * is all the expert is given, so it cannot peek. Built at the action window, where it searches.
 */
export function determinize(r: TurnPlanRequest, rng: Rng, rngSeed: string): GameState {
  const world = r.public_world_view;
  const me = r.player_private_view;
  const flags = world.rule_flags as { rules_version?: string; windows?: 'full' | 'compact'; round_cap?: number };
  // Rollouts skip the optional reflect window (the engine's own reflect still runs): fewer steps.
  const rules = RulesConfig.parse({ rules_version: flags.rules_version, windows: flags.windows, round_cap: flags.round_cap, reflect_window: false });

  const cards: Record<string, string> = {};
  const known = (c: { card_id: string; name: string }) => {
    if (c.card_id !== 'card_hidden') cards[c.card_id] = c.name;
  };
  for (const c of me.hand) known(c);
  for (const c of world.discard) known(c);
  for (const a of world.arena.cards) known(a.card);
  for (const s of world.stack) {
    if (s.card) known(s.card);
    if (s.reaction_card) known(s.reaction_card);
  }
  // The unseen pool: the catalog minus every card the seat can name.
  const seen = new Map<string, number>();
  for (const name of Object.values(cards)) seen.set(name, (seen.get(name) ?? 0) + 1);
  const pool: string[] = [];
  for (const def of CATALOG) for (let i = seen.get(def.name) ?? 0; i < def.count; i++) pool.push(def.name);
  const unseen = rng.shuffle(pool);
  let fresh = 0;
  const take = (pred: (name: string) => boolean = () => true): string | null => {
    const i = unseen.findIndex(pred);
    if (i < 0) return null;
    const name = unseen.splice(i, 1)[0]!;
    const id = `card_u${++fresh}`;
    cards[id] = name;
    return id;
  };

  const faceDownName = (n: string) => cardDef(n).faceDown;
  const arena = world.arena.cards.map((a) => {
    if (a.card.card_id !== 'card_hidden') return { card_id: a.card.card_id, owner: a.owner_player_id, face_down: a.face_down, rounds_left: a.rounds_left, countdown: a.countdown, chosen_emotion: a.chosen_emotion };
    const id = take(faceDownName) ?? take()!;
    const def = cardDef(cards[id]!);
    return { card_id: id, owner: a.owner_player_id, face_down: true, rounds_left: def.rounds === null ? null : 1, countdown: def.countdown, chosen_emotion: null };
  });

  const stack = world.stack.map((s, i) => {
    const cardId = s.card ? s.card.card_id : (take(faceDownName) ?? take()!);
    const def = cardDef(cards[cardId]!);
    const attack_plan: AttackPlan | null =
      s.target_player_id && (def.attack || s.kind === 'activate')
        ? {
            target_player_id: s.target_player_id,
            kinetic_intent: def.kinetic[0] ?? 'tempo_swing',
            emotional_intent: 'tilt',
            manipulation_plan: 'threat_framing',
            delivery_channel: def.channels.includes('public') ? 'public' : 'private',
            expected_behavior_shift: '',
            confidence: 0.5,
          }
        : null;
    return {
      action_id: s.action_id,
      player_id: s.player_id,
      kind: s.kind,
      card_id: cardId,
      payload: { target_player_id: s.target_player_id, named_player_id: null, chosen_emotion: null },
      attack_plan,
      index: world.stack.slice(0, i).filter((x) => x.player_id === s.player_id).length + 1,
      reaction_card_id: s.reaction_card ? s.reaction_card.card_id : null,
    };
  });

  const zero = (): EmotionVector => Object.fromEntries(EMOTIONS.map((k) => [k, 0])) as EmotionVector;
  const ids = world.players.map((p) => p.player_id);
  const players: PlayerState[] = world.players.map((p, seat) => {
    const mine = p.player_id === r.player_id;
    const tell = mine ? null : me.belief_state.tells[p.player_id];
    const emotions: EmotionVector = mine
      ? Object.fromEntries(EMOTIONS.map((k) => [k, me.emotion_state[k]])) as EmotionVector
      : { ...zero(), confidence: rules.start_confidence, ...(tell?.vector ?? {}) };
    if (!mine && tell?.dominant && !tell.vector) emotions[tell.dominant] = Math.max(emotions[tell.dominant], 0.4);
    const hand = mine ? me.hand.map((c) => c.card_id) : Array.from({ length: p.hand_count }, () => take()).filter((x): x is string => x !== null);
    const others = ids.filter((o) => o !== p.player_id);
    return {
      player_id: p.player_id,
      display_name: p.display_name,
      seat,
      alive: p.alive,
      lives: p.lives,
      resolve: p.resolve,
      tempo: p.tempo,
      exposure: p.exposure,
      hand,
      secret_plan: mine ? me.secret_plan : { tactical_intent: 'defend', emotional_intent: null },
      emotions,
      baseline: { ...zero(), confidence: rules.start_confidence },
      trust: mine ? { ...me.emotion_state.trust } : Object.fromEntries(others.map((o) => [o, rules.start_trust])),
      grievance: mine ? { ...me.emotion_state.grievance } : {},
      impacts: {},
      social: {},
      next_lockout: false,
      next_forced_line: null,
      locked_out: p.locked_out,
      forced_line: p.forced_line_toward,
      false_tell_charge: false,
      eliminated_turn: p.alive ? null : Math.max(0, world.turn - 1),
      notes: [],
      reads_scored: 0,
      reads_correct: 0,
    };
  });
  const deck: string[] = [];
  for (let id = take(); id !== null && deck.length < world.arena.deck_count; id = take()) deck.push(id);

  const actionsPerRound = rules.actions_per_round;
  const mine = players.find((p) => p.player_id === r.player_id)!;
  const order = world.initiative_order.filter((id) => players.find((p) => p.player_id === id)?.alive);
  const at = order.indexOf(r.player_id);
  const round = { turn: world.turn, attacks: {} as Record<string, string[]>, plays: {}, slips: {}, speeches: {}, reactions: {}, actions: {} as Record<string, number>, reckless: {}, kinetic: {} as Record<string, AttackPlan['kinetic_intent'][]>, outcomes: {} };
  for (const s of stack) {
    round.actions[s.player_id] = (round.actions[s.player_id] ?? 0) + 1;
    if (s.attack_plan) {
      (round.attacks[s.player_id] ??= []).push(s.attack_plan.target_player_id);
      (round.kinetic[s.player_id] ??= []).push(s.attack_plan.kinetic_intent);
    }
  }
  const prev = { ...round, turn: world.turn - 1, attacks: Object.fromEntries(ids.map((id) => [id, ['?']])), actions: {}, kinetic: {} };

  return {
    schema_version: r.schema_version,
    game_id: r.game_id,
    seed: 0,
    status: 'running',
    turn: world.turn,
    phase: 'action',
    seq: 0,
    ts: '1970-01-01T00:00:00.000Z',
    rules,
    players,
    seat_configs: [],
    base_order: [...world.initiative_order, ...ids.filter((id) => !world.initiative_order.includes(id))],
    initiative_order: world.initiative_order.slice(),
    cards,
    deck,
    discard: world.discard.map((c) => c.card_id),
    arena,
    stack,
    ledger: me.belief_state.commitments.map((c) => ({ commitment_id: c.commitment_id, kind: c.kind, speaker: c.speaker_player_id, target: c.target_player_id, turn: c.turn, public: c.public })),
    predictions: me.belief_state.predictions.map((x) => ({ predictor: r.player_id, target: x.target_player_id, predicted: x.predicted, from_turn: x.from_turn, to_turn: x.to_turn })),
    speech: world.round_speech.map((x) => ({ player_id: x.player_id, channel: x.channel === 'private' ? 'private' : 'public', target_player_id: x.target_player_id, text: x.text ?? '', speech_act: x.speech_act ?? 'neutral' })),
    revealed_plans: {},
    rounds: [prev, round],
    window: {
      window: 'action',
      queue: at >= 0 ? order.slice(at) : [r.player_id],
      sequential: true,
      taken: Math.max(0, (mine.locked_out ? 1 : actionsPerRound) - r.constraints.actions_left),
      rejections: 0,
      last_rejection: null,
      reacting_to: null,
    },
    suspended: null,
    rng: seedRng(rngSeed),
    placements: null,
    next_action: 10_000,
    next_commitment: 10_000,
  } as GameState;
}
