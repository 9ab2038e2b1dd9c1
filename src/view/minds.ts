import { dominantEmotion } from '../game/tells.js';
import type { StateView } from '../game/views.js';
import type { SecretPlan } from '../protocol/actions.js';
import { canonicalJson } from '../store/canonical-json.js';

/**
 * How a belief stands against the truth: `same` (it knew), `differs` (it believed something
 * false: a spoofed tell, a plan since replaced), `unknown` (it had no belief: a low-exposure tell,
 * a plan never revealed, a face-down card).
 */
export type MindStatus = 'same' | 'differs' | 'unknown';

/** One aligned row: what `about` the seat believed, beside what was true, in words. */
export type MindRow = { about: string; topic: 'feeling' | 'plan' | 'hand' | 'card' | 'memory'; believed: string; truth: string; status: MindStatus };

export type Minds = { seat: string; seq: number; rows: MindRow[]; differ: number };

type Names = ReadonlyMap<string, string>;

/** A plan in words: "attack, to make bo afraid (framed as “just business”)". */
function planText(p: SecretPlan | null | undefined, name: (id: string) => string): string {
  if (!p) return 'no plan';
  const aim = p.emotional_intent ? `, to make ${name(p.emotional_intent.target_player_id)} ${p.emotional_intent.emotion}` : '';
  const frame = p.deception_frame ? ` (framed as “${p.deception_frame}”)` : '';
  return `${p.tactical_intent.replace(/_/g, ' ')}${aim}${frame}`;
}

/**
 * What a seat believed at one seq, row by row beside the truth at the same seq: for each other
 * seat, its read of their tell against their strongest real emotion, and the plan revealed to it
 * against their current secret plan; then the hands (its own, and how many the others hold against
 * which cards), each card it saw face down against the card; then its
 * memory (which has no truth to hold it to). `belief` is the seat's own projection, `truth` an
 * all-seeing one (admin, or researcher after the end), both after `seq`.
 *
 * @example alignMinds(seatView, adminView, 'plr_2', names, 120).rows.filter((r) => r.status === 'differs')
 */
export function alignMinds(belief: StateView, truth: StateView, seat: string, names: Names, seq: number): Minds {
  const name = (id: string) => names.get(id) ?? truth.world.players.find((p) => p.player_id === id)?.display_name ?? id;
  const own = belief.private.find((p) => p.player_id === seat);
  const rows: MindRow[] = [];
  for (const other of truth.private) {
    if (other.player_id === seat) continue;
    const who = name(other.player_id);
    const alive = truth.world.players.find((p) => p.player_id === other.player_id)?.alive ?? true;
    if (!alive) continue;
    const tell = own?.belief_state.tells[other.player_id];
    const real = dominantEmotion(other.emotion_state);
    const realText = real ? `${who} feels most ${real} (${other.emotion_state[real].toFixed(2)})` : `${who} feels nothing strongly`;
    if (!tell || tell.masked || tell.dominant === null)
      rows.push({ about: who, topic: 'feeling', believed: tell?.masked ? `${who}'s face is masked` : `${who} shows nothing yet`, truth: realText, status: 'unknown' });
    else rows.push({ about: who, topic: 'feeling', believed: `${who} looks ${tell.dominant}`, truth: realText, status: tell.dominant === real ? 'same' : 'differs' });

    const revealed = own?.belief_state.revealed_plans[other.player_id];
    const plan = other.secret_plan;
    if (revealed) rows.push({ about: who, topic: 'plan', believed: `${who} plans to ${planText(revealed, name)}`, truth: `${who} plans to ${planText(plan, name)}`, status: plan && canonicalJson(plan) === canonicalJson(revealed) ? 'same' : 'differs' });
    else if (plan) rows.push({ about: who, topic: 'plan', believed: `${who}'s plan is secret to it`, truth: `${who} plans to ${planText(plan, name)}`, status: 'unknown' });
  }
  const cards = (xs: readonly { name: string }[]) => xs.map((c) => c.name).join(', ') || 'nothing';
  if (own) {
    const real = truth.private.find((p) => p.player_id === seat);
    rows.push({ about: name(seat), topic: 'hand', believed: `${name(seat)} holds ${cards(own.hand)}`, truth: `${name(seat)} holds ${cards(real?.hand ?? [])}`, status: canonicalJson(own.hand) === canonicalJson(real?.hand ?? []) ? 'same' : 'differs' });
  }
  for (const other of truth.private) {
    const seen = belief.world.players.find((p) => p.player_id === other.player_id);
    if (other.player_id === seat || !seen?.alive) continue;
    const who = name(other.player_id);
    rows.push({ about: who, topic: 'hand', believed: `${who} holds ${seen.hand_count} card${seen.hand_count === 1 ? '' : 's'}`, truth: `${who} holds ${cards(other.hand)}`, status: 'unknown' });
  }
  // The arena in both views lists the same cards in the same order; only their faces differ.
  belief.world.arena.cards.forEach((c, i) => {
    const real = truth.world.arena.cards[i];
    if (!real || !c.face_down) return;
    const owner = name(c.owner_player_id);
    const seen = c.card.card_id !== 'card_hidden';
    rows.push({ about: owner, topic: 'card', believed: seen ? `${owner}'s face-down ${c.card.name}` : `${owner} has a face-down card`, truth: `${owner}'s face-down ${real.card.name}`, status: seen ? (c.card.name === real.card.name ? 'same' : 'differs') : 'unknown' });
  });
  const notes = own?.memory_state.notes ?? [];
  if (notes.length) rows.push({ about: name(seat), topic: 'memory', believed: notes.join(' · '), truth: '—', status: 'unknown' });
  return { seat, seq, rows, differ: rows.filter((r) => r.status === 'differs').length };
}
