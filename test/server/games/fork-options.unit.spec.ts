import { describe, expect, it } from 'vitest';
import { ForkWouldLeakError, forkOptions } from '../../../src/server/games/fork-options.js';
import type { GameRecord } from '../../../src/store/index.js';

const parent = (status: string, options: Record<string, unknown>) => ({ game_id: 'game_p', status, options }) as unknown as GameRecord;

describe('forkOptions: a fork hides its prefix as long as its parent hides its log', () => {
  it('given a public undelayed parent, then an ended one forks public and undelayed', () => {
    expect(forkOptions(parent('ended', { pace_ms: 0 }), ['balanced', 'turtle'], 5)).toEqual({ pace_ms: 5, spectator_delay_ms: 0, demo: false, spectators: 'public', broadcast_held: false });
  });

  it('given a public undelayed parent that has not ended, then it is not forked: the fork would reveal its seed, and its prefix to researchers, once the fork ends', () => {
    for (const status of ['running', 'created', 'failed', 'aborted'])
      expect(() => forkOptions(parent(status, { pace_ms: 0 }), ['balanced', 'turtle'], 5)).toThrow(/not ended: a fork deals from its seed/);
  });

  it('given a parent behind a delay or broadcast, then it is not forked while it runs, and an ended one passes its delay and mode on', () => {
    for (const options of [{ spectator_delay_ms: 2000 }, { spectators: 'broadcast' }]) {
      expect(() => forkOptions(parent('running', options), ['balanced'], 0)).toThrow(ForkWouldLeakError);
      expect(() => forkOptions(parent('created', options), ['balanced'], 0)).toThrow(/fork it once it has ended/);
    }
    expect(forkOptions(parent('ended', { spectator_delay_ms: 2000, demo: true }), ['balanced'], 0)).toMatchObject({ spectator_delay_ms: 2000, spectators: 'public', demo: false });
  });

  it('given an ended broadcast, then the fork is held when the parent was or when one of its own seats could act on a broadcast', () => {
    expect(forkOptions(parent('ended', { spectators: 'broadcast' }), ['balanced', 'llm:mock'], 0)).toMatchObject({ spectators: 'broadcast', broadcast_held: false });
    expect(forkOptions(parent('ended', { spectators: 'broadcast', broadcast_held: true }), ['balanced', 'turtle'], 0)).toMatchObject({ broadcast_held: true });
    expect(forkOptions(parent('ended', { spectators: 'broadcast' }), ['balanced', 'llm:ollama:llama3'], 0)).toMatchObject({ broadcast_held: true });
  });
});
