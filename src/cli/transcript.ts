import type { AttackPlan, EmotionVector, EventPayload, EventType, GameEvent, GameEventOf, TacticalEffect } from '../protocol/index.js';
import { EMOTIONS } from '../protocol/index.js';
import { num, signed, table } from './format.js';

type Handlers = { [T in EventType]?: (p: EventPayload<T>, e: GameEventOf<T>) => string[] };

/**
 * The admin's transcript of a full event log: every seat's secret plans, speech acts, attack
 * plans, resolutions and emotions. Routine bookkeeping (draws, reaction requests, reflection
 * records) is left out; `play --json` has everything.
 */
export function formatTranscript(events: readonly GameEvent[], options: TranscriptOptions = {}): string {
  const line = transcriptLines(options);
  return events.flatMap((e) => line(e)).join('\n') + '\n';
}

/** How the engine's zod check words a decision that is not there. */
const NO_INPUT = 'received undefined';

export type TranscriptOptions = {
  /**
   * Why a seat gave no answer (its agent's failure: "connection refused (…)"), asked at each
   * rejection of a missing answer so the line says what happened instead of the engine's zod
   * issue about an undefined input. In order of the seat's missing answers in that window.
   */
  noAnswerCause?: (playerId: string, window: string) => string | null;
};

/** A stateful formatter: it folds names, cards and emotions as the log goes by. */
export function transcriptLines(options: TranscriptOptions = {}): (e: GameEvent) => string[] {
  const labels = new Map<string, string>();
  const agents = new Map<string, string>();
  const emotions = new Map<string, EmotionVector>();
  const actionCards = new Map<string, string>();
  let cards: Record<string, string> = {};
  let header: string[] = [];
  const who = (id: string | null | undefined): string => (id ? (labels.get(id) ?? id) : 'nobody');
  const card = (id: string | undefined): string => (id ? (cards[id] ?? id) : 'a card');
  /** ": <why the seat gave no answer>" when the engine's rejection was of no input at all and the cause is known. */
  const missingCause = (player: string, window: string, message: string | undefined): string => {
    const cause = message?.includes(NO_INPUT) ? options.noAnswerCause?.(player, window) : null;
    return cause ? `: no answer — ${cause}` : '';
  };

  const handlers: Handlers = {
    game_started(p, e) {
      cards = p.cards ?? {};
      for (const s of p.players) {
        labels.set(s.player_id, `P${s.seat + 1}`);
        agents.set(s.player_id, s.display_name);
        emotions.set(s.player_id, s.baseline);
      }
      const rows = p.players.map((s) => [`P${s.seat + 1}`, s.display_name, s.player_id, `baseline ${vector(s.baseline)}`]);
      return [
        `Game ${e.game_id} · seed ${p.seed ?? '?'} · rules ${p.rules_version} (${p.rules['windows'] === 'compact' ? 'compact' : 'full'} windows) · ${p.players.length} seats · deck ${p.deck_count}`,
        ...table(rows, 4).map((l) => `  ${l}`),
        `  base order ${p.base_order.map(who).join(' ')}`,
      ];
    },
    // Phase headers wait for the phase's first line, so quiet phases (draw, end) take no space.
    phase_changed(p) {
      header = p.phase === 'upkeep' ? [] : [`-- ${p.phase} --`];
      return p.phase === 'upkeep' ? ['', `=== Round ${p.turn} ===`] : [];
    },
    upkeep_applied: (p) => [
      `  order ${p.initiative_order.map(who).join(' ')}` +
        (p.locked_out.length ? ` · locked out ${p.locked_out.map(who).join(' ')}` : '') +
        Object.entries(p.forced_lines).map(([a, b]) => ` · ${who(a)} must attack ${who(b)}`).join(''),
    ],
    ritual_fired: (p) => [`  ${who(p.owner_player_id)}'s ${p.card.name} fires: ${effect(p.tactical_effect, who) || 'no effect'}`, ...notes(p.rules_notes)],
    deck_reshuffled: (p) => [`  the discard (${p.count}) is reshuffled into the deck`],
    cards_discarded: (p) => [`  ${who(p.player_id)} discards ${p.cards.map((c) => c.name).join(', ')} (${p.reason.replace('_', ' ')})`],
    secret_plan_committed: (p) => [
      `  ${who(p.player_id)} plans ${p.plan?.tactical_intent ?? '?'}` +
        (p.plan?.emotional_intent ? `, ${p.plan.emotional_intent.emotion} → ${who(p.plan.emotional_intent.target_player_id)}` : '') +
        (p.plan?.deception_frame ? ` (frame: "${p.plan.deception_frame}")` : '') +
        (p.defaulted ? ` (defaulted${missingCause(p.player_id, 'intent', p.rejection?.message)})` : ''),
    ],
    speech_posted: (p) => [
      `  ${who(p.player_id)} → ${p.channel === 'private' ? who(p.target_player_id) : 'all'} [${p.channel}, ${p.speech_act ?? '?'}` +
        (p.channel === 'public' && p.target_player_id ? `, at ${who(p.target_player_id)}` : '') +
        `] "${p.text ?? ''}"`,
    ],
    talk_finished: (p) => (p.forced ? [`  ${who(p.player_id)} is silenced (talk rejected)`] : []),
    action_submitted(p) {
      const actor = who(p.player_id);
      if (p.kind === 'pass') return [`  ${actor} passes${p.forced ? ` (forced: ${p.rules_notes.join('; ')})` : ''}`];
      const name = p.card?.name ?? card(p.action?.payload.card_id);
      actionCards.set(p.action_id, name);
      const verb = p.kind === 'activate' ? 'activates' : p.card ? 'plays' : 'plays face-down';
      const target = p.target_player_id ? ` → ${who(p.target_player_id)}` : '';
      return [`  ${actor} ${verb} ${name}${target} (tempo ${p.tempo_paid})`, ...plan(p.attack_plan, who), ...notes(p.rules_notes)];
    },
    action_rejected(p) {
      const missing = p.message?.includes(NO_INPUT) ? options.noAnswerCause?.(p.player_id, p.window) : null;
      if (missing) return [`  ${who(p.player_id)} gave no ${p.window} answer (attempt ${p.attempt}): ${missing}${p.reprompt ? ', asked again' : ''}`];
      return [`  ${who(p.player_id)}'s ${p.window} rejected (attempt ${p.attempt}): ${p.code}${p.message ? ` — ${p.message}` : ''}${p.reprompt ? ', asked again' : ''}`];
    },
    reaction_submitted: (p) => [`  ${who(p.player_id)} ${p.card ? `reacts with ${p.card.name}` : 'does not react'}`],
    action_resolved(p) {
      const what = p.card?.name ?? actionCards.get(p.action_id) ?? p.kind;
      const placed = p.tactical_effect.card_moves.filter((m) => m.to.startsWith('arena:')).map((m) => `${card(m.card_id)} enters the arena`);
      const faceDown = p.kind === 'play_card' && p.card === null;
      const parts = [effect(p.tactical_effect, who) || placed.join(', ') || (faceDown ? 'lies face down in the arena' : 'no tactical effect')];
      if (p.manipulation_outcome) parts.push(`manipulation ${p.manipulation_outcome}${p.manipulation ? ` (margin ${num(p.manipulation.margin)})` : ''}`);
      if (p.slipped) parts.push('SLIP');
      if (p.fizzled) parts.push('fizzled');
      const targets = p.target_player_ids.length ? ` → ${p.target_player_ids.map(who).join(' ')}` : '';
      return [`  ${who(p.actor_player_id)}'s ${what}${targets}: ${parts.join(' · ')}`, ...notes(p.rules_notes)];
    },
    ledger_settled: (p) => [
      ...(p.settlements ?? []).map(
        (x) => `  ledger: ${who(x.speaker_player_id)}'s ${x.kind}${x.target_player_id ? ` to ${who(x.target_player_id)}` : ''} ${x.outcome}`,
      ),
      ...(effect(p.tactical_effect, who) ? [`  ledger effects: ${effect(p.tactical_effect, who)}`] : []),
    ],
    prediction_scored: (p) => [
      `  ${who(p.predictor_player_id)}'s read "${p.predicted}" on ${who(p.target_player_id)}: ${p.correct ? 'correct' : 'wrong'} (saw ${p.observed.join(', ') || 'nothing'})` +
        (p.tempo_delta ? `, tempo ${signed(p.tempo_delta)}` : ''),
    ],
    emotion_updated(p) {
      if (!p.emotions) return [];
      const before = emotions.get(p.player_id);
      emotions.set(p.player_id, p.emotions);
      const changes = EMOTIONS.map((k) => ({ k, v: p.emotions![k], d: p.emotions![k] - (before?.[k] ?? 0) }))
        .filter((c) => Math.abs(c.d) >= 0.01)
        .sort((a, b) => Math.abs(b.d) - Math.abs(a.d))
        .slice(0, 4);
      const tell = p.tell.dominant ? ` · tell shows ${p.tell.dominant}${p.tell.masked ? ' (masked)' : ''}` : '';
      if (changes.length === 0 && !tell) return [];
      return [`  ${who(p.player_id)} feels ${changes.map((c) => `${c.k} ${num(c.v)} (${signed(c.d, 2)})`).join(', ') || 'the same'}${tell}${p.reason === 'life_lost' ? ' after losing a life' : ''}`];
    },
    exposure_updated: (p) => [`  exposure ${deltas(p.exposure_delta, who)}`, ...notes(p.rules_notes)],
    life_lost: (p) => [`  ${who(p.player_id)} LOSES ${p.lives_left ? `A LIFE: ${p.lives_left} left, resolve reset to ${p.resolve_after}` : 'ITS LAST LIFE'}`],
    player_eliminated: (p) => [`  ${who(p.player_id)} IS ELIMINATED`],
    game_ended(p) {
      const rows = [
        ['#', 'seat', 'agent', 'lives', 'resolve', 'tempo', 'exposure', 'out'],
        ...p.placements.map((x) => [
          String(x.placement),
          who(x.player_id),
          agents.get(x.player_id) ?? '',
          ...[x.lives, x.resolve, x.tempo, x.exposure].map(String),
          x.alive ? 'alive' : `round ${x.eliminated_turn ?? '?'}`,
        ]),
      ];
      return ['', `=== Game over after ${p.rounds} rounds (${p.reason.replace(/_/g, ' ')}) ===`, 'Placements', ...table(rows, 3).map((l) => `  ${l}`)];
    },
  };

  return (e) => {
    const handler = handlers[e.type] as ((p: unknown, e: GameEvent) => string[]) | undefined;
    const lines = handler ? handler(e.payload, e) : [];
    if (lines.length === 0 || header.length === 0) return lines;
    const out = [...header, ...lines];
    header = [];
    return out;
  };
}

type Who = (id: string) => string;

const notes = (xs: readonly string[]): string[] => (xs.length ? [`      notes: ${xs.join('; ')}`] : []);

function plan(p: AttackPlan | null | undefined, who: Who): string[] {
  if (!p) return [];
  return [
    `      attack plan: ${p.kinetic_intent} + ${p.emotional_intent} on ${who(p.target_player_id)} via ${p.manipulation_plan} (${p.delivery_channel})` +
      `, expects "${p.expected_behavior_shift}", confidence ${num(p.confidence)}`,
  ];
}

const deltas = (m: Record<string, number>, who: Who): string =>
  Object.entries(m)
    .filter(([, d]) => d !== 0)
    .map(([id, d]) => `${who(id)} ${signed(d)}`)
    .join(', ');

/** The visible numbers of a tactical effect: resolve, tempo, exposure and statuses. */
function effect(t: TacticalEffect, who: Who): string {
  const parts = (['resolve', 'tempo', 'exposure'] as const)
    .map((k) => [k, deltas(t[`${k}_delta`], who)] as const)
    .filter(([, d]) => d)
    .map(([k, d]) => `${k} ${d}`);
  for (const s of t.status_changes) parts.push(`${s.status.replace('_', ' ')} on ${who(s.player_id)}${s.toward_player_id ? ` toward ${who(s.toward_player_id)}` : ''}`);
  for (const x of t.triggered_effects) parts.push(x);
  return parts.join(', ');
}

function vector(v: EmotionVector): string {
  const set = EMOTIONS.filter((k) => v[k] !== 0).map((k) => `${k} ${num(v[k])}`);
  return set.length ? set.join(', ') : 'neutral';
}
