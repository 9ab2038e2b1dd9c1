import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { formatIssues } from '../protocol/index.js';
import { askPosition, type PositionResult, type SeatFactory } from './position-eval.js';
import { PositionRecord } from './position-record.js';

/** A bank line that is not a position record: where and why (a value; the CLI makes it a usage error). */
export type BankProblem = { line: number; message: string };

/**
 * Reads a position bank (JSONL, one PositionRecord a line; blank lines skipped), each line parsed
 * with zod. The first bad line is returned as a problem instead of the positions.
 *
 * @example const bank = await readBank('positions/bank-v2.jsonl'); if (Array.isArray(bank)) …
 */
export async function readBank(path: string): Promise<PositionRecord[] | BankProblem> {
  const out: PositionRecord[] = [];
  let line = 0;
  for await (const text of createInterface({ input: createReadStream(path), crlfDelay: Infinity })) {
    line++;
    if (!text.trim()) continue;
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (e) {
      return { line, message: `not JSON (${(e as Error).message})` };
    }
    const parsed = PositionRecord.safeParse(json);
    if (!parsed.success) return { line, message: `not a position record: ${formatIssues(parsed.error.issues)}` };
    out.push(parsed.data);
  }
  return out;
}

export type EvalOptions = {
  /** Positions asked at once (LLM and subprocess seats gain; built-ins gain nothing). */
  concurrency: number;
  workRoot?: string;
  onProgress?: (done: number, total: number) => void;
};

/**
 * Asks the agent every position of a bank (askPosition: one fresh seat, one decision each), at most
 * `concurrency` at a time; the results come back in the bank's order whatever order they finish in.
 */
export async function evalPositions(bank: readonly PositionRecord[], seatOf: SeatFactory, o: EvalOptions): Promise<PositionResult[]> {
  const results = new Array<PositionResult>(bank.length);
  let next = 0;
  let done = 0;
  const worker = async () => {
    for (let i = next++; i < bank.length; i = next++) {
      results[i] = await askPosition(bank[i]!, seatOf, o.workRoot);
      o.onProgress?.(++done, bank.length);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(o.concurrency, bank.length)) }, worker));
  return results;
}
