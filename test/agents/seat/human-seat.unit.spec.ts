import { describe, expect, it } from 'vitest';
import { displayNameOf, parseAgentSpec } from '../../../src/agents/seat/agent-spec.js';
import { broadcastRisks } from '../../../src/agents/seat/broadcast-risk.js';
import { HumanDesk } from '../../../src/agents/seat/human-desk.js';
import { humanSeat } from '../../../src/agents/seat/human-seat.js';
import type { ToolInput, TurnPlanRequest } from '../../../src/protocol/index.js';

const request = (id: string) => ({ request_id: id, player_id: 'plr_2', turn: 1, window: 'talk' }) as unknown as TurnPlanRequest;
const input = (id: string): ToolInput => ({ requestId: id, tool: 'human', operation: 'talk', input: {} });

describe('human seats', () => {
  it('given human and human:<name>, then each parses to a human seat named as asked; an empty or overlong name is refused', () => {
    const plain = parseAgentSpec('human');
    const named = parseAgentSpec('human:Ada Lovelace');
    expect(plain.ok && displayNameOf(plain.agent)).toBe('human');
    expect(named.ok && displayNameOf(named.agent)).toBe('Ada Lovelace');
    expect(parseAgentSpec('human:').ok).toBe(false);
    expect(parseAgentSpec(`human:${'x'.repeat(41)}`).ok).toBe(false);
    // A person can watch a broadcast in another tab: the seat is a broadcast risk, like a network skill.
    expect(broadcastRisks([named.ok ? named.agent : (null as never)]).map((r) => r.player_id)).toEqual(['plr_1']);
  });

  it('given a pending request, when the engine refuses an answer, then the desk says why and keeps it pending; a stale id is a 409; a good answer settles it once', async () => {
    const desk = new HumanDesk();
    const answer = desk.open('g', 'plr_2', input('r1'), (d) => ((d as { ok?: boolean }).ok ? null : { code: 'talk/bad', message: 'no such speech act' }));
    expect(desk.requestOf('g', 'plr_2')?.requestId).toBe('r1');
    expect(desk.answer('g', 'plr_2', 'r1', { ok: false })).toEqual({ ok: false, status: 422, code: 'talk/bad', message: 'no such speech act' });
    expect(desk.answer('g', 'plr_2', 'r0', { ok: true })).toMatchObject({ ok: false, status: 409, code: 'seat/stale_request' });
    expect(desk.answer('g', 'plr_2', 'r1', { ok: true })).toEqual({ ok: true });
    expect(await answer).toEqual({ ok: true });
    expect(desk.requestOf('g', 'plr_2')).toBeNull();
    expect(desk.answer('g', 'plr_2', 'r1', { ok: true })).toMatchObject({ status: 409, code: 'seat/nothing_pending' });
  });

  it('given a request opened with its time-out, then the desk says how much is left by its own clock, and nothing once answered', () => {
    const desk = new HumanDesk();
    let now = 1_000;
    desk.now = () => now;
    void desk.open('g', 'plr_2', input('r1'), undefined, 120_000);
    expect(desk.clockOf('g', 'plr_2')).toEqual({ timeoutMs: 120_000, remainingMs: 120_000 });
    now += 45_000;
    expect(desk.clockOf('g', 'plr_2')).toEqual({ timeoutMs: 120_000, remainingMs: 75_000 });
    now += 200_000;
    expect(desk.clockOf('g', 'plr_2')?.remainingMs).toBe(0);
    desk.answer('g', 'plr_2', 'r1', {});
    expect(desk.clockOf('g', 'plr_2')).toBeNull();
    void desk.open('g', 'plr_3', input('r2'), undefined);
    expect(desk.clockOf('g', 'plr_3')).toBeNull();
  });

  it('given no answer within the time-out, then the seat answers nothing with a process/timeout trace and the request leaves the desk', async () => {
    const desk = new HumanDesk();
    const seat = humanSeat('human', { gameSeed: 1, seat: 1, trace: true, human: { desk, gameId: 'g', timeoutMs: 1 } });
    const out = await seat.decide(request('r1'));
    expect(out.decision).toBeUndefined();
    expect(out.trace).toMatchObject({ ok: false, failure: { code: 'process/timeout' }, fallback: 'engine', agent: 'human' });
    expect(desk.requestOf('g', 'plr_2')).toBeNull();
  });

  it('given the run stops while a person decides, then the seat halts (the step is not stored) and the request leaves the desk', async () => {
    const desk = new HumanDesk();
    const stop = new AbortController();
    const seat = humanSeat('human', { gameSeed: 1, seat: 1, human: { desk, gameId: 'g', timeoutMs: 60_000, signal: stop.signal } });
    const pending = seat.decide(request('r1'));
    expect(desk.requestOf('g', 'plr_2')?.requestId).toBe('r1');
    stop.abort();
    expect((await pending).halt).toBeDefined();
    expect(desk.requestOf('g', 'plr_2')).toBeNull();
  });

  it('given no desk (outside a server), then building a human seat says it needs one', () => {
    expect(() => humanSeat('human', { gameSeed: 1, seat: 0 })).toThrow(/needs a server/);
  });
});
