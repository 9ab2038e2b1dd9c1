import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { RunnerError } from '../runner/runner-errors.js';
import type { WholeGameDone, WholeGameJob } from './whole-game-job.js';

type Pending = { resolve: (r: WholeGameDone) => void; reject: (e: Error) => void };
type Slot = { worker: Worker; pending: Map<number, Pending> };

/**
 * A worker running play-worker, beside this file. Built, that is plain .js. Run from TypeScript
 * sources (tsx, vitest) it is a .ts file, which a worker loads only once tsx's loader is
 * registered in it (a worker started under vitest inherits no loader).
 */
function startWorker(): Worker {
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL('./play-worker.js', import.meta.url));
  // tsx's ESM api, found through its package exports (its CommonJS build points at a missing file).
  const require = createRequire(import.meta.url);
  const pkg = require.resolve('tsx/package.json');
  const exp = (require(pkg) as { exports: Record<string, { import: { default: string } }> }).exports['./esm/api']!;
  const api = pathToFileURL(join(dirname(pkg), exp.import.default)).href;
  const entry = new URL('./play-worker.ts', import.meta.url).href;
  return new Worker(`import(${JSON.stringify(api)}).then((t) => { t.register(); return import(${JSON.stringify(entry)}); })`, { eval: true });
}

/**
 * Worker threads that play deterministic games and prepare them for storing (playAndPrepare),
 * so a built-in tournament uses more than the one core its event loop gets: the main thread
 * only writes. A job posted to the least busy worker; a worker that dies fails its own jobs only
 * (each is its game's failure) and is replaced by the next job. An idle worker does not keep the
 * process alive; close() ends them all.
 *
 * @example const workers = new PlayWorkers(1); const { prepared } = await workers.run(job); await workers.close()
 */
export class PlayWorkers {
  /** Threads started by every pool of this process so far (what a caller asked for is what it got). */
  static started = 0;
  private readonly slots: (Slot | null)[];
  private nextId = 1;

  constructor(readonly size: number) {
    if (!Number.isInteger(size) || size < 1) throw new RangeError(`workers must be a positive integer, got ${size}`);
    this.slots = Array.from({ length: size }, () => null);
  }

  run(job: WholeGameJob): Promise<WholeGameDone> {
    const slot = this.leastBusy();
    const id = this.nextId++;
    return new Promise<WholeGameDone>((resolve, reject) => {
      slot.pending.set(id, { resolve, reject });
      slot.worker.ref();
      slot.worker.postMessage({ id, job });
    });
  }

  async close(): Promise<void> {
    const open = this.slots.filter((s): s is Slot => s !== null);
    this.slots.fill(null);
    await Promise.all(open.map((s) => s.worker.terminate()));
  }

  private leastBusy(): Slot {
    let best = 0;
    for (let i = 0; i < this.slots.length; i++) {
      const s = this.slots[i];
      if (!s) return (this.slots[i] = this.spawn(i));
      if (s.pending.size < this.slots[best]!.pending.size) best = i;
    }
    return this.slots[best]!;
  }

  private spawn(index: number): Slot {
    const worker = startWorker();
    PlayWorkers.started++;
    const slot: Slot = { worker, pending: new Map() };
    worker.on('message', (msg: { id: number; result?: WholeGameDone; error?: string }) => {
      const p = slot.pending.get(msg.id);
      if (!p) return;
      slot.pending.delete(msg.id);
      if (slot.pending.size === 0) worker.unref();
      if (msg.result) p.resolve(msg.result);
      else p.reject(new RunnerError(msg.error ?? 'the play worker gave no result'));
    });
    const lost = (why: string) => {
      if (this.slots[index] === slot) this.slots[index] = null;
      for (const p of slot.pending.values()) p.reject(new RunnerError(`the play worker ${why}`));
      slot.pending.clear();
    };
    worker.on('error', (e) => lost(`failed: ${e.message}`));
    worker.on('exit', (code) => lost(`exited (code ${code})`));
    return slot;
  }
}
