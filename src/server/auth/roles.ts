import { timingSafeEqual } from 'node:crypto';
import type { Viewer } from '../../game/index.js';
import type { SpectatorMode } from '../../live/game-options.js';
import { PlayerId } from '../../protocol/index.js';
import type { ServerSettings } from '../config.js';

export type Role = 'spectator' | 'researcher' | 'admin';

/** A token that is not configured is refused (401); no token at all is an anonymous spectator. */
export type RoleResult = { ok: true; role: Role } | { ok: false; status: 401; message: string };

const same = (a: string, b: string): boolean => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/**
 * Who a token belongs to. Comparisons are constant-time; a token matching both lists is an admin.
 *
 * @example roleOf(settings, undefined) // { ok: true, role: 'spectator' }
 */
export function roleOf(settings: Pick<ServerSettings, 'adminTokens' | 'researcherTokens'>, token: string | undefined | null): RoleResult {
  if (token === undefined || token === null || token === '') return { ok: true, role: 'spectator' };
  if (settings.adminTokens.some((t) => same(t, token))) return { ok: true, role: 'admin' };
  if (settings.researcherTokens.some((t) => same(t, token))) return { ok: true, role: 'researcher' };
  return { ok: false, status: 401, message: 'unknown token' };
}

/** The token of an HTTP request: `Authorization: Bearer <token>` (or `x-tiltyard-token`). */
export function tokenOf(headers: Readonly<Record<string, string | string[] | undefined>>): string | undefined {
  const auth = headers['authorization'];
  const value = Array.isArray(auth) ? auth[0] : auth;
  if (value && /^bearer\s+/i.test(value)) return value.replace(/^bearer\s+/i, '').trim();
  const alt = headers['x-tiltyard-token'];
  return (Array.isArray(alt) ? alt[0] : alt) || undefined;
}

export type ViewResult = { ok: true; viewer: Viewer } | { ok: false; status: 400 | 403; message: string };

/**
 * The projection a role may ask for. Spectators get the public table only — or, on a game in
 * broadcast mode (`mode`), the broadcast view by default; researchers the public table while a
 * game runs and everything once it is over (the projection itself enforces that), and then also
 * one seat's view — a part of everything, to set "what seat X knew" beside the truth; admins
 * anything, including one seat's view (`plr_N`) at any time. Anyone may ask a broadcast game for
 * its broadcast view, which is always held back (heldBack). `gameOver`: whether the game has ended.
 */
export function viewFor(role: Role, requested: string | undefined, gameOver = false, mode: SpectatorMode = 'public'): ViewResult {
  const view = requested ?? (role === 'admin' ? 'admin' : role === 'spectator' && mode === 'broadcast' ? 'broadcast' : role);
  if (view === 'spectator') return { ok: true, viewer: { role: 'spectator' } };
  if (view === 'broadcast') return mode === 'broadcast' ? { ok: true, viewer: { role: 'broadcast' } } : { ok: false, status: 403, message: 'this game is not broadcast: its spectators see the public table (view spectator)' };
  if (view === 'researcher') return role === 'spectator' ? { ok: false, status: 403, message: 'the researcher view needs a researcher or admin token' } : { ok: true, viewer: { role: 'researcher' } };
  if (view === 'admin') return role === 'admin' ? { ok: true, viewer: { role: 'admin' } } : { ok: false, status: 403, message: 'the admin view needs an admin token' };
  if (PlayerId.safeParse(view).success)
    return role === 'admin' || (role === 'researcher' && gameOver)
      ? { ok: true, viewer: { role: 'seat', player_id: view } }
      : { ok: false, status: 403, message: role === 'researcher' ? 'a seat view needs an admin token while the game runs (researchers may have one once it is over)' : 'a seat view needs an admin token' };
  return { ok: false, status: 400, message: `view must be spectator, researcher, admin or a seat id like plr_1 (or broadcast, on a broadcast game), got "${view}"` };
}

/** Whether a role watches a delayed game with the delay (only anonymous spectators do). */
export const delayed = (role: Role): boolean => role === 'spectator';

/** Whether a viewer is held back by its game's hold-back: anonymous spectators, and every broadcast view whoever asks. */
export const heldBack = (role: Role, viewer: Viewer): boolean => delayed(role) || viewer.role === 'broadcast';
