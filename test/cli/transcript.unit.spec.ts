import { describe, expect, it } from 'vitest';
import type { GameEvent } from '../../src/protocol/index.js';
import { formatTranscript } from '../../src/cli/transcript.js';
import { narrate } from '../../src/view/index.js';
import { contestWords } from '../../src/view/narrate-effects.js';
import { playGame } from '../support/played-game.js';
import { initialState, viewEvent, viewState } from '../../src/game/index.js';
import { winCurve } from '../../src/eval/curve.js';
import { swings } from '../../src/eval/win-report.js';
import { storySwings } from '../../src/cli/story-swings.js';

const NAMES = ['aggressor', 'turtle', 'random', 'balanced'];
const { events } = playGame({ seed: 777_005, seats: 4, round_cap: 16, compact: false, driver: 9, names: NAMES });
const told = formatTranscript(events);
/** Win-probability markers end some lines ("(aggressor's chance 22% → 61%)"): the narrator's lines are what precedes them. */
const MARKER = / \([^()]*chance \d+% → \d+%[^()]*\)/g;
const out = told.replace(MARKER, '');
/** Agents' words as the story quotes them: seat ids as names, snake_case keys as words. */
const named = (text: string) => text.replace(/plr_\d+/g, (id) => NAMES[Number(id.slice(4)) - 1]!).replace(/\b[a-z]+(?:_[a-z]+)+\b/g, (k) => k.replace(/_/g, ' '));
const ofType = <T extends GameEvent['type']>(t: T) => events.filter((e): e is Extract<GameEvent, { type: T }> => e.type === t);

describe('formatTranscript: the admin transcript, told by the shared narrator', () => {
  it('prints every narrated line and detail, under round and phase headers, with key moments starred and listed', () => {
    const story = narrate(events);
    for (const l of story.lines.filter((x) => x.kind !== 'setup')) {
      expect(out).toContain(`${l.key_moment ? '★ ' : '  '}${l.text}\n`);
      for (const d of l.details) expect(out).toContain(`      ${d}\n`);
    }
    const rounds = [...new Set(ofType('phase_changed').map((e) => e.turn))];
    for (const r of rounds) expect(out).toContain(`\n=== Round ${r} ===\n`);
    expect(out).toContain('\n-- resolve --\n');
    expect(out).toMatch(/\nKey moments\n/);
    for (const m of story.moments) expect(out).toMatch(new RegExp(`event ${m.seq} +${m.key_moment!.title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\n`));
  });

  it('keeps everything the old transcript told an admin: plans, speech and its act, plays and attack plans, contests, settlements, feelings', () => {
    // Agents' own words, with the seat ids in them as names.
    for (const e of ofType('speech_posted')) expect(out).toContain(`“${named(e.payload.text!)}”`);
    for (const e of ofType('secret_plan_committed').filter((x) => x.payload.plan?.deception_frame)) expect(out).toContain(`Cover story: “${named(e.payload.plan!.deception_frame!)}”`);
    for (const e of ofType('action_submitted').filter((x) => x.payload.card)) expect(out).toContain(`plays ${e.payload.card!.name}`);
    for (const e of ofType('action_submitted').filter((x) => x.payload.attack_plan)) expect(out).toContain(`expects “${named(e.payload.attack_plan!.expected_behavior_shift)}”; confidence ${Math.round(e.payload.attack_plan!.confidence * 100)}%.`);
    for (const e of ofType('action_resolved').filter((x) => x.payload.manipulation)) expect(out).toContain(`: ${contestWords(e.payload.manipulation_outcome!, e.payload.manipulation!.margin)}`);
    const settled = ofType('ledger_settled').flatMap((e) => e.payload.settlements ?? []);
    expect(settled.length).toBeGreaterThan(0);
    expect(out.match(/The ledger settles: /g)!.length).toBe(ofType('ledger_settled').filter((e) => e.payload.settlements!.length || Object.values(e.payload.tactical_effect.exposure_delta).some((d) => d !== 0) || Object.values(e.payload.tactical_effect.tempo_delta).some((d) => d !== 0) || Object.values(e.payload.tactical_effect.resolve_delta).some((d) => d !== 0)).length);
    expect(out).toMatch(/\n {2}\w+ now feels \w+ −?\d\.\d\d \([+−]\d\.\d\d\)/);
    expect(out).toMatch(/^Game game_\w+ · seed 777005 · rules .* \(full windows\) · 4 seats · deck \d+\n {2}P1 +aggressor +baseline /);
    expect(out).toMatch(/=== Game over after \d+ rounds \([a-z ]+\) ===\n {2}Game over after \d+ rounds, .+ wins\. 1st /);
    expect(out).toMatch(/Placements\n +# +seat +agent +lives +resolve +tempo +exposure +out\n +1 +P\d +\w+/);
  });

  it('marks every event where a seat’s chance moved by 15 points or more, by name, with the omniscient model of the finished game', () => {
    // The oracle: the admin's omniscient curve, folded from the raw engine state.
    const ADMIN = { role: 'admin' } as const;
    const config = { seats: NAMES.map((display_name) => ({ display_name })), rules: { round_cap: 16, windows: 'full' as const } };
    const curve = winCurve({ seq: 0, view: viewState(initialState(config, 777_005), ADMIN) }, events.map((e) => viewEvent(e, ADMIN, true)), ADMIN, true);
    expect(curve.form).toBe('omniscient');
    const big = swings(curve.points, 0.15);
    expect(big.length).toBeGreaterThan(0);
    const bySeq = storySwings(events);
    expect([...bySeq.values()].flat().sort((a, b) => a.seq - b.seq || a.player_id.localeCompare(b.player_id))).toEqual([...big].sort((a, b) => a.seq - b.seq || a.player_id.localeCompare(b.player_id)));
    const marked = told.split('\n').filter((l) => MARKER.test(l));
    MARKER.lastIndex = 0;
    expect(marked.length).toBe(bySeq.size);
    const name = (id: string) => NAMES[Number(id.slice(4)) - 1]!;
    for (const list of bySeq.values()) {
      const s0 = list[0]!;
      expect(told).toContain(`(${name(s0.player_id)}'s chance ${Math.round(s0.from * 100)}% → ${Math.round(s0.to * 100)}%`);
    }
    expect(told).not.toMatch(/plr_\d's chance/);
  });
});
