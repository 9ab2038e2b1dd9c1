import { createHash } from 'node:crypto';
import { chmodSync, lstatSync, mkdirSync, rmSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';

/**
 * The embedded database is one process's (PGlite is Postgres in this process's memory), so the
 * server that holds it serves it to the CLI on a unix socket, speaking the PostgreSQL wire
 * protocol: `tiltyard games`, `run`, `replay`, `verify`… beside `tiltyard serve` connect to it with
 * the pg driver and see, and write, the server's games.
 *
 * Why not `@electric-sql/pglite-socket`: it runs each protocol message as it comes, so another
 * client, or this process's own queries, can slip between a client's Parse and its Execute, or into
 * its open transaction. Here a client's messages run as one batch up to Sync (or a simple Query),
 * under PGlite's own transaction lock, the one its query(), exec() and transaction() take; and a
 * client that leaves a transaction open keeps that lock until it ends it, so nobody's statements
 * land in anybody else's transaction. A client idle inside a transaction longer than
 * IDLE_IN_TRANSACTION_MS is cut off (its transaction rolled back), so a stuck client cannot stall
 * the server.
 *
 * The socket is `<dir>/.s.PGSQL.5432` (the name libpq and pg expect for `host=<dir>`) in a folder
 * only this user can enter (0700), the socket itself 0600.
 */

const PORT = 5432;
const IDLE_IN_TRANSACTION_MS = 30_000;
/** sockaddr_un holds 108 bytes with the NUL: longer paths cannot be bound. */
const MAX_SOCKET_PATH = 103;

const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;
const CANCEL_REQUEST = 80877102;
const PROTOCOL_3 = 196608;

/**
 * Where a data folder's socket lives: beside the database (`<dataDir>/pglite.socket/`), or, when
 * that path is too long to bind, in the temp folder under a name derived from it.
 */
export function socketDirFor(pgliteDir: string): string {
  const near = `${pgliteDir}.socket`;
  if (join(near, `.s.PGSQL.${PORT}`).length <= MAX_SOCKET_PATH) return near;
  const uid = process.getuid?.() ?? 0;
  return join(tmpdir(), `tiltyard-${uid}-${createHash('sha256').update(pgliteDir).digest('hex').slice(0, 16)}`);
}

/** The socket file inside a socket folder. */
export const socketPath = (dir: string): string => join(dir, `.s.PGSQL.${PORT}`);

/** A pg connection string for the database served in `dir`. */
export const socketUrl = (dir: string): string => `postgresql://postgres@localhost:${PORT}/postgres?host=${encodeURIComponent(dir)}`;

export type SharedDatabase = {
  /** The socket folder (pg `host`). */
  dir: string;
  /** Stops listening, cuts every client off (rolling back what they left open). */
  close(): Promise<void>;
};

/** A simple-protocol Query message. */
function queryMessage(sql: string): Uint8Array {
  const text = Buffer.from(`${sql}\0`);
  const msg = Buffer.alloc(5 + text.length);
  msg[0] = 0x51; // 'Q'
  msg.writeInt32BE(4 + text.length, 1);
  text.copy(msg, 5);
  return msg;
}

/** PGlite's transaction lock (what its public query/exec/transaction take), held until release(). */
function takeLock(db: PGlite): Promise<() => void> {
  return new Promise((leased) => {
    void db._runExclusiveTransaction(() => new Promise<void>((release) => leased(release)));
  });
}

/** One client connection: splits its bytes into messages and runs them in batches. */
class Connection {
  private buffer: Buffer = Buffer.alloc(0);
  private batch: Buffer[] = [];
  private started = false;
  private release: (() => void) | null = null;
  private work: Promise<void> = Promise.resolve();
  private idle: NodeJS.Timeout | null = null;
  private ended = false;

  constructor(
    private readonly db: PGlite,
    private readonly socket: Socket,
    private readonly onEnd: (c: Connection) => void,
  ) {
    socket.on('data', (d: Buffer) => this.receive(d));
    socket.on('error', () => void this.end());
    socket.on('close', () => void this.end());
  }

  private receive(data: Buffer): void {
    this.buffer = this.buffer.length ? Buffer.concat([this.buffer, data]) : data;
    for (;;) {
      if (!this.started) {
        if (this.buffer.length < 8) return;
        const len = this.buffer.readInt32BE(0);
        if (this.buffer.length < len) return;
        const code = this.buffer.readInt32BE(4);
        const msg = this.buffer.subarray(0, len);
        this.buffer = this.buffer.subarray(len);
        if (code === SSL_REQUEST || code === GSSENC_REQUEST) this.socket.write('N');
        else if (code === PROTOCOL_3) {
          this.started = true;
          this.run([msg]);
        } else {
          // A cancel request (PGlite has no backend to signal) or an unknown protocol: hang up.
          if (code !== CANCEL_REQUEST) this.socket.write(errorResponse('08P01', 'unsupported startup request'));
          this.socket.end();
          return;
        }
        continue;
      }
      if (this.buffer.length < 5) return;
      const len = this.buffer.readInt32BE(1) + 1;
      if (this.buffer.length < len) return;
      const type = String.fromCharCode(this.buffer[0]!);
      const msg = this.buffer.subarray(0, len);
      this.buffer = this.buffer.subarray(len);
      if (type === 'X') {
        this.socket.end();
        return;
      }
      this.batch.push(msg);
      // Sync, a simple Query and Flush end what the client waits an answer for.
      if (type === 'S' || type === 'Q' || type === 'H') {
        const batch = this.batch;
        this.batch = [];
        this.run(batch);
      }
    }
  }

  private run(batch: Buffer[]): void {
    this.work = this.work.then(async () => {
      if (this.ended) return;
      if (this.idle) clearTimeout(this.idle);
      this.idle = null;
      this.release ??= await takeLock(this.db);
      try {
        await this.db.runExclusive(() =>
          this.db.execProtocolRawStream(Buffer.concat(batch), { onRawData: (bytes) => void this.socket.write(Buffer.from(bytes)) }),
        );
      } catch {
        this.socket.destroy();
      }
      if (!this.db.isInTransaction()) this.unlock();
      else this.idle = setTimeout(() => this.socket.destroy(), IDLE_IN_TRANSACTION_MS);
    });
  }

  private unlock(): void {
    const release = this.release;
    this.release = null;
    release?.();
  }

  /** Rolls back whatever the client left open and lets the lock go. Idempotent. */
  end(): Promise<void> {
    if (!this.ended) {
      this.ended = true;
      if (this.idle) clearTimeout(this.idle);
      this.socket.destroy();
      this.work = this.work.then(async () => {
        if (this.release && this.db.isInTransaction())
          await this.db.runExclusive(() => this.db.execProtocolRaw(queryMessage('ROLLBACK'))).catch(() => {});
        this.unlock();
        this.onEnd(this);
      });
    }
    return this.work;
  }
}

/** An ErrorResponse message (severity FATAL). */
function errorResponse(code: string, message: string): Buffer {
  const body = Buffer.from(`SFATAL\0C${code}\0M${message}\0\0`);
  const head = Buffer.alloc(5);
  head[0] = 0x45; // 'E'
  head.writeInt32BE(4 + body.length, 1);
  return Buffer.concat([head, body]);
}

/**
 * Serves `db` on a unix socket in `dir` (made 0700; a socket left there by a dead server is
 * replaced — the caller holds the data folder's lock, so nobody else serves it).
 *
 * @example const shared = await shareDatabase(db, socketDirFor('/data/pglite')); … await shared.close()
 */
export async function shareDatabase(db: PGlite, dir: string): Promise<SharedDatabase> {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // In a shared temp folder someone else may have made it first: it must be ours, and a folder.
  const st = lstatSync(dir);
  if (!st.isDirectory() || (process.getuid && st.uid !== process.getuid()))
    throw new Error(`${dir} is not a folder of this user's; cannot serve the database there`);
  chmodSync(dir, 0o700);
  const path = socketPath(dir);
  rmSync(path, { force: true });
  const connections = new Set<Connection>();
  const server = createServer((socket) => connections.add(new Connection(db, socket, (c) => connections.delete(c))));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    // The socket is made under a umask that leaves it to this user alone (the bind happens inside listen()).
    const umask = process.umask(0o177);
    try {
      server.listen(path, () => {
        server.off('error', reject);
        resolve();
      });
    } finally {
      process.umask(umask);
    }
  });
  chmodSync(path, 0o600);
  return {
    dir,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      await Promise.all([...connections].map((c) => c.end()));
      await closed;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
