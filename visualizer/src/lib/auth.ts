import { signal } from '@preact/signals';

const KEY = 'tiltyard.token';

const read = (): string => {
  try {
    return sessionStorage.getItem(KEY) ?? '';
  } catch {
    return '';
  }
};

/**
 * The researcher or admin token typed into the page (kept for this tab only). Empty: an anonymous
 * spectator. The server decides what a token may see; the page only sends it.
 */
export const token = signal(read());

/** The role the server confirmed for the token (from the lobby's `lobby_joined`), or null before. */
export const role = signal<'spectator' | 'researcher' | 'admin' | null>(null);

/** Stores a token for this tab (empty: forget it). */
export function setToken(value: string): void {
  const t = value.trim();
  token.value = t;
  role.value = null;
  try {
    if (t) sessionStorage.setItem(KEY, t);
    else sessionStorage.removeItem(KEY);
  } catch {
    // Storage may be off (private mode): the token lives in memory for this page.
  }
}
