import type { LegalAction } from '../protocol/index.js';
import { KINETIC_INTENTS } from '../protocol/index.js';
import { defOf } from './cards.js';
import { aliveInInitiative, player } from './players.js';
import type { GameState, PlayerId } from './state.js';

const SPRING_INTENTS = ['tempo_swing', 'forced_line'] as const;

/** Seats an attack by `id` may aim at now: any other alive seat, or only its forced line. */
export function attackTargets(state: GameState, id: PlayerId): PlayerId[] {
  const others = aliveInInitiative(state).filter((o) => o !== id);
  const forced = player(state, id).forced_line;
  return forced && others.includes(forced) ? [forced] : others;
}

/** Everything the seat may do in the action window (compact windows add speech). */
export function actionLegal(state: GameState, id: PlayerId): LegalAction[] {
  const p = player(state, id);
  const out: LegalAction[] = [];
  const targets = attackTargets(state, id);
  const aliveCount = state.players.filter((x) => x.alive).length;
  // Names already listed: a hand holds a handful of cards, so an array beats a Set here.
  const seen: string[] = [];
  for (const cardId of p.hand) {
    const def = defOf(state, cardId);
    if (def.reactionOnly || def.tempo > p.tempo) continue;
    if (def.attack && targets.length === 0) continue;
    if (def.needsNamedPlayer && aliveCount < 3) continue;
    if (seen.includes(def.name)) continue; // one entry per card name keeps the list short; any copy is legal
    seen.push(def.name);
    out.push({
      kind: 'play_card',
      card_id: cardId,
      name: def.name,
      type: def.type,
      tempo_cost: def.tempo,
      attack: def.attack,
      targets: def.attack ? targets : [],
      kinetic_intents: def.attack ? [...def.kinetic] : [],
      channels: def.attack ? [...def.channels] : [],
      needs_named_player: def.needsNamedPlayer,
      needs_chosen_emotion: def.needsChosenEmotion,
    });
  }
  const cost = state.rules.activate.cost;
  if (p.tempo >= cost) {
    for (const a of state.arena) {
      if (a.owner !== id || state.stack.some((e) => e.card_id === a.card_id)) continue;
      const def = defOf(state, a.card_id);
      if (def.type === 'trap' && targets.length > 0) {
        out.push({ kind: 'activate', card_id: a.card_id, name: def.name, type: def.type, tempo_cost: cost, attack: true, targets, kinetic_intents: [...SPRING_INTENTS], channels: ['public', 'private', 'mixed'] });
      } else if (def.type === 'ritual' && (a.countdown ?? 0) >= 1) {
        out.push({ kind: 'activate', card_id: a.card_id, name: def.name, type: def.type, tempo_cost: cost, attack: false, targets: [], kinetic_intents: [], channels: [] });
      }
    }
  }
  out.push({ kind: 'pass' });
  return out;
}

export const springIntents: readonly string[] = SPRING_INTENTS;
export const allIntents: readonly string[] = KINETIC_INTENTS;

/** Guards the seat could answer an attack with. */
export function reactionLegal(state: GameState, id: PlayerId): LegalAction[] {
  const p = player(state, id);
  const out: LegalAction[] = [];
  const seen = new Set<string>();
  for (const cardId of p.hand) {
    const def = defOf(state, cardId);
    if (!def.reactionOnly || def.tempo > p.tempo || seen.has(def.name)) continue;
    seen.add(def.name);
    out.push({ kind: 'reaction', card_id: cardId, name: def.name, tempo_cost: def.tempo });
  }
  out.push({ kind: 'pass' });
  return out;
}

export function speakLegal(state: GameState, id: PlayerId): LegalAction {
  return {
    kind: 'speak',
    channels: ['public', 'private'],
    targets: aliveInInitiative(state).filter((o) => o !== id),
    max_public: state.rules.public_statements,
    max_private: state.rules.private_messages,
    text_max: 500,
  };
}

/** The legal actions of the seat's current window. */
export function legalActions(state: GameState, id: PlayerId): LegalAction[] {
  const w = state.window;
  if (!w) return [];
  switch (w.window) {
    case 'intent':
      return [{ kind: 'commit_plan', targets: aliveInInitiative(state).filter((o) => o !== id) }];
    case 'talk':
      return [speakLegal(state, id), { kind: 'pass' }];
    case 'action':
      return state.rules.windows === 'compact' ? [speakLegal(state, id), ...actionLegal(state, id)] : actionLegal(state, id);
    case 'reaction':
      return reactionLegal(state, id);
    case 'reflect':
      return [{ kind: 'reflect' }];
  }
}
