import type { StoreContext } from './context.js';
import type { Standing } from '../tournament/types.js';
import {
  addEntrant,
  admitEntrant,
  createLadder,
  entrantSpend,
  finishDeal,
  getLadder,
  ladderDeals,
  ladderHistory,
  latestStandings,
  linkLadderGame,
  listLadders,
  markLadderGame,
  setEntrantStatus,
  startDeal,
  type CreateLadderInput,
  type DealRecord,
  type EntrantInput,
  type EntrantRecord,
  type EntrantStatus,
  type LadderRecord,
  type RatingPoint,
} from './ladders.js';

/** Ladders in the store (`store.ladders`); each method is the function of the same name in ladders.ts. */
export class LadderStore {
  constructor(private readonly ctx: StoreContext) {}

  private run<T>(what: string, op: (ctx: StoreContext) => Promise<T>): Promise<T> {
    return this.ctx.faults.run(`ladders.${what}`, () => op(this.ctx));
  }

  create(input: CreateLadderInput): Promise<LadderRecord> {
    return this.run('create', (ctx) => createLadder(ctx, input));
  }

  get(ladderId: string): Promise<LadderRecord> {
    return this.run('get', (ctx) => getLadder(ctx, ladderId));
  }

  list(limit?: number): Promise<LadderRecord[]> {
    return this.run('list', (ctx) => listLadders(ctx, limit));
  }

  addEntrant(ladderId: string, input: EntrantInput): Promise<EntrantRecord> {
    return this.run('addEntrant', (ctx) => addEntrant(ctx, ladderId, input));
  }

  setEntrantStatus(ladderId: string, agent: string, status: EntrantStatus, cause?: string | null): Promise<void> {
    return this.run('setEntrantStatus', (ctx) => setEntrantStatus(ctx, ladderId, agent, status, cause ?? null));
  }

  admit(ladderId: string, agent: string): Promise<void> {
    return this.run('admit', (ctx) => admitEntrant(ctx, ladderId, agent));
  }

  startDeal(ladderId: string, deal: { deal: number; seed: number; lineup: readonly string[] }): Promise<void> {
    return this.run('startDeal', (ctx) => startDeal(ctx, ladderId, deal));
  }

  linkGame(ladderId: string, link: { game_id: string; deal: number; rotation: number; seats: readonly string[] }): Promise<void> {
    return this.run('linkGame', (ctx) => linkLadderGame(ctx, ladderId, link));
  }

  markGame(ladderId: string, gameId: string, mark: { error?: string; degraded?: boolean }): Promise<void> {
    return this.run('markGame', (ctx) => markLadderGame(ctx, ladderId, gameId, mark));
  }

  finishDeal(ladderId: string, deal: number, end: { status: 'done'; standings: readonly Standing[] } | { status: 'void'; cause: string }): Promise<void> {
    return this.run('finishDeal', (ctx) => finishDeal(ctx, ladderId, deal, end));
  }

  deals(ladderId: string, from?: number): Promise<DealRecord[]> {
    return this.run('deals', (ctx) => ladderDeals(ctx, ladderId, from));
  }

  history(ladderId: string): Promise<RatingPoint[]> {
    return this.run('history', (ctx) => ladderHistory(ctx, ladderId));
  }

  standings(ladderId: string): Promise<{ deal: number; standings: Standing[] } | null> {
    return this.run('standings', (ctx) => latestStandings(ctx, ladderId));
  }

  spend(ladderId: string, agent: string, since?: Date | null): Promise<number> {
    return this.run('spend', (ctx) => entrantSpend(ctx, ladderId, agent, since ?? null));
  }
}
