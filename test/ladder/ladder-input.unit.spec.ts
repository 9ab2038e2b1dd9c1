import { describe, expect, it } from 'vitest';
import { CreateLadderInput, EntrantInput, issues } from '../../src/ladder/ladder-input.js';

describe('ladder input', () => {
  it('given a human seat among the entrants, then it is refused in words (a ladder plays unattended)', () => {
    for (const agent of ['human', 'human:Ada']) {
      const r = CreateLadderInput.safeParse({
        name: 'h',
        entrants: [{ agent }, { agent: 'random' }, { agent: 'turtle' }],
        seats: 3,
      });
      expect(r.success).toBe(false);
      expect(issues(r.error!)).toMatch(/takes no human seats/);
      expect(EntrantInput.safeParse({ agent }).success).toBe(false);
    }
  });

  it('given built-ins, then the ladder is read with its defaults', () => {
    const r = CreateLadderInput.parse({
      name: 'b',
      entrants: [{ agent: 'random' }, { agent: 'turtle' }],
      seats: 2,
    });
    expect(r).toMatchObject({ seats: 2, compact: false, seed: 0 });
  });
});
