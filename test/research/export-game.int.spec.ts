import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { gameWpa } from '../../src/eval/wpa.js';
import { exportGame } from '../../src/research/export-game.js';
import { readLog } from '../../src/runner/stored-game.js';
import { ExportRecord } from '../../src/research/export-record.js';
import { runPersistent } from '../../src/runner/persistent-runner.js';
import { openPgliteStore } from '../store/support.js';
import { writeSkillAgent } from '../runner/skill-agent.js';

const tmp = mkdtempSync(join(tmpdir(), 'tiltyard-export-game-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/**
 * A skill that plays a card nobody holds in every window (the engine rejects it; in an action
 * window it reprompts once) and counts its calls in its memory: call n patches {"calls": n}.
 */
function stubbornCounter(): string {
  return writeSkillAgent(
    tmp,
    'stubborn-counter',
    [
      '#!/bin/sh',
      'cat > /dev/null',
      'n=$(cat calls 2>/dev/null || echo 0); n=$((n + 1)); echo "$n" > calls',
      'echo "{\\"version\\":\\"0\\",\\"type\\":\\"state_patch\\",\\"patch\\":{\\"memory\\":{\\"calls\\":$n},\\"decision\\":{\\"selected_action\\":{\\"kind\\":\\"play_card\\",\\"payload\\":{\\"card_id\\":\\"card_not_held\\"}}}}}"',
      'echo \'{"version":"0","type":"done","ok":true}\'',
      '',
    ].join('\n'),
  );
}

describe('exportGame', () => {
  it('given a traced game with rejected answers and an agent memory, then reprompts, rejections and the memory each request carried are exported', async () => {
    const { store, dispose } = await openPgliteStore();
    try {
      const out = await runPersistent(store, { seed: 9, agents: [`skill:${stubbornCounter()}`, 'balanced'], rules: { round_cap: 2 } });
      expect(out.status).toBe('ended');
      const records = await exportGame(store, await store.getGame(out.gameId));
      expect(records).toHaveLength((await store.readActions(out.gameId)).length);
      for (const r of records) ExportRecord.parse(r);

      const mine = records.filter((r) => r.player_id === 'plr_1');
      // The k-th request the skill got carried the memory its (k−1)-th answer left: {calls: k − 1}.
      expect(mine.map((r) => r.request.player_private_view.memory_state.agent)).toEqual(mine.map((_, k) => (k === 0 ? {} : { calls: k })));
      expect(mine.every((r) => r.trace !== null && r.answered)).toBe(true);

      const refused = mine.filter((r) => r.window === 'action' && !r.accepted);
      expect(refused.length).toBeGreaterThan(0);
      for (const r of refused) {
        expect(r.rejection_code).toMatch(/\//);
        expect(r.outcome.rejected).toBe(true);
        expect(r.outcome.events.some((e) => e.type === 'action_rejected')).toBe(true);
      }
      // The reprompt after a first refusal is its own record, attempt 2, and its request says why.
      const reprompts = mine.filter((r) => r.attempt === 2);
      expect(reprompts.length).toBeGreaterThan(0);
      for (const r of reprompts) expect(r.request.constraints.reprompt).not.toBeNull();
      // The other seat's records never show plr_1's memory.
      for (const r of records.filter((x) => x.player_id === 'plr_2')) expect(r.request.player_private_view.memory_state.agent).toEqual({});

      // WPA: a refused answer that was asked again has none (its reprompt carries the decision's);
      // each seat's decisions add up to the choice WPA of its seat over the game.
      for (const r of refused.filter((x) => x.attempt === 1)) expect(r.wpa).toBeNull();
      for (const r of reprompts) expect(r.wpa).toEqual(expect.any(Number));
      const w = gameWpa(await readLog(store, out.gameId));
      for (const id of ['plr_1', 'plr_2']) {
        const sum = records.filter((r) => r.player_id === id).reduce((a, r) => a + (r.wpa ?? 0), 0);
        expect(Math.abs(sum - w.seats[id]!.choice_sum)).toBeLessThan(1e-9);
      }
      expect(records.filter((r) => r.player_id === 'plr_2').every((r) => typeof r.wpa === 'number')).toBe(true);
    } finally {
      await dispose();
    }
  }, 300_000);
});
