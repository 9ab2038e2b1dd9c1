import { describe, expect, it } from 'vitest';
import type { GameEvent } from '../../src/protocol/index.js';
import { viewEvent, type Viewer } from '../../src/game/index.js';
import { lineAt, narrate, stepMoment, type NarrationLine } from '../../src/view/index.js';
import { contestWords } from '../../src/view/narrate-effects.js';
import { plainSpeech } from '../../src/view/narrate-words.js';
import { playGame } from '../support/played-game.js';

const NAMES = ['aggressor', 'turtle', 'random', 'balanced'];
const { events } = playGame({ seed: 777_005, seats: 4, round_cap: 16, compact: false, driver: 9, names: NAMES });
const name = (id: string) => NAMES[Number(id.slice(4)) - 1]!;
const admin: Viewer = { role: 'admin' };
const spectator: Viewer = { role: 'spectator' };
const as = (v: Viewer) => events.map((e) => viewEvent(e, v));
const ofType = <T extends GameEvent['type']>(t: T) => events.filter((e): e is Extract<GameEvent, { type: T }> => e.type === t);
/** Narrated text outside the agents' own words (speech, cover stories, expected shifts are quoted “…”). */
const ours = (l: NarrationLine) => [l.text, ...l.details, l.key_moment?.title ?? ''].join('\n').replace(/“[^”]*”/g, '“…”');
const at = (lines: NarrationLine[], seq: number) => lines.filter((l) => l.seq === seq);

describe('narrate: the story of a seeded game as sentences', () => {
  const story = narrate(as(admin));

  it('gives every line the seq, round and phase of its event, in log order, grouped by round and phase', () => {
    expect(story.lines.length).toBeGreaterThan(300);
    for (const l of story.lines) {
      const e = events[l.seq - 1]!;
      expect([l.round, l.phase]).toEqual([e.turn, e.phase]);
    }
    expect(story.lines.map((l) => l.seq)).toEqual([...story.lines.map((l) => l.seq)].sort((a, b) => a - b));
    expect(story.groups.flatMap((g) => g.lines)).toEqual(story.lines);
    story.groups.forEach((g, i) => {
      for (const l of g.lines) expect([l.round, l.phase]).toEqual([g.round, g.phase]);
      const next = story.groups[i + 1];
      if (next) expect([next.round, next.phase]).not.toEqual([g.round, g.phase]);
    });
    expect(story.moments).toEqual(story.lines.filter((l) => l.key_moment));
  });

  it('is deterministic, and narrating a prefix of the log gives a prefix of the lines (a live page never rewrites its past)', () => {
    expect(narrate(as(admin))).toEqual(story);
    for (const k of [1, 50, 333, events.length - 7]) {
      expect(narrate(as(admin).slice(0, k)).lines).toEqual(story.lines.filter((l) => l.seq <= k));
    }
  });

  it('names seats and cards in words: no ids, no snake_case keys, no "undefined"', () => {
    for (const l of story.lines) {
      const text = ours(l);
      expect(text).not.toMatch(/\bplr_\w+|\bcard_\w+|\bact_\w+|undefined|\[object|NaN/);
      expect(text, text).not.toMatch(/\b[a-z]+_[a-z_]+\b/);
      expect(l.partial).toBeUndefined();
    }
    const play = ofType('action_submitted').find((e) => e.payload.card && e.payload.target_player_id)!;
    expect(at(story.lines, play.seq)[0]!.text).toBe(`${name(play.payload.player_id)} plays ${play.payload.card!.name} on ${name(play.payload.target_player_id!)} (${play.payload.tempo_paid} tempo).`);
    const hit = ofType('action_resolved').find((e) => e.payload.card && e.payload.target_player_ids.length === 1 && e.payload.manipulation)!;
    const p = hit.payload;
    const text = at(story.lines, hit.seq)[0]!.text;
    expect(text.startsWith(`${name(p.actor_player_id)}'s ${p.card!.name} hits ${name(p.target_player_ids[0]!)}`)).toBe(true);
    // The contest's margin in words, not as a signed decimal.
    expect(text).toContain(`: ${contestWords(p.manipulation_outcome!, p.manipulation!.margin)}`);
    expect(text).not.toMatch(/margin/);
    const said = ofType('speech_posted').find((e) => e.payload.channel === 'private')!;
    // Agents' words are quoted with seat ids as names (the drivers' canaries name seats by id).
    expect(said.payload.text).toMatch(/plr_\d/);
    expect(at(story.lines, said.seq)[0]!.text).toContain(`“${said.payload.text!.replace(/plr_\d+/g, name)}”`);
  });

  it('marks every elimination, every broken promise and every life lost as a key moment at its seq', () => {
    const kindAt = (seq: number) => story.lines.find((l) => l.seq === seq && l.key_moment)?.key_moment;
    const out = ofType('player_eliminated');
    expect(out.length).toBeGreaterThan(0);
    for (const e of out) expect(kindAt(e.seq)).toEqual({ kind: 'elimination', title: `${name(e.payload.player_id)} is eliminated` });
    const broken = ofType('ledger_settled').filter((e) => e.payload.settlements!.some((s) => s.outcome === 'broken'));
    expect(broken.length).toBeGreaterThan(0);
    for (const e of broken) expect(kindAt(e.seq)?.title).toContain(`${name(e.payload.settlements!.find((s) => s.outcome === 'broken')!.speaker_player_id)} breaks a`);
    for (const e of ofType('life_lost').filter((x) => x.payload.lives_left > 0)) expect(kindAt(e.seq)?.title).toContain(`${name(e.payload.player_id)} loses a life`);
  });

  it('finds betrayals, flipped emotions and the biggest swings from the log alone', () => {
    const kinds = (k: string) => story.moments.filter((l) => l.key_moment!.kind === k);
    // A betrayal is an attack by a seat with an open promise or concession to its target.
    expect(kinds('betrayal').length).toBeGreaterThan(0);
    for (const l of kinds('betrayal')) {
      const e = events[l.seq - 1]!;
      expect(e.type).toBe('action_resolved');
      if (e.type !== 'action_resolved') continue;
      const promised = ofType('speech_posted').some(
        (s) => s.seq < e.seq && s.payload.player_id === e.payload.actor_player_id && e.payload.target_player_ids.includes(s.payload.target_player_id ?? '') && (s.payload.speech_act === 'promise' || s.payload.speech_act === 'concession') && e.turn <= s.turn + 1,
      );
      expect(promised).toBe(true);
    }
    // A flip: the seat's dominant emotion at reflect became one its manipulator aimed at this round.
    expect(kinds('emotion_flip').length).toBeGreaterThan(0);
    for (const l of kinds('emotion_flip')) {
      const e = events[l.seq - 1]!;
      if (e.type !== 'emotion_updated') throw new Error(`a flip on ${e.type}`);
      expect(e.payload.reason).toBe('reflect');
      const manipulated = ofType('action_resolved').filter((a) => a.turn === e.turn && a.payload.attack_plan?.target_player_id === e.payload.player_id && a.payload.manipulation_outcome !== 'failed');
      expect(manipulated.length).toBeGreaterThan(0);
      expect(l.key_moment!.title).toMatch(new RegExp(`turns ${name(e.payload.player_id)} to \\w+$`));
    }
    const swings = kinds('swing').map((l) => Number(/(\d+) resolve at once/.exec(l.key_moment!.title)![1]));
    expect(swings.length).toBeGreaterThan(0);
    expect(swings[0]).toBeGreaterThanOrEqual(4);
    for (let i = 1; i < swings.length; i++) expect(swings[i]).toBeGreaterThan(swings[i - 1]!);
  });

  it('tells a spectator only what it may see: private messages as sent, plans as committed until revealed', () => {
    const lines = narrate(as(spectator)).lines;
    const all = lines.map(ours).join('\n') + lines.map((l) => l.text).join('\n');
    expect(all).not.toMatch(/PRIV~|PLAN~/);
    const priv = ofType('speech_posted').find((e) => e.payload.channel === 'private')!;
    expect(at(lines, priv.seq)[0]!.text).toBe(`${name(priv.payload.player_id)} sends ${name(priv.payload.target_player_id!)} a private message.`);
    const plan = ofType('secret_plan_committed')[0]!;
    expect(at(lines, plan.seq)[0]!.text).toBe(`${name(plan.payload.player_id)} commits a secret plan.`);
    const revealed = ofType('plans_revealed')[0]!;
    expect(at(lines, revealed.seq)[0]!.text).toMatch(/^Plans revealed: /);
    // An admin read the plans as they were made: no second telling.
    expect(at(story.lines, revealed.seq)).toEqual([]);
    // Broken promises need the ledger's settlements, hidden from spectators; eliminations are public.
    const moments = narrate(as(spectator)).moments.map((l) => l.key_moment!.kind);
    expect(moments).not.toContain('broken_promise');
    expect(moments).toContain('elimination');
  });

  it('names the seats of a view that starts after the deal from the names it is given, and says "seat N" without them', () => {
    const seat: Viewer = { role: 'seat', player_id: 'plr_2' };
    const fromTwo = events.slice(1).map((e) => viewEvent(e, seat));
    const named = narrate(fromTwo, { names: new Map(NAMES.map((n, i) => [`plr_${i + 1}`, n])) });
    expect(named.lines.find((l) => l.kind === 'order')!.text).toMatch(/^Turn order: (aggressor|turtle|random|balanced)/);
    const bare = narrate(fromTwo);
    expect(bare.lines.find((l) => l.kind === 'order')!.text).toMatch(/^Turn order: seat \d/);
  });

  it('degrades to a plainer line when a projection dropped a field it needs: never throws, never prints undefined', () => {
    const hit = ofType('action_resolved').find((e) => e.payload.card)!;
    const mangled = as(admin).map((e) => (e.seq === hit.seq ? ({ ...e, payload: { ...e.payload, tactical_effect: undefined, card: undefined, target_player_ids: 7 } } as unknown as GameEvent) : e));
    const lines = narrate(mangled).lines;
    const l = at(lines, hit.seq)[0]!;
    expect(l.partial).toBe(true);
    expect(l.text).toBe(`${name(hit.payload.actor_player_id)}: action resolved (details hidden from this view).`);
    expect(lines.filter((x) => x.seq !== hit.seq)).toEqual(story.lines.filter((x) => x.seq !== hit.seq));
  });

  it('lineAt and stepMoment: the current line of a scrubber position, and the key moments either side', () => {
    const l = story.lines;
    expect(lineAt(l, 0)).toBe(-1);
    expect(lineAt(l, l[3]!.seq)).toBe(l.findLastIndex((x) => x.seq === l[3]!.seq));
    expect(lineAt(l, l[3]!.seq + 0.5)).toBe(l.findLastIndex((x) => x.seq <= l[3]!.seq));
    expect(lineAt(l, 1e9)).toBe(l.length - 1);
    const m = story.moments;
    expect(stepMoment(m, 0, 1)).toBe(m[0]!.seq);
    expect(stepMoment(m, m[0]!.seq, 1)).toBe(m.find((x) => x.seq > m[0]!.seq)!.seq);
    expect(stepMoment(m, m[0]!.seq, -1)).toBeNull();
    expect(stepMoment(m, 1e9, -1)).toBe(m.at(-1)!.seq);
  });
});

describe('contestWords: a manipulation contest in words, not a signed margin', () => {
  it('says how close the contest was: only just inside the noise, clearly, or by a wide margin', () => {
    expect(contestWords('failed', -0.11)).toBe('it fails, but only just');
    expect(contestWords('failed', -0.2)).toBe('it fails clearly');
    expect(contestWords('failed', -0.45)).toBe('it fails by a wide margin');
    expect(contestWords('success', 0.12)).toBe('it works, just');
    expect(contestWords('success', 0.31)).toBe('it works by a wide margin');
    expect(contestWords('partial', 0.04)).toBe('it partly works');
    expect(contestWords('failed', undefined)).toBe('it fails');
  });
});

describe('plainSpeech: agents’ words for people outside the story', () => {
  it('names seats by the names given (seat N otherwise) and writes snake_case keys as words', () => {
    const names = new Map([['plr_3', 'Ada']]);
    expect(plainSpeech('plr_3, mark my words.', names)).toBe('Ada, mark my words.');
    expect(plainSpeech('lash_out: plr_7 — watch out', names)).toBe('lash out: seat 7 — watch out');
    expect(plainSpeech('<img src=x onerror=alert(1)>', names)).toBe('<img src=x onerror=alert(1)>');
  });
});
