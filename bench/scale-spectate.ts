/**
 * The spectator measurement of bench:scale: `clients` socket.io spectators in `procs` processes
 * (bench/fixtures/spectate-clients.mjs) spread over the API nodes' urls, one game created on the
 * first node, and the p50/p99 of client receipt − committed_at over every delivery. A client
 * process that dies before reporting fails the phase (with its exit code), never hangs it.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Bench } from './scale-harness.js';

type Done = { deliveries: number; missed: number; duplicates: number; resyncs: number; disconnects: number; since_commit: Record<string, number> };
export type SpectateResult = { p50: number; p99: number; deliveries: number; missed: number; duplicates: number; resyncs: number; disconnects: number };

export async function spectate(b: Bench, urls: string[], o: { clients: number; procs: number; admin: string; game: Record<string, unknown> }): Promise<SpectateResult> {
  const script = join(import.meta.dirname, 'fixtures', 'spectate-clients.mjs');
  const ready: Promise<void>[] = [];
  const done: Promise<Done>[] = [];
  const stdins: NodeJS.WritableStream[] = [];
  for (let i = 0; i < o.procs; i++) {
    const child = spawn(process.execPath, [script, urls[i % urls.length]!, String(o.clients / o.procs)], { stdio: ['pipe', 'pipe', 'inherit'] });
    b.procs.push(child);
    stdins.push(child.stdin);
    let onReady!: () => void;
    let onDone!: (d: Done) => void;
    let onFail!: (e: Error) => void;
    const failed = new Promise<never>((_, reject) => (onFail = reject));
    failed.catch(() => undefined);
    ready.push(Promise.race([new Promise<void>((r) => (onReady = r)), failed]));
    done.push(Promise.race([new Promise<Done>((r) => (onDone = r)), failed]));
    child.on('exit', (code, signal) => onFail(new Error(`spectator process ${i} exited (${code ?? signal}) before reporting`)));
    createInterface({ input: child.stdout }).on('line', (l) => {
      let m: { type: string } & Done;
      try {
        m = JSON.parse(l) as typeof m;
      } catch {
        return onFail(new Error(`spectator process ${i} printed a line that is not JSON: ${l.slice(0, 200)}`));
      }
      if (m.type === 'ready') onReady();
      else onDone(m);
    });
  }
  await Promise.all(ready);
  const res = await fetch(`${urls[0]}/games`, { method: 'POST', headers: { authorization: `Bearer ${o.admin}`, 'content-type': 'application/json' }, body: JSON.stringify(o.game) });
  if (res.status !== 201) throw new Error(`POST /games: ${res.status} ${await res.text()}`);
  const { game_id } = (await res.json()) as { game_id: string };
  for (const s of stdins) s.write(`${JSON.stringify({ gameId: game_id })}\n`);
  const results = await Promise.all(done);
  const hist = new Map<number, number>();
  for (const r of results) for (const [ms, n] of Object.entries(r.since_commit)) hist.set(Number(ms), (hist.get(Number(ms)) ?? 0) + n);
  const sorted = [...hist].sort((a, b) => a[0] - b[0]);
  const total = sorted.reduce((s, [, n]) => s + n, 0);
  const at = (q: number) => {
    let seen = 0;
    for (const [ms, n] of sorted) if ((seen += n) >= q * total) return ms;
    return sorted.at(-1)?.[0] ?? 0;
  };
  const sum = (k: 'deliveries' | 'missed' | 'duplicates' | 'resyncs' | 'disconnects') => results.reduce((s, r) => s + r[k], 0);
  return { p50: at(0.5), p99: at(0.99), deliveries: sum('deliveries'), missed: sum('missed'), duplicates: sum('duplicates'), resyncs: sum('resyncs'), disconnects: sum('disconnects') };
}
