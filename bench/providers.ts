/**
 * What routing and validation add to an LLM decision, over the provider's own time: the LLM seat
 * plays whole games against the deterministic mock (no simulated latency); a timing proxy around
 * the mock measures the time spent inside provider calls; the rest of each decision (prompt,
 * schema, routing, budgets, zod validation, memory, trace) is the overhead. Target ≤ 1 ms.
 *
 *   npm run bench:providers            # 40 games after a warm-up
 *   npm run bench:providers -- --games 100
 */
import { cpus } from 'node:os';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { LLM_SKILL_DIR } from '../src/agents/seat/agent-spec.js';
import { llmSeat } from '../src/agents/llm/llm-seat.js';
import type { SeatAgent } from '../src/agents/seat/types.js';
import { createSeat } from '../src/agents/seat/create-seat.js';
import { parseAgentSpec } from '../src/agents/seat/agent-spec.js';
import { seatConfigs } from '../src/runner/lineup.js';
import { playGame } from '../src/runner/play-game.js';
import { mockProvider } from '../src/providers/mock.js';
import type { Provider } from '../src/providers/types.js';

const { values } = parseArgs({ options: { games: { type: 'string', default: '40' } } });
const GAMES = Number(values.games);

let insideMs = 0;
let calls = 0;
const mock = mockProvider();
const timed: Provider = {
  name: 'mock',
  async call(req) {
    const t = performance.now();
    const r = await mock.call(req);
    insideMs += performance.now() - t;
    calls++;
    return r;
  },
};

const lineup = ['llm:mock', 'balanced', 'llm:mock', 'aggressor'];
const perDecision: number[] = [];

async function play(seed: number, record: boolean): Promise<void> {
  const seats: SeatAgent[] = lineup.map((spec, seat) => {
    if (spec !== 'llm:mock') {
      const r = parseAgentSpec(spec);
      if (!r.ok) throw new Error(r.message);
      return createSeat(r.agent, { gameSeed: seed, seat });
    }
    const inner = llmSeat(spec, { gameSeed: seed, seat, trace: true }, {
      providers: new Map([['mock', timed]]),
      chain: [{ provider: 'mock', model: 'mock' }],
      budgets: { decision: { wall_ms: 60_000 }, game: {} },
      maxOutputTokens: 1200,
      deadlineMs: 30_000,
      skillDir: LLM_SKILL_DIR,
    });
    return {
      ...inner,
      async decide(request) {
        const before = insideMs;
        const t = performance.now();
        const answer = await inner.decide(request);
        if (record) perDecision.push(performance.now() - t - (insideMs - before));
        return answer;
      },
    };
  });
  await playGame({ seats: seatConfigs(lineup) }, seed, seats);
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return Math.round((s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? 0) * 1000) / 1000;
};

for (let g = 0; g < 5; g++) await play(10_000 + g, false);
insideMs = 0;
calls = 0;
const start = performance.now();
for (let g = 0; g < GAMES; g++) await play(1 + g, true);
const wallMs = performance.now() - start;
const overhead = perDecision.reduce((a, b) => a + b, 0) / perDecision.length;
console.log(
  JSON.stringify({
    bench: 'providers',
    games: GAMES,
    llmDecisions: perDecision.length,
    providerCalls: calls,
    mockMsPerCall: Math.round((insideMs / Math.max(1, calls)) * 1000) / 1000,
    overheadMsPerDecision: { mean: Math.round(overhead * 1000) / 1000, p50: pct(perDecision, 0.5), p90: pct(perDecision, 0.9), p99: pct(perDecision, 0.99) },
    target: 1,
    withinTarget: overhead <= 1,
    wallMs: Math.round(wallMs),
    machine: { cpus: cpus().length, node: process.version },
  }),
);
