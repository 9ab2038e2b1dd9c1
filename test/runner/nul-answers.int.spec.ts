import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runPersistent } from '../../src/runner/persistent-runner.js';
import { readDecisions } from '../../src/runner/stored-game.js';
import { verifyGame } from '../../src/runner/verify-game.js';
import { openPgliteStore } from '../store/support.js';
import { writeSkillAgent } from './skill-agent.js';

const tmp = mkdtempSync(join(tmpdir(), 'tiltyard-nul-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/**
 * A hostile agent whose every answer holds U+0000 in a key and in a value. JSON can say it
 * (`\u0000`), but PostgreSQL's jsonb, where decisions are stored, cannot hold it.
 */
function nulAgent(): string {
  return writeSkillAgent(
    tmp,
    'nul-agent',
    [
      '#!/bin/sh',
      'cat > /dev/null',
      "cat <<'EOF'",
      '{"version":"0","type":"log","level":"info","message":"thinking\\u0000","fields":{"k\\u0000":"v\\u0000"}}',
      '{"version":"0","type":"state_patch","patch":{"decision":{"tactical_intent":"defend","n\\u0000ote":"a\\u0000b"}}}',
      '{"version":"0","type":"done","ok":true}',
      'EOF',
      '',
    ].join('\n'),
  );
}

describe('an agent answering with U+0000', () => {
  it('given every answer and log line holding U+0000 in a key and a value, then its game is stored to the end with U+FFFD in their place, and verifies', async () => {
    const { store, dispose } = await openPgliteStore();
    try {
      const out = await runPersistent(store, { seed: 5, agents: [`skill:${nulAgent()}`, 'random'], rules: { round_cap: 2 } });
      expect(out.status).toBe('ended');
      const mine = (await readDecisions(store, out.gameId)).filter((d) => d.player_id === 'plr_1');
      expect(mine.length).toBeGreaterThan(0);
      for (const d of mine) expect(d.raw).toEqual({ tactical_intent: 'defend', 'n\uFFFDote': 'a\uFFFDb' });
      // What it logged is kept too, U+0000 replaced likewise.
      const traces = JSON.stringify(await store.readTraces(out.gameId, 'plr_1'));
      expect(traces).toContain('thinking\uFFFD');
      expect(traces).not.toContain('\\u0000');
      const verdict = await verifyGame(store, out.gameId);
      expect(verdict.assertions.filter((a) => a.status === 'fail')).toEqual([]);
    } finally {
      await dispose();
    }
  });
});
