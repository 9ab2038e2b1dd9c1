import { useEffect, useState } from 'preact/hooks';
import { hashView, type View } from './view-bridge.js';

/**
 * The state_hash of the state on screen, once the position has rested for a moment (hashing on
 * every frame of a 32× replay would be waste). Lets a person, or a test, compare the page with
 * `GET /games/:id/snapshot?seq=`.
 */
export function CursorHash({ state, seq, onHash }: { state: View; seq: number; onHash?: (seq: number, hash: string) => void }) {
  const [hash, setHash] = useState<{ seq: number; hash: string } | null>(null);
  useEffect(() => {
    let stale = false;
    const t = setTimeout(() => {
      void hashView(state).then((h) => {
        if (stale) return;
        setHash({ seq, hash: h });
        onHash?.(seq, h);
      });
    }, 150);
    return () => {
      stale = true;
      clearTimeout(t);
    };
  }, [state, seq]);
  if (!hash || hash.seq !== seq) return <span class="muted">hash …</span>;
  return (
    <span title={hash.hash} data-testid="cursor-hash" data-seq={hash.seq} data-hash={hash.hash}>
      hash@{hash.seq} {hash.hash.slice(0, 12)}
    </span>
  );
}
