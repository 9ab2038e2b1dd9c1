import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EventStore } from '../../src/store/index.js';
import { openPgliteStore } from '../store/support.js';
import { byBytes, startSloppyServer } from './sloppy-llm-server.js';

export type PricedSloppy = { store: EventStore; dispose(): Promise<void> };

/**
 * What the LLM cost-cap tests stand on: a sloppy model (`llm:sloppy:sloppy-1`) on a real local HTTP
 * server (OpenAI wire), priced at $1 in and $4 out per million tokens — a call costs a few tenths of
 * a cent, its worst case a few cents — set as TILTYARD_PROVIDERS_FILE, and an in-memory PGlite store.
 * The providers file is read once, on the first LLM spec the process resolves (agent-spec.ts caches it).
 *
 * @example const env = await openPricedSloppy('tiltyard-cap-', 11); … await env.dispose();
 */
export async function openPricedSloppy(prefix: string, seed: number): Promise<PricedSloppy> {
  const tmp = mkdtempSync(join(tmpdir(), prefix));
  const sloppy = await startSloppyServer(seed, 'balanced', undefined, byBytes);
  const file = join(tmp, 'providers.json');
  writeFileSync(
    file,
    JSON.stringify({
      providers: { sloppy: { kind: 'openai', base_url: `${sloppy.url}/v1` } },
      prices: { 'sloppy-1': { inputPerMTok: 1, outputPerMTok: 4 } },
      max_output_tokens: 600,
    }),
  );
  process.env['TILTYARD_PROVIDERS_FILE'] = file;
  const db = await openPgliteStore();
  return {
    store: db.store,
    async dispose() {
      await db.dispose();
      await sloppy.close();
      rmSync(tmp, { recursive: true, force: true });
    },
  };
}
