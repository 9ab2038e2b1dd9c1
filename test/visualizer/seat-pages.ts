import type { Page, Response } from 'playwright-core';
import { applyEvent } from '../../src/game/evolve.js';
import type { GameState } from '../../src/game/index.js';
import type { GameEvent } from '../../src/protocol/index.js';
import { leaks } from '../support/leaks.js';
import { ADMIN, allEvents, api } from './support.js';

/** A human seat as POST /games gives it out. */
export type Ticket = { player_id: string; token: string; url: string };

/** POST /games as admin with human seats; the game id and the seats' tickets. */
export async function createHumanGame(server: { url: string }, body: Record<string, unknown>): Promise<{ gameId: string; seats: Ticket[] }> {
  const res = await fetch(`${server.url}/games`, { method: 'POST', headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const text = await res.text();
  if (res.status !== 201) throw new Error(`POST /games answered ${res.status}: ${text}`);
  const game = JSON.parse(text) as { game_id: string; human_seats: Ticket[] };
  return { gameId: game.game_id, seats: game.human_seats };
}

type Doc = { querySelector(s: string): { getAttribute(n: string): string | null } | null };

/**
 * Waits for the seat page to show a decision other than `previous` (its request id), or the game's
 * end ('over'). The form carries its request id, so a resubmitted old form is never mistaken for a new one.
 */
export async function nextDecision(page: Page, previous: string, timeout = 120_000): Promise<string> {
  const handle = await page.waitForFunction(
    (prev: string) => {
      // Runs in the page: only what is written here exists there.
      const d = (globalThis as unknown as { document: Doc }).document;
      if (d.querySelector('main.seat-page')?.getAttribute('data-state') === 'over') return 'over';
      const id = d.querySelector('form[data-testid="decision"]')?.getAttribute('data-request');
      return id && id !== prev ? id : false;
    },
    previous,
    { timeout },
  );
  return (await handle.jsonValue()) as string;
}

/** A person who only presses submit, until the game is over; how many decisions they sent. */
export async function pressSubmitToTheEnd(page: Page): Promise<number> {
  let last = '';
  let sent = 0;
  for (;;) {
    const id = await nextDecision(page, last);
    if (id === 'over') return sent;
    await page.locator(`form[data-request="${id}"] [data-testid="submit-decision"]`).click();
    last = id;
    sent++;
  }
}

/** Every JSON body the page received from the API (requests, events, snapshots), with its URL. */
export function recordResponses(page: Page): { url: string; body: unknown }[] {
  const got: { url: string; body: unknown }[] = [];
  page.on('response', (r: Response) => {
    if (!/\/games\//.test(r.url()) || !(r.headers()['content-type'] ?? '').includes('json')) return;
    void r.json().then(
      (body) => got.push({ url: r.url(), body }),
      () => undefined,
    );
  });
  return got;
}

/**
 * The leak scanner's findings over what a seat page received: each event against the engine state
 * right after it, a snapshot against the state at its seq, a request against the state it was asked
 * in (its request_id carries that seq). The states come from the admin view's raw state and log.
 */
export async function seatLeaks(server: { url: string }, gameId: string, seat: string, received: readonly { url: string; body: unknown }[]): Promise<string[]> {
  const base = await api<{ state: { raw: GameState } }>(server, `/games/${gameId}/snapshot?view=admin&seq=0`, ADMIN);
  const log = (await allEvents(server, gameId, 'admin', ADMIN)) as unknown as GameEvent[];
  const shadow = base.state.raw;
  const states: GameState[] = [structuredClone(shadow)];
  const revealed: number[] = [0];
  for (const e of log) {
    applyEvent(shadow, structuredClone(e));
    states[e.seq] = structuredClone(shadow);
    revealed[e.seq] = e.type === 'plans_revealed' ? e.turn : revealed[e.seq - 1]!;
  }
  const at = (seq: number) => ({ viewer: seat, state: states[seq]!, revealedThrough: revealed[seq]! });
  const found: string[] = [];
  for (const { url, body } of received) {
    const b = body as { events?: GameEvent[]; seq?: number; state?: unknown; requestId?: string };
    if (Array.isArray(b.events)) for (const e of b.events) found.push(...leaks(e, at(e.seq)).map((f) => `${url} ${e.type}#${e.seq}: ${f}`));
    else if (typeof b.seq === 'number' && b.state) found.push(...leaks(b.state, at(b.seq)).map((f) => `${url}: ${f}`));
    else if (typeof b.requestId === 'string') {
      const seq = Number(/^req_[^_]+_(\d+)_/.exec(b.requestId)?.[1]);
      found.push(...leaks(b, at(seq)).map((f) => `${url}: ${f}`));
    }
  }
  return found;
}
