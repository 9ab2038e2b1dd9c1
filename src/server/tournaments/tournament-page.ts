import { InvalidInputError, type EventStore, type TournamentRecord } from '../../store/index.js';

export type TournamentPage = { tournaments: TournamentRecord[]; next_cursor: string | null };

const encode = (createdAt: Date, id: string): string => Buffer.from(`${createdAt.toISOString()}|${id}`).toString('base64url');

function decode(cursor: string): { createdAt: Date; id: string } {
  const [ts, ...rest] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const createdAt = new Date(ts ?? '');
  if (Number.isNaN(createdAt.getTime()) || rest.length === 0) throw new InvalidInputError(`malformed cursor ${cursor}`);
  return { createdAt, id: rest.join('|') };
}

/**
 * Tournaments newest first, a page at a time, with the same keyset cursor as GET /games (pages
 * stay stable while tournaments are added). Each row then comes with its progress from the store.
 *
 * @example const { tournaments, next_cursor } = await tournamentPage(store, { status: ['running'] }, { limit: 20 })
 */
export async function tournamentPage(store: EventStore, filter: { status?: string[] }, page: { limit?: number; cursor?: string }): Promise<TournamentPage> {
  const limit = page.limit ?? 100;
  const c = page.cursor ? decode(page.cursor) : null;
  const rows = await store.prisma.tournament.findMany({
    where: {
      AND: [
        ...(filter.status ? [{ status: { in: filter.status } }] : []),
        ...(c ? [{ OR: [{ createdAt: { lt: c.createdAt } }, { createdAt: c.createdAt, tournamentId: { lt: c.id } }] }] : []),
      ],
    },
    orderBy: [{ createdAt: 'desc' }, { tournamentId: 'desc' }],
    take: limit + 1,
    select: { tournamentId: true, createdAt: true },
  });
  const more = rows.length > limit;
  const shown = rows.slice(0, limit);
  const last = shown[shown.length - 1];
  const tournaments = await Promise.all(shown.map((r) => store.tournaments.get(r.tournamentId)));
  return { tournaments, next_cursor: more && last ? encode(last.createdAt, last.tournamentId) : null };
}
