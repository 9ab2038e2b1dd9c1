#!/usr/bin/env node
// node-example: "the quiet sniper", a Tiltyard agent in one plain Node.js ESM file (no npm packages).
//
// stdin : one JSON line {"requestId","tool","operation","input":<TurnPlanRequest>,"config","workDir"}
// stdout: NDJSON tool-protocol events: log, one state_patch {"decision", "memory"}, done.
//
// It plays quietly and cold: no public threats. It sends private lines that turn its target against
// a third seat (betrayal cues) and delivers privately where the card allows (x1.25 on the target).
// It goes for the seat whose next life is cheapest to take, watches its own exposure closely, and
// learns each opponent's habits to write behaviour-shift reads that score (a correct read is +1 tempo).
// Deterministic: randomness is a SHA-256 stream over the game id, request id, seat, window and memory.

import { createHash } from 'node:crypto';

const DAMAGE = { Feint: 2, Overreach: 4, Sever: 1, Strip: 1, Needle: 1, Humiliate: 1, Whisper: 0 };
const AFFECT = { Feint: 0.2, Overreach: 0.3, Sever: 0.2, Strip: 0.25, Needle: 0.35, Humiliate: 0.4, Whisper: 0.45 };
const DISCARD = { Strip: 2, Overreach: 1 };
const MEMORY_VERSION = 1;

const out = (ev) => process.stdout.write(JSON.stringify({ version: '0', ...ev }) + '\n');

function rngFrom(seed) {
  let n = 0;
  const next = () => {
    n += 1;
    const h = createHash('sha256').update(`${seed}#${n}`).digest();
    return h.readUIntBE(0, 6) / 2 ** 48;
  };
  return {
    next,
    chance: (p) => next() < p,
    pick: (xs) => (xs.length ? xs[Math.floor(next() * xs.length) % xs.length] : null),
  };
}

const num = (x, d = 0) => (typeof x === 'number' && Number.isFinite(x) ? x : d);
const clamp = (x, lo, hi) => Math.max(lo, Math.min(hi, x));

// ---------------------------------------------------------------------------------------------

function viewOf(msg, memIn) {
  const r = msg.input;
  const w = r.public_world_view ?? {};
  const players = w.players ?? [];
  const me = players.find((p) => p.player_id === r.player_id) ?? { player_id: r.player_id, resolve: 12, tempo: 0, exposure: 0, lives: 3, hand_count: 0 };
  const opps = players.filter((p) => p.alive && p.player_id !== r.player_id);
  const seed = ['node-example', r.game_id, r.request_id, r.player_id, r.window, JSON.stringify(memIn)].join('|');
  return {
    r,
    id: r.player_id,
    turn: r.turn,
    c: r.constraints ?? {},
    priv: r.player_private_view ?? {},
    emo: r.player_private_view?.emotion_state ?? {},
    hand: r.player_private_view?.hand ?? [],
    legal: r.legal_actions ?? [],
    players,
    me,
    opps,
    byId: Object.fromEntries(players.map((p) => [p.player_id, p])),
    arena: w.arena?.cards ?? [],
    stack: w.stack ?? [],
    speech: w.round_speech ?? [],
    rng: rngFrom(seed),
  };
}

const nameOf = (v, id) => v.byId[id]?.display_name ?? id;
const standing = (p) => num(p.lives) * 12 + Math.max(0, num(p.resolve));
const faceDown = (v, owner) => v.arena.filter((a) => a.owner_player_id === owner && a.face_down).length;
const ownArena = (v, name) => v.arena.filter((a) => a.owner_player_id === v.id && (!name || a.card?.name === name)).length;
const ownTraps = (v) => v.arena.filter((a) => a.owner_player_id === v.id && a.card?.type === 'trap').length;
function tell(v, id, k) {
  const t = v.byId[id]?.tell ?? {};
  if (t.vector) return num(t.vector[k]);
  if (t.dominant === k) return ['dominance', 'valence', 'confidence'].includes(k) ? null : 0.5;
  return t.dominant ? 0 : null;
}

// ---------------------------------------------------------------------------------------------
// memory

function loadMemory(raw) {
  const m = {
    v: MEMORY_VERSION,
    turn: -1,
    profile: {}, // seat -> {onMe, onOthers, defensive, passive} (decayed): its habits as we saw them
    seen: [], // action ids counted this round
    acted: {}, // seat -> the last round we saw it act (a round number, not a flag: memory is deep-merged, so a reset {} would not clear it)
    concessions: {}, // seat -> last round our concession protects it (we keep our word)
    plan: null, // {turn, target, emotion, named}
    talked: -1,
    kineticPrev: [],
    kineticNow: [],
    reads: 0,
    reflections: 0,
    lastResolve: null, // our resolve at the last reflect
    hurtBy: {}, // seat -> times it attacked us (decayed)
  };
  if (raw && typeof raw === 'object' && raw.v === MEMORY_VERSION) {
    for (const k of Object.keys(m)) if (raw[k] !== undefined && raw[k] !== null) m[k] = raw[k];
  }
  for (const k of ['profile', 'acted', 'concessions', 'hurtBy']) if (typeof m[k] !== 'object' || Array.isArray(m[k]) || !m[k]) m[k] = {};
  for (const k of ['seen', 'kineticPrev', 'kineticNow']) if (!Array.isArray(m[k])) m[k] = [];
  return m;
}

const prof = (m, id) => (m.profile[id] ??= { onMe: 0, onOthers: 0, defensive: 0, passive: 0 });

function rollRound(v, m) {
  if (m.turn === v.turn) return;
  // Seats we never saw act last round count as passive.
  if (m.turn >= 0) for (const o of v.opps) if (num(m.acted[o.player_id], -9) !== m.turn) prof(m, o.player_id).passive += 1;
  for (const p of Object.values(m.profile)) for (const k of Object.keys(p)) p[k] = Math.round(num(p[k]) * 0.75 * 1000) / 1000;
  for (const k of Object.keys(m.hurtBy)) m.hurtBy[k] = Math.round(num(m.hurtBy[k]) * 0.7 * 1000) / 1000;
  m.kineticPrev = m.turn === v.turn - 1 ? m.kineticNow : [];
  m.kineticNow = [];
  m.seen = [];
  m.turn = v.turn;
}

function observe(v, m) {
  for (const e of v.stack) {
    if (!e.action_id || m.seen.includes(e.action_id) || e.player_id === v.id) continue;
    m.seen.push(e.action_id);
    m.acted[e.player_id] = v.turn;
    const p = prof(m, e.player_id);
    if (e.target_player_id === v.id) {
      p.onMe += 1;
      m.hurtBy[e.player_id] = num(m.hurtBy[e.player_id]) + 1;
    } else if (e.target_player_id) p.onOthers += 1;
    else p.defensive += 1;
  }
  const inc = v.c.incoming_attack;
  if (inc && inc.action_id && !m.seen.includes(inc.action_id)) {
    m.seen.push(inc.action_id);
    m.acted[inc.attacker_player_id] = v.turn;
    prof(m, inc.attacker_player_id).onMe += 1;
    m.hurtBy[inc.attacker_player_id] = num(m.hurtBy[inc.attacker_player_id]) + 1;
  }
}

/** The read most likely to score against this seat, from its habits and its tell. */
function readOf(v, m, t, emotion) {
  const p = prof(m, t.player_id);
  const fear = tell(v, t.player_id, 'fear') ?? 0;
  const tilt = tell(v, t.player_id, 'tilt') ?? 0;
  if (tilt >= 0.35 || (t.exposure >= 4 && p.onMe + p.onOthers > 1)) return 'reckless';
  if (fear >= 0.4) return 'defensive';
  // We are about to hit it: a seat that has hit us before will hit back.
  if (p.onMe >= 0.6) return 'retaliate';
  if (p.onOthers >= 1) return 'lash_out';
  if (p.passive >= 1.2 && p.onOthers + p.onMe < 0.3) return 'withdrawn';
  if (p.defensive >= 1) return 'defensive';
  return emotion === 'tilt' ? 'reckless' : emotion === 'fear' ? 'defensive' : 'retaliate';
}

// ---------------------------------------------------------------------------------------------
// targeting: the cheapest life on the table

const isProtected = (v, m, id) => num(m.concessions[id], -9) >= v.turn;

function killScore(v, m, p) {
  const res = num(p.resolve, 12);
  const amp = 1 + 0.1 * num(p.exposure);
  let s = (12 - res) * 0.35 * amp + 0.2 * num(p.exposure);
  if (res <= 4) s += 1.5;
  if (num(p.lives) === 1) s += 1; // elimination moves us up a place for good
  s += 0.6 * num(m.hurtBy[p.player_id]);
  s -= 0.35 * faceDown(v, p.player_id);
  if (v.arena.some((a) => a.owner_player_id === p.player_id && a.card?.name === 'Poker Face')) s -= 0.3;
  return s + v.rng.next() * 0.15;
}

function leaderOf(v) {
  let best = null;
  for (const o of v.opps) if (!best || standing(o) > standing(best) || (standing(o) === standing(best) && o.player_id < best.player_id)) best = o;
  return best;
}

function strongestThird(v, target) {
  let best = null;
  for (const o of v.opps) if (o.player_id !== target && (!best || standing(o) > standing(best))) best = o;
  return best?.player_id ?? null;
}

function planRound(v, m) {
  const alive = new Set(v.opps.map((o) => o.player_id));
  if (m.plan && m.plan.turn === v.turn && (!m.plan.target || alive.has(m.plan.target))) return m.plan;
  const forced = v.c.forced_target;
  const pool = v.opps.filter((o) => (forced ? o.player_id === forced : !isProtected(v, m, o.player_id)));
  pool.sort((a, b) => killScore(v, m, b) - killScore(v, m, a) || (a.player_id < b.player_id ? -1 : 1));
  const target = pool[0]?.player_id ?? null;
  let emotion = 'paranoia';
  if (target) {
    const fear = tell(v, target, 'fear') ?? 0;
    const tilt = tell(v, target, 'tilt') ?? 0;
    emotion = fear > 0.3 ? 'fear' : tilt > 0.3 ? 'tilt' : v.opps.length >= 3 ? v.rng.pick(['paranoia', 'tilt', 'paranoia', 'shame']) : v.rng.pick(['tilt', 'shame']);
  }
  m.plan = { turn: v.turn, target, emotion, named: target ? strongestThird(v, target) : null };
  return m.plan;
}

function secretPlan(v, m, plan) {
  // emotional_intent is required and nullable; a runtime that drops nulls while merging patches
  // would lose a null, so name a seat whenever one is alive (the target, else the first opponent).
  const who = plan.target ?? v.opps[0]?.player_id ?? null;
  const gambit = v.hand.find((c) => c.type === 'gambit');
  const tactical = !plan.target ? 'build' : gambit ? (gambit.name === 'Strip' ? 'lockout' : gambit.name === 'Sever' ? 'combo_break' : 'tempo_swing') : v.hand.some((c) => c.type === 'pressure') ? 'forced_line' : 'build';
  return {
    tactical_intent: tactical,
    emotional_intent: who ? { emotion: plan.emotion, target_player_id: who } : null,
  };
}

// ---------------------------------------------------------------------------------------------
// talk: quiet, private, one kept concession

function talk(v, m, plan) {
  const said = [];
  const t = plan.target;
  if (t && plan.named && v.opps.length >= 2) {
    // The betrayal cue: a private line to the target naming a third seat. Honest ("warning") when that
    // seat really went after the target; otherwise it is spin, and labelled neutral.
    const hostile = v.stack.some((e) => e.player_id === plan.named && e.target_player_id === t) ||
      v.priv.belief_state?.revealed_plans?.[plan.named]?.emotional_intent?.target_player_id === t;
    said.push({
      channel: 'private',
      target_player_id: t,
      text: v.rng.pick([
        `${nameOf(v, t)}, a quiet word: ${nameOf(v, plan.named)} has been counting your resolve.`,
        `Between us, ${nameOf(v, t)}: I would not turn my back on ${nameOf(v, plan.named)}.`,
        `${nameOf(v, t)}, ${nameOf(v, plan.named)} asked me to go after you. I said no. For now.`,
      ]),
      speech_act: hostile ? 'warning' : 'neutral',
    });
  }
  // A public concession to the leader when it is not our target: it buys peace, and we keep it.
  const leader = leaderOf(v);
  if (leader && leader.player_id !== t && v.opps.length >= 3 && !v.c.forced_target && v.rng.chance(0.5)) {
    said.push({
      channel: 'public',
      target_player_id: leader.player_id,
      text: `${nameOf(v, leader.player_id)} is playing the best game here. I am not picking that fight.`,
      speech_act: 'concession',
    });
    m.concessions[leader.player_id] = v.turn + 1;
  }
  // Now and then a false modesty while holding attacks: a bluff, and labelled as one.
  if (v.hand.some((c) => c.type === 'gambit' || c.type === 'pressure') && v.rng.chance(0.12)) {
    said.push({ channel: 'public', target_player_id: null, text: 'Nothing in my hand but paperwork. I am sitting this one out.', speech_act: 'bluff' });
  }
  return said;
}

// ---------------------------------------------------------------------------------------------
// action

function saidTo(v, target, extra, test) {
  return [...v.speech, ...extra].some((s) => (s.player_id ?? v.id) === v.id && s.target_player_id === target && test(s));
}

function namesThird(v, target, text) {
  const low = (text ?? '').toLowerCase();
  return v.opps.some((o) => o.player_id !== target && (low.includes(o.player_id.toLowerCase()) || low.includes(String(o.display_name ?? '\u0000').toLowerCase())));
}

function planFor(v, target, channels, extra) {
  const priv = channels.includes('private') ? 'private' : channels.includes('mixed') ? 'mixed' : channels[0];
  if (saidTo(v, target, extra, (s) => s.channel === 'private' && namesThird(v, target, s.text))) return { plan: 'betrayal_cue', channel: priv, holds: true };
  if (ownTraps(v) > 0) return { plan: 'bait', channel: priv, holds: true };
  if (saidTo(v, target, extra, (s) => s.speech_act === 'threat')) return { plan: 'threat_framing', channel: priv, holds: true };
  const dom = tell(v, target, 'dominance');
  const pub = channels.find((c) => c === 'mixed' || c === 'public');
  if (pub && dom !== null && dom > 0.05) return { plan: 'status_challenge', channel: pub, holds: true };
  return { plan: 'betrayal_cue', channel: priv, holds: false };
}

function kineticFor(v, m, legal, t, applies, discard) {
  const ks = legal.kinetic_intents ?? [];
  const fresh = ks.filter((k) => !m.kineticPrev.includes(k) && !m.kineticNow.includes(k));
  if (!applies) return { k: fresh[0] ?? ks[0], value: fresh.length ? 0 : -0.6 };
  let best = ks[0];
  let top = -Infinity;
  for (const k of ks) {
    let val = 0;
    if (k === 'tempo_swing') val = Math.min(2, num(t.tempo)) * 0.6;
    else if (k === 'lockout') val = t.locked_out ? 0.3 : 1.0;
    else if (k === 'discard_pressure') val = 0.45 * Math.min(num(t.hand_count), discard);
    else if (k === 'forced_line') val = ownTraps(v) ? 1.2 : 0.2;
    else if (k === 'combo_break') {
      const cards = v.arena.filter((a) => a.owner_player_id === t.player_id);
      val = cards.some((a) => a.card?.type === 'ritual') ? 3 : cards.length ? 1 : -1;
    }
    if (m.kineticPrev.includes(k)) val -= 0.8;
    if (val > top) {
      top = val;
      best = k;
    }
  }
  return { k: best, value: top };
}

function evalAttack(v, m, plan, legal, t, extra) {
  const spring = legal.kind === 'activate';
  const damage = spring ? 1 : DAMAGE[legal.name] ?? 1;
  const affect = spring ? 0.2 : AFFECT[legal.name] ?? 0.2;
  let named = null;
  if (legal.needs_named_player) {
    named = plan.named && plan.named !== t.player_id ? plan.named : strongestThird(v, t.player_id);
    if (!named || named === t.player_id || !v.opps.some((o) => o.player_id === named)) return null;
  }
  const pc = planFor(v, t.player_id, legal.channels ?? ['public'], extra);
  const aligned = plan.target === t.player_id;
  const emotion = aligned ? plan.emotion : 'tilt';
  const amp = 1 + 0.1 * num(t.exposure);
  const raw = damage * amp;
  let value = raw * 0.85;
  if (num(t.resolve) > 0 && num(t.resolve) <= Math.round(raw)) value += 3; // the kill
  const power = affect + (pc.holds ? 0.15 : -0.1) + (aligned ? 0.1 : 0) + 0.05 * num(t.exposure) + 0.1 * Math.max(0, num(v.emo.confidence));
  const margin = power - 0.47;
  const pSuccess = clamp((margin - 0.1 + 0.15) / 0.3, 0, 1);
  const pFail = 1 - clamp((margin + 0.15) / 0.3, 0, 1);
  value += affect * 3.5 * (pSuccess + 0.5 * (1 - pSuccess - pFail)) * (pc.channel === 'private' ? 1.25 : 1) - pFail;
  const kin = kineticFor(v, m, legal, t, spring || legal.type === 'gambit', DISCARD[legal.name] ?? 1);
  value += kin.value;
  const fd = faceDown(v, t.player_id);
  if (fd && legal.type === 'gambit' && !spring) value -= 3 * (1 - (19 / 27) ** fd);
  if (fd && legal.type === 'pressure') value -= 1.2 * (1 - (21 / 27) ** fd);
  if (legal.name === 'Overreach' && !spring) value -= 1.2 + 0.25 * num(v.me.exposure);
  if (legal.name === 'Whisper') value += 0.5;
  if (spring) value -= legal.name === 'Snare' ? 1.1 : legal.name === 'Lockjaw' ? 0.8 : 0.35;
  value += 0.3 * clamp(killScore(v, m, t), -1, 3) - 0.3;
  const read = readOf(v, m, t, emotion);
  return {
    value,
    target: t.player_id,
    named,
    plan: {
      kinetic_intent: kin.k,
      emotional_intent: emotion,
      manipulation_plan: pc.plan,
      delivery_channel: pc.channel,
      target_player_id: t.player_id,
      expected_behavior_shift: `${read}: ${nameOf(v, t.player_id)}, from what we have seen of their habits`,
      confidence: Math.round(clamp(pSuccess, 0.05, 0.95) * 100) / 100,
    },
  };
}

function supportValue(v, m, legal) {
  const e = num(v.me.exposure);
  const res = num(v.me.resolve, 12);
  const n = legal.name;
  if (legal.kind === 'activate') {
    if (legal.type !== 'ritual') return null;
    return n === 'Slow Burn' ? 0.5 * v.opps.length + 0.3 : 0.4 + 0.2 * Math.max(0, 12 - res);
  }
  switch (n) {
    case 'Poker Face':
      return (e >= 3 ? 1.2 + 0.4 * Math.min(4, e - 3) : 0.2) - (ownArena(v, 'Poker Face') ? 1 : 0);
    case 'False Tell':
      return 0.4 + (e >= 4 ? 0.5 : 0) - (ownArena(v, 'False Tell') ? 0.6 : 0);
    case 'Composure':
      return 0.5 + 1.6 * Math.max(0, num(v.emo.tilt)) - (ownArena(v, 'Composure') ? 0.8 : 0);
    case 'Snare':
      return 1.2 - 0.5 * ownTraps(v);
    case 'Lockjaw':
      return 0.9 - 0.5 * ownTraps(v);
    case 'Tell':
      return 0.4 - 0.5 * ownTraps(v);
    case 'Slow Burn':
      return 0.85 * v.opps.length - ownArena(v, 'Slow Burn');
    case 'Rebuild':
      return 0.4 + 0.45 * Math.min(5, 12 - res + 1) + (num(v.me.lives) === 1 ? 0.6 : 0) - ownArena(v, 'Rebuild');
    default:
      return null;
  }
}

function options(v, m, plan, { second, tempo, extra }) {
  const list = [];
  const e = num(v.me.exposure);
  // Exposure discipline: a second action costs exposure, and exposure amplifies every hit we take.
  const secondCost = second ? 0.9 + 0.35 * e + (v.c.compact ? 0.5 : 0) : 0;
  for (const legal of v.legal) {
    if (legal.kind !== 'play_card' && legal.kind !== 'activate') continue;
    if (num(legal.tempo_cost) > tempo) continue;
    let value;
    let attack = null;
    if (legal.attack) {
      for (const id of legal.targets ?? []) {
        const t = v.byId[id];
        if (!t || isProtected(v, m, id)) continue;
        const ev = evalAttack(v, m, plan, legal, t, extra);
        if (ev && (!attack || ev.value > attack.value)) attack = ev;
      }
      if (!attack) continue;
      value = attack.value;
    } else {
      value = supportValue(v, m, legal);
      if (value === null) continue;
    }
    value -= (num(v.me.tempo) <= 1 ? 0.5 : 0.15) * num(legal.tempo_cost) + secondCost;
    value += (v.rng.next() - 0.5) * 0.2;
    list.push({ value, legal, attack });
  }
  // Passing cools exposure off by 1: worth more the hotter we are.
  list.push({ value: second ? 0 : e >= 4 ? 0.9 + 0.2 * (e - 4) : 0.05, legal: null, attack: null });
  return list.sort((a, b) => b.value - a.value);
}

function answerFor(v, m, c, cardId) {
  if (!c.legal) return { selected_action: { kind: 'pass', payload: {} } };
  const payload = { card_id: cardId ?? c.legal.card_id };
  if (c.attack) {
    payload.target_player_id = c.attack.target;
    if (c.attack.named) payload.named_player_id = c.attack.named;
    m.kineticNow.push(c.attack.plan.kinetic_intent);
    m.reads += 1;
  }
  if (c.legal.kind === 'play_card' && c.legal.needs_chosen_emotion) payload.chosen_emotion = ownTraps(v) ? 'fear' : 'confidence';
  // No plan: the key is left out (it defaults to null) rather than sent as a null a merge could drop.
  return c.attack ? { selected_action: { kind: c.legal.kind, payload }, attack_plan: c.attack.plan } : { selected_action: { kind: c.legal.kind, payload } };
}

const describe = (c) =>
  !c.legal ? 'pass' : c.attack ? `${c.legal.name} -> ${c.attack.target} (${c.attack.plan.manipulation_plan}/${c.attack.plan.delivery_channel}, read ${c.attack.plan.expected_behavior_shift.split(':')[0]})` : `${c.legal.kind === 'activate' ? 'hasten' : 'play'} ${c.legal.name}`;

const PASS = { selected_action: { kind: 'pass', payload: {} } };

function action(v, m) {
  if (v.c.reprompt) return [PASS, 'reprompt: pass'];
  const plan = planRound(v, m);
  const second = num(v.c.actions_left, 2) < (v.c.locked_out ? 1 : 2);
  const best = options(v, m, plan, { second, tempo: num(v.me.tempo), extra: [] })[0];
  return [answerFor(v, m, best), describe(best)];
}

function compact(v, m) {
  if (v.c.reprompt) return [{ ...PASS, speech_actions: [] }, 'reprompt: pass'];
  const plan = planRound(v, m);
  let speech = [];
  if (m.talked !== v.turn) {
    speech = talk(v, m, plan);
    m.talked = v.turn;
  }
  const extra = speech.map((s) => ({ ...s, player_id: v.id }));
  const c1 = options(v, m, plan, { second: false, tempo: num(v.me.tempo), extra })[0];
  const sp = secretPlan(v, m, plan);
  const answer = { ...answerFor(v, m, c1), speech_actions: speech, ...(sp.emotional_intent ? { secret_plan: sp } : {}) };
  let note = describe(c1);
  if (c1.legal && num(v.c.actions_left, 2) >= 2 && num(v.me.exposure) < 3) {
    const used = new Set([c1.legal.card_id]);
    const left = num(v.me.tempo) - num(c1.legal.tempo_cost);
    for (const c2 of options(v, m, plan, { second: true, tempo: left, extra })) {
      if (!c2.legal || c2.value <= 0.2) break;
      let id = c2.legal.card_id;
      if (used.has(id)) {
        if (c2.legal.kind !== 'play_card') continue;
        id = v.hand.find((h) => h.name === c2.legal.name && !used.has(h.card_id))?.card_id;
        if (!id) continue;
      }
      answer.follow_up = answerFor(v, m, c2, id);
      note += ` + ${describe(c2)}`;
      break;
    }
  }
  return [answer, note];
}

function react(v, _m) {
  if (v.c.reprompt) return [{}, 'reprompt'];
  const inc = v.c.incoming_attack ?? {};
  const brace = v.legal.find((a) => a.kind === 'reaction' && a.name === 'Brace');
  const riposte = v.legal.find((a) => a.kind === 'reaction' && a.name === 'Riposte');
  if (!brace && !riposte) return [{}, 'no guard'];
  const raw = (DAMAGE[inc.card_name] ?? 1) * (1 + 0.1 * num(v.me.exposure));
  // Riposte always hits back for 2, even against a Whisper: use it whenever we can pay.
  if (riposte && (raw <= 2.5 || !brace)) return [{ card_id: riposte.card_id }, `Riposte vs ${inc.card_name}`];
  if (brace && (raw >= 2 || num(v.me.resolve, 12) <= raw + 2 || v.hand.filter((h) => h.name === 'Brace').length >= 2)) return [{ card_id: brace.card_id }, `Brace vs ${inc.card_name}`];
  return [{}, 'light hit, saving the Brace'];
}

function reflect(v, m) {
  m.reflections = num(m.reflections) + 1;
  const notes = [];
  const lost = m.lastResolve === null ? 0 : num(m.lastResolve) - num(v.me.resolve);
  if (lost > 0) notes.push(`turn ${v.turn}: lost ${lost} resolve since last round`);
  const habits = Object.entries(m.profile)
    .filter(([id]) => v.byId[id]?.alive)
    .map(([id, p]) => `${nameOf(v, id)}: ${p.onMe >= p.onOthers ? (p.onMe > 0.5 ? 'hunts me' : p.passive > 1 ? 'sits still' : 'builds') : 'hits others'}`);
  if (habits.length) notes.push(`habits: ${habits.join('; ')}`.slice(0, 480));
  m.lastResolve = num(v.me.resolve);
  return [{ memory_updates: notes }, notes.join(' | ') || 'nothing to note'];
}

// ---------------------------------------------------------------------------------------------

function main(text) {
  let msg;
  try {
    msg = JSON.parse(text.split('\n')[0]);
    if (!msg.input || typeof msg.input !== 'object') throw new Error('no input');
  } catch (err) {
    process.stderr.write(`node-example: bad input: ${err.message}\n`);
    out({ type: 'error', errorCode: 'bad_input', errorMessage: String(err.message || 'unreadable input') });
    out({ type: 'done', ok: false, summary: 'bad input' });
    return;
  }
  const memIn = msg.input.player_private_view?.memory_state?.agent ?? {};
  const m = loadMemory(structuredClone(memIn));
  const v = viewOf(msg, memIn);
  rollRound(v, m);
  observe(v, m);
  let decision;
  let note;
  switch (v.r.window) {
    case 'intent': {
      decision = secretPlan(v, m, planRound(v, m));
      note = decision.emotional_intent ? `${decision.emotional_intent.emotion} on ${decision.emotional_intent.target_player_id}` : 'no target';
      break;
    }
    case 'talk':
      if (v.c.reprompt || m.talked === v.turn) [decision, note] = [{ speech_actions: [] }, 'silent'];
      else {
        decision = { speech_actions: talk(v, m, planRound(v, m)) };
        m.talked = v.turn;
        note = `${decision.speech_actions.length} lines`;
      }
      break;
    case 'action':
      [decision, note] = v.c.compact ? compact(v, m) : action(v, m);
      break;
    case 'reaction':
      [decision, note] = react(v, m);
      break;
    case 'reflect':
      [decision, note] = reflect(v, m);
      break;
    default:
      [decision, note] = [{}, `unknown window ${v.r.window}`];
  }
  out({ type: 'log', level: 'info', message: `${v.r.window}: ${note}`, fields: { turn: v.turn, target: m.plan?.target ?? null } });
  out({ type: 'state_patch', patch: { decision, memory: m } });
  out({ type: 'done', ok: true, summary: note.slice(0, 200) });
}

// One JSON line is the whole request: answer as soon as it has arrived (the runtime may or may not
// close stdin after it), and once only.
let buf = '';
let handled = false;
function handle() {
  if (handled) return;
  handled = true;
  process.stdin.pause();
  try {
    main(buf);
  } catch (err) {
    process.stderr.write(`node-example crashed: ${err?.stack ?? err}\n`);
    out({ type: 'error', errorCode: 'agent_crashed', errorMessage: String(err?.message ?? err).slice(0, 300) || 'crash' });
    out({ type: 'done', ok: false, summary: 'node-example crashed' });
  }
  process.stdin.destroy();
}
process.stdin.setEncoding('utf8');
process.stdin.on('data', (d) => {
  buf += d;
  if (buf.includes('\n')) handle();
});
process.stdin.on('end', handle);
