/**
 * The cost cap holds with games at once: a property over seeded tournaments of LLM seats on a
 * sloppy model behind a real local HTTP server (OpenAI wire), whose usage grows with the prompt and
 * now and then runs to `max_tokens`. Whatever the concurrency (1, 4, 16) and the cap (0.001–1 USD),
 * the recorded spend never passes the cap plus one call's worst case; the games the cap cut are
 * kept out of the ratings, counted as stopped, and a resume with a higher cap finishes the schedule.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planOf } from '../../src/cli/tournament-dry-run.js';
import { createTournament } from '../../src/tournament/create.js';
import { runTournament } from '../../src/tournament/runner.js';
import { INPUT_CLOCKS } from '../../src/runner/input-clock.js';
import type { EventStore } from '../../src/store/index.js';
import { openPricedSloppy, type PricedSloppy } from '../providers/priced-sloppy.js';

let env: PricedSloppy;
let store: EventStore;

beforeAll(async () => {
  env = await openPricedSloppy('tiltyard-cap-', 11);
  store = env.store;
});
afterAll(() => env?.dispose());

/** 3 tables × 3 deals × 2 rotations = 18 short games, two LLM seats of three entrants. */
const lineup = (seed: number) => ({
  format: 'round-robin',
  entrants: ['llm:sloppy:sloppy-1', 'balanced', 'turtle'],
  seats: 2,
  seeds: 3,
  seed,
  compact: true,
});

async function capped(seed: number, cap: number, concurrency: number) {
  const created = await createTournament(store, lineup(seed));
  if (!created.ok) throw new Error(created.message);
  const id = created.tournament.tournament_id;
  const out = await runTournament(id, {
    store,
    concurrency,
    maxCostUsd: cap,
    clock: INPUT_CLOCKS.logical,
  });
  return { id, out, spent: await store.tournaments.cost(id) };
}

describe('the cost cap (a shared reservation ledger)', () => {
  it('holds at concurrency 1, 4 and 16 for caps from 0.001 to 1 USD', async () => {
    const seen: string[] = [];
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(1, 4, 16),
        fc.integer({ min: 0, max: 30 }),
        fc.nat(1_000),
        async (concurrency, step, seed) => {
          // Log-spaced from 0.001 to 1 USD.
          const cap = Number((10 ** (-3 + step / 10)).toPrecision(3));
          const { out, spent } = await capped(seed, cap, concurrency);
          seen.push(
            `cap ${cap} at ${concurrency}: spent ${spent.toFixed(5)}, worst call ${out.worst_call_usd?.toFixed(5)}, ${out.status}`,
          );
          expect(out.failed).toBe(0);
          expect(out.status === 'ended' || out.status === 'stopped_by_budget').toBe(true);
          expect(spent).toBeLessThanOrEqual(cap + (out.worst_call_usd ?? 0));
          // Every call reserves its worst case, and a server keeping to max_tokens never bills more.
          expect(spent).toBeLessThanOrEqual(cap + 1e-9);
          expect(out.planned).toBe(18);
          expect(out.done + out.stopped).toBeLessThanOrEqual(out.planned);
          if (out.status === 'stopped_by_budget') expect(out.done).toBeLessThan(18);
          // The standings count ended games only: two seats each.
          expect(out.standings.reduce((n, s) => n + s.games, 0)).toBe(2 * out.done);
        },
      ),
      // The loosest caps at every concurrency, beside what fast-check draws.
      {
        numRuns: 8,
        seed: 20261129,
        examples: [
          [1, 30, 1],
          [4, 25, 2],
          [16, 30, 3],
          [16, 20, 4],
        ],
      },
    );
    console.log(seen.join('\n'));
  });

  it('stops games mid-way at a step boundary and resumes them with a higher cap', async () => {
    const { id, out, spent } = await capped(3, 0.02, 4);
    expect(out).toMatchObject({ status: 'stopped_by_budget', max_cost_usd: 0.02 });
    expect(out.stopped).toBeGreaterThan(0);
    expect(spent).toBeLessThanOrEqual(0.02);
    const cut = (await store.tournaments.games(id)).filter((g) => g.state === 'pending');
    expect(cut.length).toBe(out.stopped);
    for (const g of cut) expect((await store.getGame(g.game_id)).last_seq).toBeGreaterThan(0);
    const done = await runTournament(id, {
      store,
      concurrency: 4,
      maxCostUsd: 100,
      clock: INPUT_CLOCKS.logical,
    });
    expect(done).toMatchObject({ status: 'ended', done: 18, failed: 0, stopped: 0, planned: 18 });
  });

  it("the dry run's bound is at least what seeded tournaments spend, with the percentile range beside it", async () => {
    for (const seed of [21, 22]) {
      const input = { ...lineup(seed), seeds: 1 };
      const plan = await planOf(store, input);
      const created = await createTournament(store, input);
      if (!created.ok) throw new Error(created.message);
      const out = await runTournament(created.tournament.tournament_id, {
        store,
        concurrency: 4,
        clock: INPUT_CLOCKS.logical,
      });
      expect(out).toMatchObject({ status: 'ended', done: 6 });
      const spent = await store.tournaments.cost(created.tournament.tournament_id);
      console.log(
        `seed ${seed}: spent ${spent.toFixed(5)}; likely ${plan.cost_usd.low.toFixed(5)}–${plan.cost_usd.high.toFixed(5)}, at most ${plan.bound_usd.toFixed(5)}`,
      );
      expect(spent).toBeGreaterThan(0);
      expect(plan.bound_usd).toBeGreaterThanOrEqual(spent);
      expect(plan.bound_usd).toBeGreaterThanOrEqual(plan.cost_usd.high);
    }
  });
});
