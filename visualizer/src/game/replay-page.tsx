import { useEffect, useMemo, useState } from 'preact/hooks';
import { MAX_REPLAY_BYTES, parseReplay, type LoadedReplay } from '../../../src/view/replay-file.js';
import type { Role } from '../lib/role-probe.js';
import { GameBody } from './game-body.js';
import type { GameRecordView, WireEvent } from './history.js';
import { Player } from './player.js';

/** Reads a dropped or picked file, refusing an oversized one before reading it into memory. */
async function readFile(file: File): Promise<LoadedReplay> {
  if (file.size > MAX_REPLAY_BYTES) throw new Error(`${file.name} is too large (${Math.round(file.size / 1e6)} MB; a replay is at most ${MAX_REPLAY_BYTES / 1024 / 1024} MB)`);
  const r = parseReplay(await file.text());
  if (!r.ok) throw new Error(`${file.name}: ${r.error}`);
  return r.replay;
}

const roleOf = (view: string): Role => (view === 'admin' || view === 'researcher' ? view : 'spectator');

/**
 * `/watch/replay`: opens a replay file (exported from a game page) or a `tiltyard play --json`
 * log, dropped anywhere on the page or picked, and plays it in the same player with no server:
 * the file is parsed and validated here (src/view/replay-file.ts) and folded by the shared reducer.
 */
export function ReplayPage() {
  const [replay, setReplay] = useState<LoadedReplay | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [over, setOver] = useState(false);
  const open = (file: File | undefined) => {
    if (!file) return;
    setError(null);
    readFile(file).then(setReplay, (e: unknown) => setError(e instanceof Error ? e.message : String(e)));
  };
  // The whole page takes a drop, also once a replay plays (to open another).
  useEffect(() => {
    const onOver = (e: DragEvent) => {
      e.preventDefault();
      setOver(true);
    };
    const onLeave = () => setOver(false);
    const onDrop = (e: DragEvent) => {
      e.preventDefault();
      setOver(false);
      open(e.dataTransfer?.files[0]);
    };
    window.addEventListener('dragover', onOver);
    window.addEventListener('dragleave', onLeave);
    window.addEventListener('drop', onDrop);
    return () => {
      window.removeEventListener('dragover', onOver);
      window.removeEventListener('dragleave', onLeave);
      window.removeEventListener('drop', onDrop);
    };
  }, []);
  const picker = (
    <p class={`drop-zone${over ? ' over' : ''}`} data-testid="replay-drop">
      Drop a replay file (<code>.tiltyard-replay.json</code>, from “export replay” on a game page) or a <code>tiltyard play --json</code> log here, or{' '}
      <label>
        pick one <input type="file" accept=".json,.ndjson,.jsonl,application/json" data-testid="replay-file" onChange={(e) => open((e.target as HTMLInputElement).files?.[0])} />
      </label>
      . It plays here, in the browser, without asking the server.
    </p>
  );
  return (
    <>
      {(!replay || error) && (
        <main id="main">
          <h1>Open a replay</h1>
          {picker}
          {error && (
            <p class="error" role="alert" data-testid="replay-error">
              {error}
            </p>
          )}
        </main>
      )}
      {replay && <ReplayPlayer key={`${replay.game_id}|${replay.view}|${replay.events.length}`} replay={replay} />}
    </>
  );
}

function ReplayPlayer({ replay }: { replay: LoadedReplay }) {
  const game = useMemo<GameRecordView>(
    () => ({
      game_id: replay.game_id,
      status: replay.game_over ? 'ended' : 'running',
      seats: replay.seats.map((s, i) => ({ seat: i, ...s })),
      last_seq: replay.events.length,
      options: {},
      placements: null,
    }),
    [replay],
  );
  const player = useMemo(() => new Player(replay.game_id, replay.view, '', false, replay.game_over, replay.events.length, { base: replay.base, events: replay.events as unknown as WireEvent[] }), [replay]);
  useEffect(() => {
    void player.start(null);
    return () => player.close();
  }, [player]);
  return <GameBody player={player} game={game} role={roleOf(replay.view)} views={[replay.view]} view={replay.view} setView={() => undefined} live={false} notice={null} offline />;
}
