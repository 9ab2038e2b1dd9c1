import { role } from './auth.js';
import { spectateSocket, type ErrorMsg } from './spectate-socket.js';

export type Role = 'spectator' | 'researcher' | 'admin';

/**
 * What the page's token may see, as the server says (the page never decides access): the role
 * `/spectate` confirms when the token joins the lobby channel. Asking the socket rather than
 * probing REST views keeps refused requests (and their console noise) out of the page. Rejects
 * with the server's message for a token it does not know.
 */
export function probeRole(tok: string): Promise<Role> {
  if (!tok) return Promise.resolve((role.value = 'spectator'));
  return new Promise((resolve, reject) => {
    const socket = spectateSocket(tok);
    const done = (fn: () => void) => {
      socket.close();
      fn();
    };
    socket.on('connect', () => socket.emit('lobby', { token: tok }));
    socket.on('lobby_joined', (m: { role: Role }) => done(() => resolve((role.value = m.role))));
    socket.on('error', (m: ErrorMsg) => done(() => reject(new Error(`the token was refused: ${m.message}`))));
    socket.on('connect_error', (e: Error) => done(() => reject(e)));
  });
}

/**
 * The views a role may switch to for a game with these seats (the server enforces the same). A
 * broadcast game adds the broadcast view for everyone; an anonymous page shows it by default (the
 * page picks the last view listed).
 */
export function viewsFor(r: Role, seats: readonly string[], broadcast = false): string[] {
  const b = broadcast ? ['broadcast'] : [];
  if (r === 'admin') return ['spectator', ...b, 'researcher', 'admin', ...seats];
  if (r === 'researcher') return ['spectator', ...b, 'researcher'];
  return ['spectator', ...b];
}
