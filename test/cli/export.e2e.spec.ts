import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compress, decompress } from '../../src/store/cold-codec.js';
import { jsonbText } from '../../src/store/jsonb-text.js';
import { actionsSeal } from '../../src/store/verify-cold.js';
import { EXPORT_CSV_COLUMNS } from '../../src/research/export-csv.js';
import { ExportRecord, exportRecordJsonSchema } from '../../src/research/export-record.js';
import { fold } from '../../src/game/index.js';
import { readLog } from '../../src/runner/stored-game.js';
import { openStore, stateHash } from '../../src/store/index.js';
import { tiltyardInProcess } from './in-process.js';
import { tiltyardWith, type CliRun } from './run-cli.js';

/**
 * `tiltyard export` over two small stored tournaments: built-ins stored whole (no traces) and an
 * llm:mock line-up stored step by step (traced, with reasoning). The export must validate against
 * its checked-in JSON Schema, hold one record per stored decision, and never show a seat another
 * seat's hand (checked against the admin state at each decision's seq).
 */
const tmp = mkdtempSync(join(tmpdir(), 'tiltyard-export-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const dataDir = join(tmp, 'data');
const where = { cwd: tmp, env: { TILTYARD_DATA_DIR: dataDir, DATABASE_URL: undefined } };
const here = (...args: string[]): Promise<CliRun> => tiltyardInProcess(where, ...args);

const BUILTINS = ['tournament', '--agents', 'random,balanced,aggressor,turtle,manipulator,trickster', '--seats', '4', '--format', 'round-robin', '--seeds', '1', '--games', '4', '--compact', '--clock', 'logical', '--seed', '3', '--json'];
const LLM = ['tournament', '--agents', 'llm:mock,random,balanced,aggressor', '--seats', '4', '--format', 'round-robin', '--seeds', '1', '--compact', '--clock', 'logical', '--seed', '5', '--json'];

const jsonl = (text: string): unknown[] => text.trimEnd().split('\n').filter(Boolean).map((l) => JSON.parse(l) as unknown);

/** RFC 4180 rows (quoted cells may hold commas, quotes and line breaks). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted && c === '"' && text[i + 1] === '"') {
      cell += '"';
      i++;
    } else if (c === '"') quoted = !quoted;
    else if (quoted || (c !== ',' && c !== '\n')) cell += c;
    else {
      row.push(cell);
      cell = '';
      if (c === '\n') {
        rows.push(row);
        row = [];
      }
    }
  }
  return rows;
}

let builtinsId = '';
let llmId = '';

beforeAll(async () => {
  const a = await here(...BUILTINS);
  expect(a.code, a.stderr).toBe(0);
  builtinsId = (JSON.parse(a.stdout) as { tournament_id: string }).tournament_id;
  const b = await here(...LLM);
  expect(b.code, b.stderr).toBe(0);
  llmId = (JSON.parse(b.stdout) as { tournament_id: string }).tournament_id;
}, 600_000);

describe('tiltyard export', () => {
  it('writes one schema-valid record per stored decision, each request the seat’s own view only', async () => {
    // The spawned bin, to a file, with progress lines.
    const out = join(tmp, 'all.jsonl');
    const run = await tiltyardWith(where, 'export', '--format', 'jsonl', '--out', out, '--progress');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^exported game_\S+ \(1\/8\) · [\d,]+ records\n/);
    expect(run.stderr).toMatch(/\(8\/8\)[^\n]*\nexported [\d,]+ decisions from 8 games to /);
    const records = jsonl(readFileSync(out, 'utf8'));

    // The checked-in schema is the one zod generates, and every record passes it (and zod).
    const schema = JSON.parse(readFileSync(join(import.meta.dirname, '../../docs/schemas/export-record.schema.json'), 'utf8')) as Record<string, unknown>;
    expect(schema).toEqual(exportRecordJsonSchema());
    const validate = new Ajv({ allErrors: true }).compile(schema);
    for (const r of records) {
      expect(validate(r), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true);
      ExportRecord.parse(r);
    }
    const typed = records as ExportRecord[];

    const store = await openStore({ dataDir });
    try {
      const games = [...new Set(typed.map((r) => r.game_id))];
      expect(games).toHaveLength(8);
      let stored = 0;
      for (const id of games) {
        const actions = await store.readActions(id);
        stored += actions.length;
        const mine = typed.filter((r) => r.game_id === id);
        expect(mine.map((r) => [r.seq, r.player_id, r.attempt])).toEqual(actions.map((a) => [Number(a.seq_before), a.player_id, Number(a.attempt)]));
        const game = await store.getGame(id);
        // The admin state at each decision's seq: the stored log folded on from seq 0, one pass a
        // game (stateAt per record re-read a snapshot and re-folded up to 200 events each time);
        // the last one must be the store's own latest state.
        const log = await readLog(store, id);
        let state = await store.stateAt(id, 0);
        for (const r of mine) {
          if (r.seq !== state.seq) state = fold(state, log.slice(state.seq, r.seq));
          expect(state.seq).toBe(r.seq);
          const own = state.players.find((p) => p.player_id === r.player_id)!;
          expect(r.request.player_private_view.hand.map((c) => c.card_id)).toEqual(own.hand);
          const text = JSON.stringify(r.request);
          for (const other of state.players.filter((p) => p.player_id !== r.player_id))
            for (const card of other.hand) expect(text, `${id} seq ${r.seq}: ${r.player_id} sees ${other.player_id}'s ${card}`).not.toContain(`"${card}"`);
          expect(r.request.player_id).toBe(r.player_id);
          expect(r.outcome.final_placement).toBe(game.placements!.find((p) => p.player_id === r.player_id)!.placement);
          expect(r.outcome.events.every((e) => e.seq > r.seq)).toBe(true);
        }
        expect(stateHash(fold(state, log.slice(state.seq)))).toBe(stateHash(await store.stateAt(id)));
      }
      expect(typed).toHaveLength(stored);
      // Built-in seats store no traces (reproducible from the game, issue 29); the step-by-step
      // llm:mock games trace their LLM seats.
      const whole = new Set((await store.tournaments.games(builtinsId)).map((g) => g.game_id));
      expect(whole.size).toBe(4);
      for (const r of typed) expect(r.trace === null, `${r.game_id} ${r.agent}`).toBe(whole.has(r.game_id) || r.agent !== 'llm:mock');
    } finally {
      await store.close();
    }

    // The model's reasoning and token use come from its traces.
    const llmSeat = typed.filter((r) => r.agent === 'llm:mock');
    expect(llmSeat.length).toBeGreaterThan(0);
    expect(llmSeat.some((r) => r.reasoning !== null && r.reasoning.length > 0)).toBe(true);
    expect(llmSeat.some((r) => (r.trace?.tokens ?? 0) > 0)).toBe(true);
  }, 600_000);

  it('--format csv: a header of the schema’s columns, then the same records with nested parts as JSON', async () => {
    const [j, c] = [await here('export', '--tournament', llmId), await here('export', '--tournament', llmId, '--format', 'csv')];
    expect(j.code, j.stderr).toBe(0);
    expect(c.code, c.stderr).toBe(0);
    const records = jsonl(j.stdout) as ExportRecord[];
    const [header, ...rows] = parseCsv(c.stdout);
    expect(header).toEqual(EXPORT_CSV_COLUMNS);
    expect(rows).toHaveLength(records.length);
    const col = (name: string) => EXPORT_CSV_COLUMNS.indexOf(name);
    rows.forEach((row, i) => {
      const r = records[i]!;
      expect(row).toHaveLength(EXPORT_CSV_COLUMNS.length);
      expect(row[col('game_id')]).toBe(r.game_id);
      expect(Number(row[col('seq')])).toBe(r.seq);
      expect(JSON.parse(row[col('request')]!)).toEqual(r.request);
      expect(row[col('decision')] === '' ? null : JSON.parse(row[col('decision')]!)).toEqual(r.decision);
      expect(JSON.parse(row[col('outcome_events')]!)).toEqual(r.outcome.events);
      expect(row[col('reasoning')]).toBe(r.reasoning ?? '');
      expect(row[col('wpa')]).toBe(r.wpa === null ? '' : String(r.wpa));
    });
    // The games ended: every decision that counted has its win probability added.
    expect(records.filter((r) => r.accepted).every((r) => typeof r.wpa === 'number')).toBe(true);
  }, 600_000);

  it('selects by tournament, agent, status and limit', async () => {
    const count = async (...args: string[]) => {
      const r = await here('export', ...args);
      expect(r.code, r.stderr).toBe(0);
      return new Set((jsonl(r.stdout) as ExportRecord[]).map((x) => x.game_id));
    };
    expect((await count('--tournament', builtinsId)).size).toBe(4);
    const llmGames = await count('--agent', 'llm:mock');
    expect(llmGames).toEqual(await count('--tournament', llmId));
    expect((await count('--status', 'ended', '--limit', '3')).size).toBe(3);
    expect((await count('--status', 'running')).size).toBe(0);
  }, 600_000);

  it('skips a game whose recorded decisions no longer replay to its log, exports the others, exits 1', async () => {
    const before = await here('export', '--tournament', builtinsId);
    const victim = (jsonl(before.stdout) as ExportRecord[])[0]!;
    // The tournament's games are stored compacted (cold_actions): the decision is altered inside
    // the compressed actions blob, resealed (as someone rewriting the store would: an unsealed edit
    // is refused on read before replay is tried), and the blob put back as it was afterwards.
    const blob = async (data?: string): Promise<string> => {
      const store = await openStore({ dataDir });
      try {
        if (data !== undefined) {
          const [head] = await store.ctx.sql.rows<{ hash: string }>(`SELECT last_hash AS hash FROM games WHERE game_id = $1`, [victim.game_id]);
          const seal = actionsSeal(head!.hash, Buffer.from(data, 'base64'));
          await store.ctx.sql.rows(`UPDATE cold_actions SET data = decode($2, 'base64'), seal = $3 WHERE game_id = $1`, [victim.game_id, data, seal]);
        }
        const [row] = await store.ctx.sql.rows<{ data: string }>(`SELECT encode(data, 'base64') AS data FROM cold_actions WHERE game_id = $1`, [victim.game_id]);
        return row!.data;
      } finally {
        await store.close();
      }
    };
    const original = await blob();
    const tuples = JSON.parse(decompress(Buffer.from(original, 'base64'))) as unknown[][];
    const at = tuples.findIndex((t) => t[0] === victim.seq && t[1] === victim.player_id && t[2] === victim.attempt);
    expect(at).toBeGreaterThanOrEqual(0);
    tuples[at]![6] = jsonbText({ selected_action: { kind: 'pass' }, tampered: true });
    await blob(compress(JSON.stringify(tuples)).toString('base64'));
    try {
      const r = await here('export', '--tournament', builtinsId);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(new RegExp(`^tiltyard: skipped ${victim.game_id}: game ${victim.game_id} diverges at seq \\d+`));
      expect(r.stderr).toMatch(/exported [\d,]+ decisions from 3 games; 1 skipped\n$/);
      const games = new Set((jsonl(r.stdout) as ExportRecord[]).map((x) => x.game_id));
      expect(games.size).toBe(3);
      expect(games.has(victim.game_id)).toBe(false);
    } finally {
      await blob(original);
    }
    expect((await here('export', '--tournament', builtinsId)).stdout).toBe(before.stdout);
  }, 600_000);

  it('exports compacted games (cold storage) exactly as it exported them hot', async () => {
    const hot = await here('export');
    expect(hot.code, hot.stderr).toBe(0);
    const compact = await here('store', 'compact');
    expect(compact.code, compact.stderr).toBe(0);
    const cold = await here('export');
    expect(cold.code, cold.stderr).toBe(0);
    expect(cold.stdout).toBe(hot.stdout);
  }, 600_000);

  it.each([
    [['--format', 'xml'], 2, /^tiltyard: --format: must be jsonl or csv, got "xml"\n$/],
    [['--limit', '0'], 2, /^tiltyard: --limit: must be a whole number ≥ 1/],
    [['--status', 'done'], 2, /^tiltyard: --status: must be one of created, running, ended, aborted, failed, got "done"/],
    [['--nope'], 2, /^tiltyard: unknown flag --nope/],
    [['--tournament', 'trn_missing'], 1, /^tiltyard: .*trn_missing/],
    [['--out', '/nonexistent-dir/x.jsonl'], 2, /^tiltyard: --out: cannot write \/nonexistent-dir\/x.jsonl \(ENOENT\)\n$/],
  ])('export %j exits %i', async (args, code, stderr) => {
    const r = await here('export', ...args);
    expect(r.code).toBe(code);
    expect(r.stderr).toMatch(stderr);
    expect(r.stdout).toBe('');
  });
});
