import type { Role } from '../lib/role-probe.js';
import { CursorHash } from './cursor-hash.js';
import type { Player } from './player.js';
import type { View } from './view-bridge.js';

type Props = { player: Player; state: View; cursor: number; head: number; live: boolean; role: Role };

/**
 * The player's diagnostics: the hash of the state on screen, the hash checks and resync counters,
 * lag, and (live) a button that drops the socket to try a resume. A debugging aid, not part of
 * watching a game: open for admins, behind a "diagnostics" toggle for everyone else. Its counters
 * are in the DOM either way (the browser tests read them), and the hash of the resting position is
 * still checked against the server's (CursorHash) whether it is open or not.
 */
export function HealthLine({ player, state, cursor, head, live, role }: Props) {
  const health = player.health.value;
  const mismatch = player.lastMismatch.value;
  return (
    <details class="debug" open={role === 'admin'} data-testid="diagnostics">
      <summary>diagnostics</summary>
      <p data-testid="health">
        <CursorHash state={state} seq={cursor} onHash={(s, h) => void player.verifyRest(s, h).catch(() => undefined)} /> · events <span data-testid="h-events">{head}</span> · hash checks <span data-testid="h-checks">{health.hashChecks}</span> · mismatches{' '}
        <span data-testid="h-mismatches">{health.hashMismatches}</span> · resyncs <span data-testid="h-resyncs">{health.resyncs}</span> · gaps <span data-testid="h-gaps">{health.gaps}</span> · duplicates <span data-testid="h-dups">{health.duplicates}</span> · fold errors{' '}
        <span data-testid="h-fold-errors">{health.foldErrors}</span> · reconnects <span data-testid="h-reconnects">{health.reconnects}</span>
        {player.lagMs.value !== null ? ` · lag ${player.lagMs.value} ms` : ''}
        {mismatch ? ` · last mismatch at seq ${mismatch.seq} (local ${mismatch.local.slice(0, 8)}, server ${mismatch.server.slice(0, 8)})` : ''}
        {live && (
          <>
            {' '}
            ·{' '}
            <button type="button" class="ghost" onClick={() => player.dropConnection()} data-testid="drop-connection" title="Close the socket as a network failure would (it reconnects and resumes)">
              drop connection
            </button>
          </>
        )}
      </p>
    </details>
  );
}
