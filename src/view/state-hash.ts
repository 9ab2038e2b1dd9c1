import type { StateView } from '../game/views.js';
import { canonicalJson } from '../store/canonical-json.js';
import { sha256Bytes } from './sha256.js';

export { canonicalJson };

const toHex = (buf: ArrayBuffer): string => Array.from(new Uint8Array(buf), (b) => b.toString(16).padStart(2, '0')).join('');

/** Pure synchronous sha256 of UTF-8 text, hex. */
export const sha256Hex = (text: string): string => sha256Bytes(new TextEncoder().encode(text));

/**
 * The server's `state_hash` of a projected state: sha256 of its canonical JSON (RFC 8785), hex —
 * the same bytes `viewHash` hashes on the server. Uses WebCrypto where the page is a secure
 * context (and in Node ≥ 20), else the pure sha256.
 *
 * @example await stateHash(view) === message.state_hash
 */
export async function stateHash(view: StateView): Promise<string> {
  const bytes = new TextEncoder().encode(canonicalJson(view));
  const subtle = globalThis.crypto?.subtle;
  if (subtle) return toHex(await subtle.digest('SHA-256', bytes));
  return sha256Bytes(bytes);
}
