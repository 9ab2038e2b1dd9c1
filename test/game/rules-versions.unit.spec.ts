/**
 * Rules versions: a stored game is pinned to the rules it was played with. The fixture was recorded
 * by the 1.0.0 build (its config says nothing about the version, as stored configs do not; the
 * games.rules_version column does), and must re-simulate byte for byte under this build.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_RULES, RULES_VERSION, RulesConfig, initialState } from '../../src/game/index.js';
import type { GameEvent } from '../../src/protocol/index.js';
import { resimulate } from '../../src/runner/replay-decisions.js';
import { configOf } from '../../src/runner/stored-game.js';
import type { GameRecord } from '../../src/store/index.js';
import type { RecordedDecision } from '../../src/runner/decision-record.js';

type Fixture = { seed: number; config: GameRecord['config']; rules_version: string; start_ts: string; events: number; log_sha256: string; decisions: RecordedDecision[] };
const fixture = JSON.parse(readFileSync(new URL('./fixtures/stored-game-rules-1.0.0.json', import.meta.url), 'utf8')) as Fixture;

const logHash = (events: readonly GameEvent[]) => {
  const h = createHash('sha256');
  for (const e of events) h.update(JSON.stringify(e) + '\n');
  return h.digest('hex');
};

const stored = { game_id: 'game_v1fixture', seed: fixture.seed, config: fixture.config, rules_version: fixture.rules_version } as GameRecord;

describe('rules versions', () => {
  it('given this build, then it plays 2.0.0 by default and still parses 1.0.0 with 1.0.0 defaults', () => {
    expect(RULES_VERSION).toBe('2.0.0');
    expect(DEFAULT_RULES.engagement).toEqual({ idle_from_round: 2, idle_loss: 2, spoils: 2, guard_chip: 1 });
    expect(DEFAULT_RULES.exposure).toMatchObject({ round_decay: 1, second_action: 0, repeat_intent: 0 });
    expect(RulesConfig.parse({ rules_version: '1.0.0' }).exposure).toMatchObject({ second_action: 1, repeat_intent: 1 });
    const v1 = RulesConfig.parse({ rules_version: '1.0.0' });
    expect(v1.engagement).toBeUndefined();
    expect(v1.exposure.round_decay).toBeUndefined();
    // An override still wins over the version's default.
    expect(RulesConfig.parse({ engagement: { spoils: 0 } }).engagement).toEqual({ idle_from_round: 2, idle_loss: 2, spoils: 0, guard_chip: 1 });
    expect(RulesConfig.safeParse({ rules_version: '9.9.9' }).success).toBe(false);
  });

  it('given a game stored under 1.0.0 (config without a version, the column says 1.0.0), when it is re-simulated, then the log is byte for byte the one 1.0.0 wrote', () => {
    expect(fixture.rules_version).toBe('1.0.0');
    const { state, events } = resimulate(fixture.seed, configOf(stored), fixture.start_ts, fixture.decisions);
    expect(state.rules.rules_version).toBe('1.0.0');
    expect(events).toHaveLength(fixture.events);
    expect(logHash(events)).toBe(fixture.log_sha256);
  });

  it('given the same stored config read without its pinned version, then the engine would play 2.0.0 and the log would not match (the pin is what keeps it)', () => {
    expect(initialState(fixture.config, fixture.seed).rules.rules_version).toBe('2.0.0');
    let hash: string | null = null;
    try {
      hash = logHash(resimulate(fixture.seed, fixture.config, fixture.start_ts, fixture.decisions).events);
    } catch {
      hash = 'diverged'; // the recorded decisions no longer fit the game: also not a match
    }
    expect(hash).not.toBe(fixture.log_sha256);
  });
});
