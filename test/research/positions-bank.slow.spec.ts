import { statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAgentSpec } from '../../src/agents/seat/agent-spec.js';
import { createSeat } from '../../src/agents/seat/create-seat.js';
import { evalPositions, readBank } from '../../src/research/position-bank.js';
import type { PositionRecord } from '../../src/research/position-record.js';
import { positionsReport, type PositionsReport } from '../../src/research/position-report.js';
import { scorePosition } from '../../src/research/position-score.js';

/**
 * The shipped bank (positions/bank-v1.jsonl): it parses, its values are what scorePosition gives
 * (spot-checked: rescoring all 200 takes minutes), and `positions eval` over it is deterministic
 * and ranks expert above balanced above random by mean regret over the whole bank (the expert's
 * own search is most of this file's cost: ≈ 25 CPU s for the 200 positions). docs/research.md
 * gives the figures.
 */
const FILE = join(import.meta.dirname, '..', '..', 'positions', 'bank-v1.jsonl');

async function bank(): Promise<PositionRecord[]> {
  const b = await readBank(FILE);
  if (!Array.isArray(b)) throw new Error(`bank line ${b.line}: ${b.message}`);
  return b;
}

async function evaluate(agent: string, positions: readonly PositionRecord[]): Promise<PositionsReport> {
  const spec = parseAgentSpec(agent);
  if (!spec.ok) throw new Error(spec.message);
  return positionsReport(agent, 'bank-v1.jsonl', await evalPositions(positions, (ctx) => createSeat(spec.agent, ctx), { concurrency: 1 }));
}

describe('the shipped position bank', () => {
  it('holds about 200 scored positions from distinct games, small enough to ship, and rescoring gives its values', async () => {
    const b = await bank();
    expect(b.length).toBe(200);
    expect(new Set(b.map((p) => p.position_id)).size).toBe(200);
    expect(new Set(b.map((p) => p.game_id)).size).toBeGreaterThanOrEqual(20);
    expect(statSync(FILE).size).toBeLessThan(3 * 1024 * 1024);
    for (const p of [b[0]!, b[199]!]) {
      const again = scorePosition(p.request, { worlds: p.scoring.worlds, seed: p.scoring.seed })!;
      expect(again.options).toEqual(p.options);
      expect(again.best).toBe(p.best);
    }
  });

  it('gives the same report twice for a built-in and for llm:mock', async () => {
    const b = await bank();
    for (const agent of ['balanced', 'llm:mock']) expect(await evaluate(agent, b)).toEqual(await evaluate(agent, b));
  });

  it('ranks expert above balanced above random by mean regret', async () => {
    const b = await bank();
    const [expert, balanced, random] = await Promise.all(['expert', 'balanced', 'random'].map((a) => evaluate(a, b)));
    expect(expert!.mean_regret!.value).toBeLessThan(balanced!.mean_regret!.value);
    expect(balanced!.mean_regret!.value).toBeLessThan(random!.mean_regret!.value);
    for (const r of [expert!, balanced!, random!]) expect(r.legality!.value).toBe(1);
  });
});
