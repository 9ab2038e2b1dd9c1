import { DriverAdapterError } from '@prisma/driver-adapter-utils';

type PgLikeError = Error & { code?: string; severity?: string; detail?: string; column?: string; hint?: string };

/**
 * A server error in the shape Prisma's engines expect; anything else (a socket error) as is. Both
 * drivers raise Postgres errors with the same fields, each from its own DatabaseError class.
 */
export function toAdapterError(e: unknown, isServerError: (e: unknown) => e is PgLikeError): Error {
  if (!isServerError(e)) return e instanceof Error ? e : new Error(String(e));
  return new DriverAdapterError({
    kind: 'postgres',
    code: e.code ?? 'N/A',
    severity: e.severity ?? 'N/A',
    message: e.message,
    detail: e.detail,
    column: e.column,
    hint: e.hint,
  });
}
