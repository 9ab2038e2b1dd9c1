import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { AgentSpec } from '../../../src/agents/seat/agent-spec.js';
import { broadcastRisks } from '../../../src/agents/seat/broadcast-risk.js';
import { CreateGameBody } from '../../../src/server/games/game-request.js';
import { spectatorOptions } from '../../../src/server/games/broadcast-mode.js';
import { CreateTournamentBody } from '../../../src/server/tournaments/tournament-request.js';
import { holdBackOf, releasedRound } from '../../../src/live/hold-back.js';
import { HoldBackQueue } from '../../../src/server/spectate/hold-back-queue.js';

/** A copy of the shell example skill granted the network (metadata.network). */
const dir = mkdtempSync(join(tmpdir(), 'tiltyard-bcast-'));
const net = join(dir, 'net-example');
cpSync('skills/shell-example', net, { recursive: true });
const md = join(net, 'SKILL.md');
writeFileSync(md, readFileSync(md, 'utf8').replace('name: shell-example', 'name: net-example').replace('metadata:\n', 'metadata:\n  network: "true"\n'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const skill = (over: Record<string, unknown>): AgentSpec => ({ kind: 'skill', spec: 'skill:x', skill: { kind: 'command', sandbox: { network: false, memoryBytes: null }, ...over } } as unknown as AgentSpec);
const builtin: AgentSpec = { kind: 'builtin', spec: 'balanced', name: 'balanced' };

describe('broadcast mode: which seats could act on a broadcast, and what a request may ask', () => {
  it('given seats, then a skill with the network, any subprocess skill without the sandbox and an LLM on an endpoint nobody configured are named; built-ins and the mock are not', () => {
    expect(broadcastRisks([builtin, skill({})], {})).toEqual([]);
    expect(broadcastRisks([builtin, skill({ sandbox: { network: true, memoryBytes: null } })], {})).toEqual([{ seat: 1, player_id: 'plr_2', agent: 'skill:x', why: expect.stringContaining('network access') }]);
    expect(broadcastRisks([skill({})], { TILTYARD_SANDBOX: 'off' })[0]?.why).toContain('outside the sandbox');
    const llm = (provider: string, configured: string[]): AgentSpec => ({ kind: 'llm', spec: `llm:${provider}`, chain: [{ provider, model: 'm' }], setup: { configured: new Set(configured) } } as unknown as AgentSpec);
    expect(broadcastRisks([llm('mock', ['mock'])], {})).toEqual([]);
    expect(broadcastRisks([llm('openai', ['mock', 'openai'])], {})).toEqual([]);
    expect(broadcastRisks([builtin, builtin, llm('ollama', ['mock'])], {})).toEqual([{ seat: 2, player_id: 'plr_3', agent: 'llm:ollama', why: expect.stringContaining('did not configure') }]);
  });

  it('given POST /games bodies, then a broadcast refusing unsafe seats is a 400 naming each seat, holding (the default) stores the game held, and broadcast_unsafe alone is an error', () => {
    const agents = ['balanced', `skill:${net}`];
    const refused = CreateGameBody.safeParse({ agents, spectators: 'broadcast', broadcast_unsafe: 'refuse' });
    expect(refused.success).toBe(false);
    expect(refused.error!.issues).toEqual([expect.objectContaining({ path: ['agents', 1], message: expect.stringMatching(/^seat plr_2 \(skill:.*net-example\) could act on the broadcast: .*network/) })]);
    const held = CreateGameBody.parse({ agents, spectators: 'broadcast' });
    expect(spectatorOptions(held, held.agents)).toEqual({ spectators: 'broadcast', broadcast_held: true });
    expect(spectatorOptions(CreateGameBody.parse({ agents: ['balanced', 'turtle'], spectators: 'broadcast', broadcast_unsafe: 'refuse' }), ['balanced', 'turtle'])).toEqual({ spectators: 'broadcast', broadcast_held: false });
    expect(CreateGameBody.safeParse({ agents, broadcast_unsafe: 'hold' }).error?.issues[0]).toMatchObject({ path: ['broadcast_unsafe'] });
    expect(CreateGameBody.safeParse({ agents, spectators: 'everyone' }).error?.issues[0]).toMatchObject({ path: ['spectators'], message: expect.stringContaining('public') });
    const t = CreateTournamentBody.safeParse({ format: 'round-robin', entrants: ['balanced', 'turtle', `skill:${net}`], seats: 2, spectators: 'broadcast', broadcast_unsafe: 'refuse' });
    expect(t.error?.issues[0]).toMatchObject({ path: ['entrants', 2], message: expect.stringContaining('entrant skill:') });
  });

  it('given the hold-back rule, then public games hold by time only, broadcasts a full round more, held broadcasts until the end', () => {
    expect(holdBackOf({ spectators: 'public', spectator_delay_ms: 0, broadcast_held: false })).toEqual({ delayMs: 0, until: 'commit' });
    const b = holdBackOf({ spectators: 'broadcast', spectator_delay_ms: 0, broadcast_held: false });
    expect([releasedRound(b, 1, false), releasedRound(b, 5, false), releasedRound(b, 5, true)]).toEqual([-1, 3, Infinity]);
    expect(releasedRound(holdBackOf({ spectators: 'broadcast', spectator_delay_ms: 0, broadcast_held: true }), 9, false)).toBe(-1);
  });

  it('given commits on a counted clock, then the feed queue releases a round once the next has ended and its steps are old enough, and says when to look again', () => {
    const q = new HoldBackQueue({ delayMs: 100, until: 'next_round_end' });
    // Round 0: seqs 1–3 (t=0); round 1: 4–6 (t=10); round 2 begins at 7 (t=20).
    for (const [seq, turn, at] of [[1, 0, 0], [2, 0, 0], [3, 0, 0], [4, 1, 10], [5, 1, 10], [6, 1, 10]] as const) {
      q.event(seq, turn, 'x');
      q.due(seq, at + 100);
    }
    expect(q.head(1_000, 0)).toBe(0); // round 0 waits for round 1 to end
    expect(q.nextDue(0)).toBeNull(); // and no clock can change that
    q.event(7, 2, 'phase_changed');
    q.due(7, 120);
    expect(q.head(99, 0)).toBe(0); // round 1 has ended, but round 0 is not 100 ms old yet
    expect(q.nextDue(0)).toBe(100);
    expect(q.head(100, 0)).toBe(3); // round 0 goes; round 1 waits for round 2's end
    q.event(8, 3, 'phase_changed');
    q.due(8, 130);
    expect(q.head(109, 3)).toBe(3);
    expect(q.head(110, 3)).toBe(6);
    q.event(9, 3, 'game_ended');
    q.due(9, 140);
    expect(q.head(140, 6)).toBe(9);
  });

  it('given the last step came due after the queue looked (while what it released was sent), then it still says to look again, at once', () => {
    const q = new HoldBackQueue({ delayMs: 100, until: 'commit' });
    q.event(1, 0, 'game_started');
    q.due(1, 100);
    q.event(2, 0, 'game_ended');
    q.due(2, 101);
    expect(q.head(100, 0)).toBe(1);
    // Sending seq 1 took the clock to 101: seq 2 is due, and no commit will come after it.
    expect(q.nextDue(1)).toBe(101);
    expect(q.head(101, 1)).toBe(2);
    expect(q.nextDue(2)).toBeNull();
  });
});
