import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AgentStrikesError, MAX_BOUND_STRIKES } from '../../src/runner/agent-strikes.js';
import { createPersistentGame, resumePersistent } from '../../src/runner/persistent-runner.js';
import { openPgliteStore } from '../store/support.js';
import { writeSkillAgent } from './skill-agent.js';

const tmp = mkdtempSync(join(tmpdir(), 'tiltyard-strikes-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** The hostile agent: every answer a state_patch nested 30,000 arrays deep. */
function deepAgent(): string {
  return writeSkillAgent(
    tmp,
    'deep-agent',
    `#!/bin/sh\ncat > /dev/null\nawk 'BEGIN { n = 30000; printf "{\\"version\\":\\"0\\",\\"type\\":\\"state_patch\\",\\"patch\\":{\\"decision\\":"; for (i = 0; i < n; i++) printf "["; for (i = 0; i < n; i++) printf "]"; print "}}"; print "{\\"version\\":\\"0\\",\\"type\\":\\"done\\",\\"ok\\":true}" }'\n`,
  );
}

const tooDeep = (entries: unknown) => (entries as { failure?: { code: string } | null }).failure?.code === 'protocol/too_deep';

describe('the strike policy across a resume', () => {
  it('given two strikes stored by an earlier runner, then the resumed game fails at the next over-bound answer, naming seat, agent and limit', async () => {
    const { store, dispose } = await openPgliteStore();
    try {
      const agent = `skill:${deepAgent()}`;
      const gameId = await createPersistentGame(store, { seed: 7, agents: [agent, 'random'], rules: { round_cap: 3 } });
      // What an earlier runner left: two over-bound answers of plr_1, each a stored trace.
      const strike = { player_id: 'plr_1', turn: 1, window: 'intent', agent, ok: false, failure: { code: 'protocol/too_deep', message: 'event 1 refused: nesting deeper than 64 levels' } };
      await store.recordTraces(gameId, [
        { player_id: 'plr_1', turn: 1, window: 'intent', request_id: 'req_a', entries: { ...strike, request_id: 'req_a' } },
        { player_id: 'plr_1', turn: 1, window: 'talk', request_id: 'req_b', entries: { ...strike, request_id: 'req_b', window: 'talk' } },
      ]);

      const run = resumePersistent(store, gameId);
      await expect(run).rejects.toBeInstanceOf(AgentStrikesError);
      await expect(run).rejects.toThrow(`seat plr_1 (${agent}) sent output over the protocol bounds ${MAX_BOUND_STRIKES} times (last: protocol/too_deep`);

      const game = await store.getGame(gameId);
      expect(game.status).toBe('failed');
      expect(game.failure_reason).toContain('seat plr_1');
      // Counting on from the stored two: one live strike ended it (without them, three would have).
      const strikes = (await store.readTraces(gameId, 'plr_1')).filter((t) => tooDeep(t.entries));
      expect(strikes).toHaveLength(MAX_BOUND_STRIKES);
      // A failed game is not resumed again.
      await expect(resumePersistent(store, gameId)).rejects.toThrow(/failed .*it is not resumed/);
    } finally {
      await dispose();
    }
  });
});
