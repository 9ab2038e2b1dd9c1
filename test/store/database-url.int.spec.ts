import { describe, expect, it } from 'vitest';
import { openStore, StoreUnavailableError } from '../../src/store/index.js';
import { ADMIN_URL } from './support.js';

/** Opening a store on a bad DATABASE_URL: one StoreUnavailableError whose words say what is wrong. */
async function failure(databaseUrl: string): Promise<string> {
  const e = await openStore({ databaseUrl, migrate: false, connectTimeoutMs: 2_000 }).then(
    async (s) => (await s.close(), null),
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(StoreUnavailableError);
  return (e as Error).message;
}

describe('DATABASE_URL problems, named as what they are', () => {
  it('given something that is not a URL, then it says so and shows the expected form', async () => {
    expect(await failure('notaurl')).toBe(
      'DATABASE_URL is not a URL; expected postgresql://user@host:5432/database (got "notaurl")',
    );
  });

  it('given a MySQL URL, then it names the scheme instead of failing on the wire protocol', async () => {
    expect(await failure('mysql://root:pw@127.0.0.1:3306/x')).toBe(
      'DATABASE_URL is a mysql:// URL; Tiltyard needs PostgreSQL (postgresql://user@host:5432/database) (got mysql://root:***@127.0.0.1:3306/x)',
    );
  });

  it('given a port nothing listens on, then it says nothing accepts connections there', async () => {
    expect(await failure('postgres://127.0.0.1:1/x')).toBe(
      'nothing accepts connections at 127.0.0.1:1 (is PostgreSQL running?) [postgres://127.0.0.1:1/x]',
    );
  });

  it('given a real server without that database, then it says the server answered and how to create it', async () => {
    const url = new URL(ADMIN_URL);
    url.pathname = '/tiltyard_no_such_db_e7';
    expect(await failure(url.toString())).toBe(
      `PostgreSQL at ${url.hostname}:${url.port || '5432'} answered, but it has no database "tiltyard_no_such_db_e7" (create it: createdb -h ${url.hostname} tiltyard_no_such_db_e7) [${url.toString()}]`,
    );
  });
});
