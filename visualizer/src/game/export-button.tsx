import { useState } from 'preact/hooks';
import { exportReplay } from './export-replay.js';

/** "export replay": the game as one file for this view, to open later at /watch/replay with no server. */
export function ExportButton({ gameId, view }: { gameId: string; view: string }) {
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState<string | null>(null);
  return (
    <>
      <button
        type="button"
        class="ghost"
        data-testid="export-replay"
        disabled={busy}
        title="Save this game, as this view sees it, to one file the player opens offline"
        onClick={() => {
          setBusy(true);
          setFailed(null);
          exportReplay(gameId, view).then(
            () => setBusy(false),
            (e: unknown) => {
              setBusy(false);
              setFailed(`export failed: ${e instanceof Error ? e.message : String(e)}`);
            },
          );
        }}
      >
        {busy ? 'exporting…' : 'export replay'}
      </button>
      {failed && (
        <span class="error" role="alert">
          {failed}
        </span>
      )}
    </>
  );
}
