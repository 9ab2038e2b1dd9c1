/**
 * Issue 42's acceptance: no built-in's behaviour changes the game hash of a seeded game without the
 * rules or agent version saying so. Each built-in's fingerprint (the log hash of a few seeded
 * games it plays against itself, full and compact windows) is pinned together with its version
 * (AGENT_VERSIONS) and the rules version: a change of behaviour with the same versions fails here.
 *
 * Self-play isolates the agent: its fingerprint moves only with its own choices (and the engine's,
 * which the rules version and the determinism tests answer for). `expert` is not pinned here: a
 * game of it costs minutes of search; its version is bumped by hand with its code.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { AGENT_VERSIONS, agentVersion, type AgentName } from '../../src/agents/builtin/index.js';
import { RULES_VERSION } from '../../src/game/index.js';
import { simulate } from '../../src/runner/simulate.js';

const SEED = 4_242;

/** Per built-in: the version and rules version its fingerprint was taken with, and the fingerprint. */
const PINNED: Partial<Record<AgentName, { version: number; rules: string; fingerprint: string }>> = {
  random: { version: 1, rules: '2.0.0', fingerprint: '485668237db8a66e' },
  balanced: { version: 1, rules: '2.0.0', fingerprint: 'eb9fd0a0fc89a071' },
  aggressor: { version: 2, rules: '2.0.0', fingerprint: '47d10b955ea5781c' },
  turtle: { version: 2, rules: '2.0.0', fingerprint: 'a483963884962562' },
  manipulator: { version: 1, rules: '2.0.0', fingerprint: 'b074bfa5174dca18' },
  trickster: { version: 2, rules: '2.0.0', fingerprint: 'e0b634d9b8e905e5' },
};

async function fingerprint(name: AgentName): Promise<string> {
  const lineup = [name, name, name, name];
  const full = await simulate({ games: 3, seed: SEED, agents: lineup });
  const compact = await simulate({ games: 2, seed: SEED, agents: lineup, rules: { windows: 'compact' } });
  return createHash('sha256').update(`${full.logHash}\n${compact.logHash}`).digest('hex').slice(0, 16);
}

describe('built-in agent versions', () => {
  it('given every built-in but the expert, then each is pinned', () => {
    expect(Object.keys(PINNED).sort()).toEqual(Object.keys(AGENT_VERSIONS).filter((n) => !n.startsWith('expert')).sort());
  });

  for (const [name, pin] of Object.entries(PINNED) as [AgentName, NonNullable<(typeof PINNED)[AgentName]>][]) {
    it(`given ${name}'s seeded self-play, then its fingerprint is the one pinned with its version`, { timeout: 120_000 }, async () => {
      const now = await fingerprint(name);
      const versions = `${name}@${agentVersion(name)} under rules ${RULES_VERSION}`;
      const pinned = `${name}@${pin.version} under rules ${pin.rules}`;
      if (versions === pinned)
        expect(now, `${name} plays differently from ${pinned} (fingerprint ${now}, pinned ${pin.fingerprint}): bump its version in AGENT_VERSIONS (src/agents/builtin/index.ts) and re-pin it here`).toBe(pin.fingerprint);
      else
        expect.fail(`${name} is now ${versions} but pinned as ${pinned}: re-pin it here with { version: ${agentVersion(name)}, rules: '${RULES_VERSION}', fingerprint: '${now}' }`);
    });
  }
});
