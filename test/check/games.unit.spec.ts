import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runConformance } from '../../src/check/conformance.js';
import { gamesCheck } from '../../src/check/games-check.js';
import { playGames, type GamesFigures } from '../../src/check/games.js';
import { loadSkill } from '../../src/agents/skills/load-skill.js';
import { SAMPLES } from './support.js';

/** A skill that stands for a built-in: in-process, fast, through the same seat binding. */
function builtinSkill(name: string, builtin: string) {
  const dir = join(mkdtempSync(join(tmpdir(), 'agent-check-games-')), name);
  mkdirSync(dir);
  writeFileSync(
    join(dir, 'SKILL.md'),
    `---\nname: ${name}\ndescription: test skill\nmetadata:\n  builtin: ${builtin}\n---\n`,
  );
  const loaded = loadSkill(dir);
  if (!loaded.ok) throw new Error(loaded.message);
  return { kind: 'skill' as const, spec: `skill:${dir}`, skill: loaded.skill };
}

const figures = (over: Partial<GamesFigures>): GamesFigures => ({
  games: 2,
  seeds: [1, 2],
  windows: ['full', 'compact'],
  decisions: 100,
  answered: 100,
  legal: 100,
  legal_rate: 1,
  illegal_codes: {},
  failures: 0,
  failure_codes: {},
  fallback_answers: 0,
  action_answers: 30,
  passes: 3,
  pass_rate: 0.1,
  latency_ms: null,
  placements: [1, 2],
  health: ['healthy', 'healthy'],
  wall_ms: 1,
  ...over,
});

describe('games', () => {
  it('plays full and compact games and counts only the skill’s own answers', async () => {
    const f = await playGames(builtinSkill('checked-bot', 'aggressor'), 2, 5);
    expect(f).toMatchObject({
      games: 2,
      seeds: [5, 6],
      windows: ['full', 'compact'],
      failures: 0,
      fallback_answers: 0,
    });
    expect(f.decisions).toBeGreaterThan(10);
    expect(f.answered).toBe(f.decisions);
    expect(f.legal + Object.values(f.illegal_codes).reduce((a, b) => a + b, 0)).toBe(f.answered);
    expect(f.action_answers).toBeGreaterThan(0);
    expect(f.placements).toHaveLength(2);
    expect(f.health).toHaveLength(2);
  });

  it('gamesCheck: failures and rejected answers are errors; always passing is a warning; no games is a skip', () => {
    expect(gamesCheck(figures({})).findings).toEqual([]);
    const bad = gamesCheck(
      figures({
        failures: 4,
        failure_codes: { 'protocol/bad_json': 4 },
        health: ['permanentFailure', 'healthy'],
        legal: 90,
        illegal_codes: { 'action/card_not_in_hand': 10 },
      }),
    );
    expect(bad.findings.map((f) => [f.check, f.severity, f.key])).toEqual([
      ['games', 'error', 'failures'],
      ['games', 'error', 'illegal'],
    ]);
    expect(bad.findings[0]!.message).toContain('gave up on the skill in 1 of 2 games');
    expect(bad.findings[1]!.message).toContain('action/card_not_in_hand ×10');
    expect(gamesCheck(figures({ passes: 30 })).findings.map((f) => [f.severity, f.key])).toEqual([
      ['warning', 'always_passes'],
    ]);
    expect(gamesCheck(figures({ games: 0 })).skipped).toContain('--games 0');
  });
});

describe('runConformance', () => {
  it('runs every case through one traced seat and hands memory along', async () => {
    const { cases } = await runConformance(builtinSkill('conformant-bot', 'balanced'), SAMPLES, {
      gameSeed: 1,
    });
    expect(cases.map((c) => c.case)).toEqual(SAMPLES.map((s) => s.case));
    for (const c of cases) {
      expect(c.invocation).not.toBeNull();
      expect(c.invocation!.failure).toBeNull();
      expect(c.invocation!.decision).toBeDefined();
    }
  });
});
