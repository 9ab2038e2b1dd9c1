import { z } from 'zod';

/**
 * A PostgreSQL connection string as DATABASE_URL may give it: `postgresql://` or `postgres://`,
 * with a host (no database means the user's own, as in libpq). Checked before any connection is tried, so `notaurl` or a MySQL URL
 * is named as what it is rather than surfacing as a DNS or wire-protocol error.
 */
export const DatabaseUrl = z.string().superRefine((raw, ctx) => {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    ctx.addIssue({
      code: 'custom',
      message: 'is not a URL; expected postgresql://user@host:5432/database',
    });
    return;
  }
  if (u.protocol !== 'postgresql:' && u.protocol !== 'postgres:')
    ctx.addIssue({
      code: 'custom',
      message: `is a ${u.protocol.replace(/:$/, '')}:// URL; Tiltyard needs PostgreSQL (postgresql://user@host:5432/database)`,
    });
  else if (!u.hostname)
    ctx.addIssue({
      code: 'custom',
      message: 'names no host; expected postgresql://user@host:5432/database',
    });
});

type PgError = Error & { code?: string };

/**
 * Why a PostgreSQL server could not be used, in words that say whose move it is: nothing listens,
 * the host is unknown, the server answered but refused the login or has no such database.
 */
export function describeConnectError(e: unknown, url: URL): string {
  const err = e as PgError;
  const at = `${url.hostname}:${url.port || '5432'}`;
  const db =
    decodeURIComponent(url.pathname.replace(/^\//, '')) ||
    decodeURIComponent(url.username) ||
    'postgres';
  switch (err?.code) {
    case 'ECONNREFUSED':
      return `nothing accepts connections at ${at} (is PostgreSQL running?)`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `cannot resolve the host ${url.hostname}`;
    case '3D000':
      return `PostgreSQL at ${at} answered, but it has no database "${db}" (create it: createdb -h ${url.hostname} ${db})`;
    case '28P01':
    case '28000':
      return `PostgreSQL at ${at} refused the login: ${err.message}`;
    default:
      return `cannot reach PostgreSQL at ${at}: ${err?.message || String(e)}`;
  }
}
