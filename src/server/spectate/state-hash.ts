import { createHash } from 'node:crypto';
import type { StateView } from '../../game/index.js';
import { canonicalJson } from '../../store/index.js';

/**
 * The hash of a projected state: sha256 of its canonical JSON (RFC 8785), hex. Snapshots and
 * `state_hash` messages both use it, so a client can hash the snapshot it holds (after parsing
 * JSON: canonical JSON does not depend on key order) and compare. The browser computes the same
 * hash with `stateHash` (src/view/state-hash.ts: WebCrypto, or a pure sha256); the property test
 * test/view/fold-view.prop.spec.ts checks both agree.
 *
 * @example viewHash(viewState(state, { role: 'spectator' })) // 'c0ffee…' (64 hex chars)
 */
export function viewHash(view: StateView): string {
  return createHash('sha256').update(canonicalJson(view)).digest('hex');
}
