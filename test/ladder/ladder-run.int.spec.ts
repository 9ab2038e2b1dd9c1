/**
 * The ladder runner on a real (in-memory PGlite) store: admission before a first game, suspension
 * after repeated failures, and an LLM entrant's cap (a real local HTTP provider on the OpenAI wire,
 * priced) that stops its games without overspending and benches it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admitAgent } from '../../src/ladder/admission.js';
import { suspensionCause } from '../../src/ladder/health.js';
import { runLadder, type LadderEvent } from '../../src/ladder/run-ladder.js';
import { registerPersistentGame } from '../../src/runner/persistent-runner.js';
import { INPUT_CLOCKS } from '../../src/runner/input-clock.js';
import type { DealRecord, EventStore } from '../../src/store/index.js';
import { tournamentGameId } from '../../src/tournament/game-id.js';
import { rotation } from '../../src/tournament/duplicate.js';
import { resultKey } from '../../src/ladder/ladder-standings.js';
import { openPricedSloppy, type PricedSloppy } from '../providers/priced-sloppy.js';

let env: PricedSloppy;
let store: EventStore;
const LLM = 'llm:sloppy:sloppy-1';

beforeAll(async () => {
  env = await openPricedSloppy('tiltyard-ladder-', 5);
  store = env.store;
});
afterAll(() => env?.dispose());

const logical = { clock: INPUT_CLOCKS.logical };
const seated = (deals: DealRecord[], agent: string) =>
  deals.filter((d) => d.lineup.includes(agent)).length;

describe('ladder admission', () => {
  it('given an entrant refused admission, then it is suspended with the cause before any game and never seated; built-ins pass at once', async () => {
    expect(await admitAgent('balanced')).toBeNull();
    const l = await store.ladders.create({
      name: 'admission',
      seed: 1,
      seats: 2,
      compact: true,
      entrants: ['random', 'turtle', 'balanced'].map((agent) => ({ agent })),
    });
    const asked: string[] = [];
    const admit = (agent: string) =>
      Promise.resolve(
        (asked.push(agent), agent === 'turtle' ? 'agent-check failed: talk: no answer' : null),
      );
    const out = await runLadder(l.ladder_id, { store, games: 4, admit, ...logical });
    expect(out).toMatchObject({ status: 'done', games: 4, deals: 2 });
    const after = await store.ladders.get(l.ladder_id);
    expect(after.entrants.find((e) => e.agent === 'turtle')).toMatchObject({
      status: 'suspended',
      cause: 'admission: agent-check failed: talk: no answer',
      admitted_at: null,
    });
    expect(seated(await store.ladders.deals(l.ladder_id), 'turtle')).toBe(0);
    // Each asked once: an admitted entrant is not checked again.
    await runLadder(l.ladder_id, { store, games: 2, admit, ...logical });
    expect(asked.sort()).toEqual(['balanced', 'random', 'turtle']);
  });
});

describe('ladder suspension', () => {
  it("given games that failed on an entrant's account, then their deal is void; the rule suspends at 3 bad of its last 5 with the cause, and never a built-in the failure does not name", async () => {
    const l = await store.ladders.create({
      name: 'health',
      seed: 2,
      seats: 2,
      compact: true,
      entrants: ['random', 'aggressor'].map((agent) => ({ agent })),
    });
    const id = l.ladder_id;
    // A deal whose games failed on aggressor's account (as a crashed seat's would), left `playing`.
    const lineup = ['aggressor', 'random'];
    await store.ladders.startDeal(id, { deal: 0, seed: 9, lineup });
    for (const p of [0, 1]) {
      const gameId = tournamentGameId(id, resultKey(0, p));
      await registerPersistentGame(store, {
        seed: 9,
        agents: rotation(lineup, p),
        gameId,
        rules: { windows: 'compact' },
      });
      await store.ladders.linkGame(id, {
        game_id: gameId,
        deal: 0,
        rotation: p,
        seats: rotation(lineup, p),
      });
      await store.ladders.markGame(id, gameId, { error: 'seat aggressor crashed' });
    }
    const events: LadderEvent[] = [];
    const out = await runLadder(id, {
      store,
      games: 1,
      onEvent: (e) => events.push(e),
      admit: () => Promise.resolve(null),
      ...logical,
    });
    expect(out.deals).toBe(1);
    const [deal] = await store.ladders.deals(id);
    expect(deal).toMatchObject({ status: 'void' });
    expect(deal!.cause).toMatch(/failed: seat aggressor crashed/);
    // Two bad games of two: under the rule's 3, so not yet.
    expect(events.filter((e) => e.type === 'entrant_suspended')).toEqual([]);
    const third = { ...deal!, deal: 1, games: [{ ...deal!.games[0]!, game_id: 'g3' }] };
    expect(suspensionCause([deal!, third], 'aggressor')).toMatch(
      /^3 of its last 3 games went bad \(last: failed \(g3\): seat aggressor crashed\)/,
    );
    expect(suspensionCause([deal!, third], 'random')).toBeNull();
  });
});

describe('ladder LLM caps', () => {
  it('given an LLM entrant with a total cap, then its recorded spend never passes it, the deal it cut is void, and it is suspended at its cap from then on', async () => {
    const cap = 0.03;
    const l = await store.ladders.create({
      name: 'caps',
      seed: 3,
      seats: 2,
      compact: true,
      entrants: [{ agent: LLM, max_usd_total: cap }, { agent: 'balanced' }, { agent: 'turtle' }],
    });
    const id = l.ladder_id;
    const events: LadderEvent[] = [];
    for (let i = 0; i < 30 && !events.some((e) => e.type === 'entrant_suspended'); i++)
      await runLadder(id, {
        store,
        games: 2,
        onEvent: (e) => events.push(e),
        admit: () => Promise.resolve(null),
        ...logical,
      });
    const spent = await store.ladders.spend(id, LLM);
    expect(spent).toBeGreaterThan(0);
    expect(spent).toBeLessThanOrEqual(cap + 1e-9);
    expect(events).toContainEqual(
      expect.objectContaining({
        type: 'entrant_suspended',
        agent: LLM,
        cause: expect.stringMatching(/stopped at its cap/),
      }),
    );
    const deals = await store.ladders.deals(id);
    expect(deals.some((d) => d.status === 'void' && d.cause === `${LLM} reached its cap`)).toBe(
      true,
    );
    // The next deals go on without it.
    const before = deals.length;
    await runLadder(id, { store, games: 4, admit: () => Promise.resolve(null), ...logical });
    const later = (await store.ladders.deals(id)).slice(before);
    expect(later.length).toBe(2);
    expect(later.every((d) => !d.lineup.includes(LLM) && d.status === 'done')).toBe(true);
    expect((await store.ladders.get(id)).entrants.find((e) => e.agent === LLM)?.status).toBe(
      'suspended',
    );
  }, 120_000);
});
