import { describe, expect, it } from 'vitest';
import { branchPoint, drawsPhrase, forkAgents, forkOutcome, type ForkSummary } from '../../src/view/index.js';

const seats: ForkSummary['seats'] = [
  { seat: 1, player_id: 'plr_2', agent: 'turtle', display_name: 'Bo' },
  { seat: 0, player_id: 'plr_1', agent: 'balanced' },
];

describe('a fork’s lineage in words', () => {
  it('says where it branched and what its draws do', () => {
    expect(branchPoint(160, 4)).toBe('round 4 (seq 160)');
    expect(branchPoint(160, null)).toBe('seq 160');
    expect(drawsPhrase({ same_deck: true })).toBe('the same draws');
    expect(drawsPhrase({ same_deck: false, reseed: 7 })).toBe('new draws (reseed 7)');
    // Its secret is the caller's once the fork has ended; until then only that it draws anew.
    expect(drawsPhrase({ same_deck: false })).toBe('new draws (reseed secret until it ends)');
    // Forks made before secrets reseeded the PRNG alone; older lineage did not say same_deck.
    expect(drawsPhrase({ same_deck: true, reseed: 7 })).toBe('the same deck, a new PRNG (reseed 7)');
    expect(drawsPhrase({ reseed: 7 })).toBe('new draws (reseed 7)');
    expect(drawsPhrase({})).toBe('the same draws');
    expect(forkAgents({ seats })).toBe('balanced, turtle');
  });

  it('says how it stands: the winner by name and agent, a shared first place, or its status', () => {
    const ended = (placements: ForkSummary['placements']) => forkOutcome({ status: 'ended', seats, placements });
    expect(ended([{ player_id: 'plr_2', placement: 1 }, { player_id: 'plr_1', placement: 2 }])).toBe('Bo (turtle) won');
    expect(ended([{ player_id: 'plr_1', placement: 1 }, { player_id: 'plr_2', placement: 1 }])).toBe('balanced and Bo (turtle) shared first place');
    // Ended, but its end not yet the caller's to see (placements withheld).
    expect(ended(null)).toBe('ended');
    expect(forkOutcome({ status: 'running', seats, placements: null })).toBe('still playing');
    expect(forkOutcome({ status: 'created', seats, placements: null })).toBe('queued');
    expect(forkOutcome({ status: 'failed', seats, placements: null })).toBe('failed');
  });
});
