/**
 * Worker-thread entry of PlayWorkers: plays and prepares the whole games it is posted
 * (playAndPrepare) and posts each result or error back under the job's id.
 */
import { parentPort } from 'node:worker_threads';
import { playAndPrepare, type WholeGameJob } from './whole-game-job.js';

const port = parentPort;
if (!port) throw new Error('play-worker runs as a worker thread');
port.on('message', (msg: { id: number; job: WholeGameJob }) => {
  playAndPrepare(msg.job).then(
    (result) => port.postMessage({ id: msg.id, result }),
    (e: unknown) => port.postMessage({ id: msg.id, error: e instanceof Error ? e.message : String(e) }),
  );
});
