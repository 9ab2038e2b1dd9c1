import type { EmotionVector, EventPayload, EventType, GameEvent, GameEventOf, Tell } from '../protocol/index.js';
import { attackPlanWords, contestWords, deltaWords, effectClauses, feelingChanges, intentPhrase, manipulationPlan, secretPlanWords, vectorWords } from './narrate-effects.js';
import { list, say, signed, words, type Names } from './narrate-words.js';

export type LineKind =
  | 'setup'
  | 'order'
  | 'plan'
  | 'speech'
  | 'action'
  | 'reaction'
  | 'rejection'
  | 'resolution'
  | 'card'
  | 'ledger'
  | 'prediction'
  | 'emotion'
  | 'exposure'
  | 'life'
  | 'elimination'
  | 'end';

/** One sentence about one event, before it is placed in the game (seq, round, phase). */
export type Said = { kind: LineKind; text: string; seats: string[]; details: string[] };

/** What the narrator remembers between events: names, each seat's last known feelings and tell, plans already told. */
export type Memory = {
  n: Names;
  emotions: Map<string, EmotionVector>;
  tells: Map<string, string>;
  /** action_id → card name, from the play (a face-down card is named at resolve only to its owner). */
  actionCards: Map<string, string>;
  /** seat → round whose secret plan this view already narrated. */
  plansTold: Map<string, number>;
  /** Seats a person plays (NarrateOptions.humans): a missing answer of theirs is a clock that ran out. */
  humans: ReadonlySet<string>;
};

/**
 * How the engine's zod check words a decision that is not there. A seat the view may see the
 * rejection of (its own; every seat for admins) shows it in `message`; others see no message.
 */
const NO_INPUT = 'received undefined';

/** Whether a rejection is a person's missing answer: their clock ran out (a human seat answers nothing else). */
const timedOut = (m: Memory, playerId: string, message: string | undefined): boolean => m.humans.has(playerId) && message?.includes(NO_INPUT) === true;

type Handler<T extends EventType> = (p: EventPayload<T>, e: GameEventOf<T>, m: Memory) => Said[];
type Handlers = { [T in EventType]?: Handler<T> };

const line = (kind: LineKind, text: string, seats: readonly (string | null | undefined)[] = [], details: string[] = []): Said[] => [
  { kind, text, seats: [...new Set(seats.filter((s): s is string => typeof s === 'string'))], details },
];

const notes = (xs: readonly string[] | undefined, n: Names): string[] => (xs?.length ? [`Notes: ${xs.map(n.note).join('; ')}.`] : []);

/** Sentence case: the first letter up (names stay as the seat chose them otherwise). */
const cap = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

const SETTLED: Record<string, (s: string, t: string, kind: string) => string> = {
  broken: (s, t, k) => `${s} broke a ${k} to ${t}`,
  kept: (s, t, k) => `${s} kept a ${k} to ${t}`,
  credible: (s, t) => `${s}'s threat against ${t} was carried out`,
  empty: (s, t) => `${s}'s threat against ${t} was empty`,
  came_true: (s, t) => `${s}'s warning about ${t} came true`,
  expired: (s, t) => `${s}'s warning about ${t} expired`,
  called: (s) => `${s}'s bluff was called`,
  uncalled: (s) => `${s}'s bluff went uncalled`,
};

const SPEECH_VERB: Record<string, string> = { threat: 'threatens', promise: 'promises', bluff: 'bluffs at', warning: 'warns', concession: 'concedes to', taunt: 'taunts', neutral: 'tells' };
const SHIFT: Record<string, string> = { defensive: 'turn defensive', retaliate: 'retaliate', lash_out: 'lash out', reckless: 'turn reckless', withdrawn: 'withdraw' };
const END_REASON: Record<string, string> = { last_seat_standing: 'one seat left standing', all_eliminated: 'every seat eliminated', round_cap: 'the round limit reached' };

export const handlers: Handlers = {
  game_started(p, _e, m) {
    m.n.learnCardMap(p.cards);
    for (const s of p.players) {
      m.n.nameSeat(s.player_id, s.display_name);
      m.emotions.set(s.player_id, s.baseline);
    }
    const names = p.players.map((s) => m.n.seat(s.player_id));
    const windows = p.rules?.['windows'] === 'compact' ? ', compact windows' : '';
    const seed = typeof p.seed === 'number' ? say`, seed ${p.seed}` : '';
    return line(
      'setup',
      say`${list(names)} take their seats: ${p.players.length} seats, a deck of ${p.deck_count} cards, rules ${p.rules_version}${windows}${seed}.`,
      p.players.map((s) => s.player_id),
      [...p.players.map((s) => say`${m.n.seat(s.player_id)} (seat ${s.seat + 1}) starts at ${vectorWords(s.baseline)}.`), say`Base order: ${list(p.base_order.map(m.n.seat))}.`],
    );
  },
  upkeep_applied(p, _e, { n }) {
    const parts = [say`Turn order: ${list(p.initiative_order.map(n.seat))}`];
    if (p.locked_out.length) parts.push(say`${list(p.locked_out.map(n.seat))} ${p.locked_out.length > 1 ? 'are' : 'is'} locked out`);
    for (const [a, b] of Object.entries(p.forced_lines)) parts.push(say`${n.seat(a)} must attack ${n.seat(b)}`);
    const drift = effectClauses({ resolve_delta: p.resolve_delta }, n);
    if (drift.length) parts.push(`resolve drifts: ${drift.join(', ')}`);
    return line('order', `${parts.join('; ')}.`, [...p.initiative_order, ...p.locked_out]);
  },
  ritual_fired(p, _e, { n }) {
    const fx = effectClauses(p.tactical_effect, n);
    return line('card', say`${n.seat(p.owner_player_id)}'s ritual ${p.card.name} fires: ${fx.length ? fx.join('; ') : 'no visible effect'}.`, [p.owner_player_id], notes(p.rules_notes, n));
  },
  deck_reshuffled: (p) => line('card', say`The discard pile (${p.count} cards) is shuffled into a new deck.`),
  hidden_reseeded: (p) => line('card', say`The game branches here: the ${p.count} undrawn cards are shuffled again, so the draws from now on are new.`),
  cards_discarded: (p, _e, { n }) => line('card', say`${n.seat(p.player_id)} discards ${list(p.cards.map((c) => c.name), 'nothing')} (over the hand limit).`, [p.player_id]),
  cards_drawn(p, _e, { n }) {
    n.learnCards(p.card_refs);
    return [];
  },
  secret_plan_committed(p, e, m) {
    const who = m.n.seat(p.player_id);
    if (!p.plan) return line('plan', say`${who} commits a secret plan.`, [p.player_id]);
    m.plansTold.set(p.player_id, e.turn);
    const frame = p.plan.deception_frame ? say` Cover story: “${m.n.quote(p.plan.deception_frame)}”.` : '';
    const late = timedOut(m, p.player_id, p.rejection?.message);
    const fallback = late ? say` (${who} took too long; the default was taken)` : p.defaulted ? ' (a default plan: no valid answer)' : '';
    const rejected = p.rejection && !late ? [say`Rejected answer: ${m.n.note(p.rejection.code)} — ${m.n.note(p.rejection.message)}.`] : [];
    const target = p.plan.emotional_intent?.target_player_id;
    return line('plan', say`${who} secretly plans ${secretPlanWords(p.plan, m.n)}${fallback}.${frame}`, [p.player_id, target], rejected);
  },
  plans_revealed(p, e, m) {
    const fresh = Object.entries(p.plans).filter(([id]) => m.plansTold.get(id) !== e.turn);
    if (fresh.length === 0) return [];
    const told = fresh.map(([id, plan]) => say`${m.n.seat(id)} planned ${secretPlanWords(plan, m.n)}`);
    return line('plan', `Plans revealed: ${told.join('; ')}.`, fresh.map(([id]) => id));
  },
  speech_posted(p, _e, { n }) {
    const who = n.seat(p.player_id);
    const to = p.target_player_id ? n.seat(p.target_player_id) : null;
    const act = p.speech_act ? (SPEECH_VERB[p.speech_act] ?? 'tells') : null;
    const quote = typeof p.text === 'string' ? say`: “${n.quote(p.text)}”` : '';
    const seats = [p.player_id, p.target_player_id];
    if (p.channel === 'private') {
      if (typeof p.text !== 'string') return line('speech', say`${who} sends ${to ?? 'someone'} a private message.`, seats);
      return line('speech', act && to ? say`${who} privately ${act} ${to}${quote}` : say`${who} whispers to ${to ?? 'someone'}${quote}`, seats);
    }
    if (act && act !== 'tells' && to) return line('speech', say`${who} ${act} ${to} in public${quote}`, seats);
    if (act === 'bluffs at') return line('speech', say`${who} bluffs${quote}`, seats);
    return line('speech', to ? say`${who}, to ${to}${quote}` : say`${who} says${quote}`, seats);
  },
  talk_finished: (p, _e, { n }) => (p.forced ? line('rejection', say`${n.seat(p.player_id)} is silenced: the talk answer was rejected.`, [p.player_id]) : []),
  action_submitted(p, _e, { n, actionCards }) {
    const who = n.seat(p.player_id);
    if (p.kind === 'pass') return line('action', say`${who} passes${p.forced ? ' (forced)' : ''}.`, [p.player_id], p.forced ? notes(p.rules_notes, n) : []);
    n.learnCards(p.card ? [p.card] : []);
    const name = p.card?.name ?? (p.action?.payload.card_id ? n.card(p.action.payload.card_id) : null);
    if (name) actionCards.set(p.action_id, name);
    const target = p.target_player_id ? say` on ${n.seat(p.target_player_id)}` : '';
    const what =
      p.kind === 'activate' ? say`activates ${name ?? 'a card in the arena'}` : p.card ? say`plays ${p.card.name}` : name ? say`plays ${name} face down` : 'plays a card face down';
    const details = [...(p.attack_plan ? [attackPlanWords(p.attack_plan, n)] : []), ...notes(p.rules_notes, n)];
    return line('action', say`${who} ${what}${target} (${p.tempo_paid} tempo).`, [p.player_id, p.target_player_id], details);
  },
  action_rejected(p, _e, m) {
    const { n } = m;
    if (timedOut(m, p.player_id, p.message)) return line('rejection', say`${n.seat(p.player_id)} took too long to answer (${p.window}); ${p.reprompt ? 'asked again' : 'the default was taken'}.`, [p.player_id]);
    const why = p.code ? say`: ${n.note(p.code)}${p.message ? say` — ${n.note(p.message)}` : ''}` : '';
    return line('rejection', say`${n.seat(p.player_id)}'s ${p.window} answer is rejected (attempt ${p.attempt})${why}${p.reprompt ? '; asked again' : ''}.`, [p.player_id]);
  },
  reaction_submitted(p, _e, { n }) {
    n.learnCards(p.card ? [p.card] : []);
    return line('reaction', p.card ? say`${n.seat(p.player_id)} reacts with ${p.card.name}.` : say`${n.seat(p.player_id)} does not react.`, [p.player_id]);
  },
  action_resolved(p, _e, { n, actionCards }) {
    n.learnCards(p.card ? [p.card] : []);
    const who = n.seat(p.actor_player_id);
    const card = p.card?.name ?? actionCards.get(p.action_id) ?? (p.kind === 'activate' ? 'activated card' : 'face-down card');
    const targets = (p.target_player_ids ?? []).map(n.seat);
    if (p.fizzled) return line('resolution', say`${who}'s ${card} fizzles: it left the arena before it could resolve.`, [p.actor_player_id], notes(p.rules_notes, n));
    const fx = effectClauses(p.tactical_effect, n);
    const entered = (p.tactical_effect?.card_moves ?? []).some((x) => x.to.startsWith('arena:'));
    const head = targets.length ? say`${who}'s ${card} hits ${list(targets)}` : say`${who}'s ${card} resolves`;
    const body = fx.length ? `: ${fx.join('; ')}` : entered || (p.kind === 'play_card' && !p.card) ? ' and lies in the arena' : targets.length ? ' with no visible effect' : '';
    const sentences = [`${head}${body}.`];
    if (p.slipped) sentences.push(say`${who} slips: the effect is halved.`);
    const plan = p.attack_plan;
    if (plan && p.manipulation_outcome) {
      const target = n.seat(plan.target_player_id);

      const felt = deltaWords(p.affective_effect?.emotion_delta[plan.target_player_id]);
      const channel = plan.delivery_channel === 'mixed' ? 'half in public' : `in ${plan.delivery_channel}`;
      sentences.push(
        say`${who} tries to ${intentPhrase(plan.emotional_intent, target)} by ${manipulationPlan(plan.manipulation_plan)} (${channel}): ${contestWords(p.manipulation_outcome, p.manipulation?.margin)}` +
          (felt ? say`; ${target} will feel ${felt}.` : '.'),
      );
    }
    const details = [...notes(p.rules_notes, n)];
    if (p.prediction) details.push(say`Predicts ${n.seat(plan?.target_player_id ?? p.target_player_ids[0])} will ${SHIFT[p.prediction.predicted] ?? words(p.prediction.predicted)} in rounds ${p.prediction.from_turn}–${p.prediction.to_turn}.`);
    return line('resolution', sentences.join(' '), [p.actor_player_id, ...(p.target_player_ids ?? [])], details);
  },
  ledger_settled(p, e, { n }) {
    const settled = (p.settlements ?? e.own?.settlements ?? []).map((s) =>
      (SETTLED[s.outcome] ?? ((a: string) => `${a}'s ${s.kind} settled`))(n.seat(s.speaker_player_id), s.target_player_id ? n.seat(s.target_player_id) : 'anyone', s.kind),
    );
    const fx = effectClauses(p.tactical_effect, n);
    if (settled.length === 0 && fx.length === 0) return [];
    const seats = [...(p.settlements ?? e.own?.settlements ?? []).flatMap((s) => [s.speaker_player_id, s.target_player_id]), ...Object.keys(p.tactical_effect?.exposure_delta ?? {}), ...Object.keys(p.tactical_effect?.tempo_delta ?? {})];
    const text = settled.length ? `The ledger settles: ${settled.join('; ')}${fx.length ? ` (${fx.join('; ')})` : ''}.` : `The ledger settles: ${fx.join('; ')}.`;
    return line('ledger', text, seats);
  },
  prediction_scored(p, _e, { n }) {
    const seen = list(p.observed.map(words), 'nothing');
    const tempo = p.tempo_delta ? say`; ${n.seat(p.predictor_player_id)} ${signed(p.tempo_delta)} tempo` : '';
    return line('prediction', say`${n.seat(p.predictor_player_id)}'s read of ${n.seat(p.target_player_id)} as “${words(p.predicted)}” was ${p.correct ? 'right' : 'wrong'} (seen: ${seen})${tempo}.`, [p.predictor_player_id, p.target_player_id]);
  },
  emotion_updated(p, _e, m) {
    const who = m.n.seat(p.player_id);
    const shows = tellWords(p.tell);
    const lastTell = m.tells.get(p.player_id) ?? 'nothing';
    m.tells.set(p.player_id, shows);
    const after = p.reason === 'life_lost' ? ' after losing a life' : '';
    const tellNow = shows === lastTell ? '' : say`; the table now reads ${shows}`;
    if (p.emotions) {
      const changes = feelingChanges(p.emotions, m.emotions.get(p.player_id));
      m.emotions.set(p.player_id, p.emotions);
      if (!changes && !tellNow) return [];
      return line('emotion', say`${who} now feels ${changes || 'the same'}${after}${tellNow}.`, [p.player_id]);
    }
    // This view sees only the tell: say so when it changed.
    if (shows === lastTell) return [];
    return line('emotion', say`${who}'s tell now reads ${shows}${after}.`, [p.player_id]);
  },
  exposure_updated(p, _e, { n }) {
    const fx = effectClauses({ exposure_delta: p.exposure_delta }, n);
    return fx.length ? line('exposure', `Exposure fades: ${fx.join('; ')}.`, Object.keys(p.exposure_delta), notes(p.rules_notes, n)) : [];
  },
  life_lost(p, _e, { n }) {
    const who = n.seat(p.player_id);
    const gone = p.discarded?.length ? [say`Discards ${list(p.discarded.map((c) => c.name))}.`] : [];
    return line('life', p.lives_left > 0 ? say`${who} loses a life: ${p.lives_left} left, resolve back to ${p.resolve_after}.` : say`${who} loses their last life.`, [p.player_id], gone);
  },
  player_eliminated: (p, _e, { n }) => line('elimination', say`${n.seat(p.player_id)} is eliminated.`, [p.player_id], p.discarded?.length ? [say`Their arena is discarded: ${list(p.discarded.map((c) => c.name))}.`] : []),
  game_ended(p, _e, { n }) {
    const order = [...p.placements].sort((a, b) => a.placement - b.placement);
    const standing = order.map((x) => say`${ordinal(x.placement)} ${n.seat(x.player_id)} (${x.alive ? say`${x.lives} ${x.lives === 1 ? 'life' : 'lives'}, ${x.resolve} resolve` : x.eliminated_turn !== null ? say`out in round ${x.eliminated_turn}` : 'out'})`);
    const winner = order[0] ? say`${n.seat(order[0].player_id)} wins. ` : '';
    return line('end', say`Game over after ${p.rounds} rounds, ${END_REASON[p.reason] ?? words(p.reason)}. ${winner}${standing.join(', ')}.`, order.map((x) => x.player_id));
  },
};

function tellWords(t: Tell | undefined): string {
  if (!t) return 'nothing';
  if (t.masked) return 'a mask';
  return t.dominant ? t.dominant : 'nothing';
}

const ordinal = (k: number): string => `${k}${k % 10 === 1 && k % 100 !== 11 ? 'st' : k % 10 === 2 && k % 100 !== 12 ? 'nd' : k % 10 === 3 && k % 100 !== 13 ? 'rd' : 'th'}`;

/** A plain line for an event whose fields this view lacks (a projection the narrator does not know). */
export function fallback(e: GameEvent, n: Names): Said[] {
  const p = (e.payload ?? {}) as Record<string, unknown>;
  const seat = [p['player_id'], p['actor_player_id'], p['owner_player_id']].find((x): x is string => typeof x === 'string');
  const what = typeof e.type === 'string' ? words(e.type) : 'something happens';
  return line('action', seat ? `${n.seat(seat)}: ${what} (details hidden from this view).` : `${cap(what)} (details hidden from this view).`, seat ? [seat] : []);
}
