/**
 * What a viewer must never see, checked on any projection (an event, a request, a state view):
 * another seat's hand card ids, unrevealed secret and attack plans (their canaries), private speech
 * not addressed to it, any speech_act label or commitment kind of another seat, another seat's
 * emotions, trust or grievance, the PRNG state, the seed, or the card-id→name map.
 */
import type { GameState } from '../../src/game/index.js';

export type Watch = {
  /** The viewing seat, or null for a spectator. */
  viewer: string | null;
  state: GameState;
  /** Turns whose plans have been revealed (plans_revealed seen): their canaries are public. */
  revealedThrough: number;
};

const CARD_ID = /card_\d{3}/g;
const CANARY = /(PLAN|ATK|PRIV)~(plr_\d+)~(?:(plr_\d+)~)?(\d+)~/g;
/** Keys that carry an emotion vector or social maps; allowed only inside the viewer's own `emotion_state` or own emotion_updated. */
const AFFECT_KEYS = new Set(['emotions', 'trust', 'grievance', 'emotion_state', 'affective_effect', 'emotion_delta', 'social_delta', 'trust_delta', 'grievance_delta', 'impacts', 'social']);
const SECRET_KEYS = new Set(['rng', 's0', 's1', 's2', 'deck', 'order', 'cards_by_id']);

export function leaks(view: unknown, w: Watch): string[] {
  const out: string[] = [];
  const json = JSON.stringify(view) ?? '';
  const hidden = new Set(w.state.players.filter((p) => p.player_id !== w.viewer).flatMap((p) => p.hand));
  for (const id of json.match(CARD_ID) ?? []) if (hidden.has(id)) out.push(`hand card ${id} of another seat`);
  for (const m of json.matchAll(CANARY)) {
    const [, kind, owner, target, turn] = m;
    if (owner === w.viewer) continue;
    if (kind === 'PRIV' && target !== w.viewer) out.push(`private text ${m[0]}`);
    if (kind !== 'PRIV' && Number(turn) > w.revealedThrough) out.push(`unrevealed plan ${m[0]}`);
  }
  if (json.includes(`"seed":${w.state.seed}`)) out.push('the seed');
  if (String(w.state.seed).length >= 6 && json.includes(String(w.state.seed))) out.push('the seed (in a string)');
  walk(view, w, out, false);
  return out;
}

/** Structural checks: labels, affect and secret keys, and the card map (an object keyed by card ids). */
function walk(node: unknown, w: Watch, out: string[], ownAffect: boolean): void {
  if (Array.isArray(node)) {
    for (const x of node) walk(x, w, out, ownAffect);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  const o = node as Record<string, unknown>;
  const owner = typeof o.player_id === 'string' ? o.player_id : typeof o.speaker_player_id === 'string' ? o.speaker_player_id : null;
  const mine = w.viewer !== null && owner === w.viewer;
  if (o.speech_act !== undefined && o.speech_act !== null && !mine) out.push(`speech_act of ${owner}`);
  if ('speaker_player_id' in o && (o.kind !== undefined || o.outcome !== undefined) && !mine) out.push(`commitment kind/outcome of ${owner}`);
  const keys = Object.keys(o);
  if (keys.filter((k) => /^card_\d{3}$/.test(k)).length > 3) out.push('the card-id→name map');
  for (const k of keys) {
    if (SECRET_KEYS.has(k)) out.push(`secret key ${k}`);
    if (k === 'seed' && o[k] !== null) out.push('the seed');
    // A seat's projection may carry its own slice of hidden affect (`own`: its trust and grievance moves).
    const own = ownAffect || (mine && (k === 'emotion_state' || k === 'emotions' || k === 'trust' || k === 'grievance' || k === 'trust_delta' || k === 'grievance_delta'));
    if (AFFECT_KEYS.has(k) && !own) out.push(`${k} of ${owner ?? 'someone'}`);
    walk(o[k], w, out, own);
  }
}

/**
 * What of the future a broadcast projection (or anything a broadcast audience receives) shows:
 * the seed (as a value, or its digits in any string), the PRNG state, the deck order, a
 * reshuffle's order, the card-id→name map, the raw engine state.
 */
export function futureLeaks(view: unknown, seed: number): string[] {
  const out = new Set<string>();
  if ((JSON.stringify(view) ?? '').includes(String(seed))) out.add('the seed');
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (node === null || typeof node !== 'object') return;
    const o = node as Record<string, unknown>;
    const keys = Object.keys(o);
    if (keys.filter((k) => /^card_\d{3}$/.test(k)).length > 3) out.add('the card-id→name map');
    for (const k of keys) {
      if (['rng', 's0', 's1', 's2', 'deck', 'order', 'raw'].includes(k)) out.add(`secret key ${k}`);
      if (k === 'seed' && o[k] !== null) out.add('the seed');
      walk(o[k]);
    }
  };
  walk(view);
  return [...out];
}
