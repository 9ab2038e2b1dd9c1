import { ForbiddenException, UnauthorizedException } from '@nestjs/common';
import type { ServerSettings } from '../config.js';
import { roleOf, tokenOf, type Role } from './roles.js';

const RANK: Record<Role, number> = { spectator: 0, researcher: 1, admin: 2 };

/**
 * The caller's role from its request headers, or a 401 (a token nobody configured) / 403 (a role
 * below `atLeast`). With no admin token configured, admin-only routes answer 403 saying so.
 *
 * @example const role = requireRole(req.headers, settings, 'admin')
 */
export function requireRole(headers: Readonly<Record<string, string | string[] | undefined>>, settings: ServerSettings, atLeast: Role = 'spectator'): Role {
  const r = roleOf(settings, tokenOf(headers));
  if (!r.ok) throw new UnauthorizedException(r.message);
  if (RANK[r.role] < RANK[atLeast]) {
    if (atLeast === 'admin' && settings.adminTokens.length === 0) throw new ForbiddenException('admin features are off: no TILTYARD_ADMIN_TOKEN is configured');
    throw new ForbiddenException(r.role === 'spectator' ? `this needs a ${atLeast} token (Authorization: Bearer <token>)` : `this needs a ${atLeast} token; yours is a ${r.role} token`);
  }
  return r.role;
}
