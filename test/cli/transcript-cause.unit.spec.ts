import { describe, expect, it } from 'vitest';
import { formatTranscript } from '../../src/cli/transcript.js';
import { awaiting, initialState, stepInPlace } from '../../src/game/index.js';
import type { GameEvent } from '../../src/protocol/index.js';

/** A started game whose first awaited seat gave no answer: the engine's rejection of an undefined input. */
function missingAnswer(): { events: GameEvent[]; seat: string; window: string } {
  const state = initialState({ seats: 2 }, 7);
  const started = stepInPlace(state, { type: 'start' });
  if (!started.ok) throw new Error(started.rejection.message);
  const next = awaiting(state)!;
  const seat = next.seats[0]!;
  const res = stepInPlace(state, { type: 'decision', player_id: seat, window: next.window, decision: undefined });
  if (!res.ok) throw new Error(res.rejection.message);
  return { events: [...started.events, ...res.events], seat, window: next.window };
}

describe('the transcript of a missing answer', () => {
  it('given the seat’s failure, then the line says what happened instead of the engine’s "received undefined"', () => {
    const { events, seat, window } = missingAnswer();
    const causes = new Map([[`${seat}/${window}`, ['provider/unavailable: connection refused (ECONNREFUSED 127.0.0.1:9)']]]);
    const text = formatTranscript(events, { noAnswerCause: (p, w) => causes.get(`${p}/${w}`)?.shift() ?? null });
    // The first window is the secret plan: its missing answer is defaulted, and the line says why.
    expect(window).toBe('intent');
    expect(text).toContain('(defaulted: no answer — provider/unavailable: connection refused (ECONNREFUSED 127.0.0.1:9))');
  });

  it('given no cause, then the transcript says nothing of one', () => {
    const { events } = missingAnswer();
    expect(formatTranscript(events)).not.toContain('no answer —');
  });
});
