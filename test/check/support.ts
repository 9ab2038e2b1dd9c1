import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { collectSamples } from '../../src/check/samples.js';
import type { CaseName, Invocation, Sample } from '../../src/check/invocation.js';
import { fromOutcome } from '../../src/check/invocation.js';
import { InvocationCollector, type ProcessFacts } from '../../src/agents/runtime/collector.js';
import type { Failure, InvocationOutcome } from '../../src/agents/runtime/outcome.js';
import { KNOWN_UI_EVENTS } from '../../src/agents/seat/types.js';
import type { JsonObject } from '../../src/protocol/index.js';

/** Real requests from built-in games (seed 1), one per conformance case. */
export const SAMPLES: readonly Sample[] = collectSamples(1);
export const sample = (c: CaseName): Sample => SAMPLES.find((s) => s.case === c)!;

/** A valid answer for each case's request (the intent aims at a seat its commit_plan entry lists). */
export function validDecision(c: CaseName): unknown {
  const s = sample(c);
  switch (s.request.window) {
    case 'intent': {
      const plan = s.request.legal_actions.find((a) => a.kind === 'commit_plan');
      const target = plan && 'targets' in plan ? plan.targets[0] : undefined;
      return {
        tactical_intent: 'build',
        emotional_intent: { emotion: 'fear', target_player_id: target },
      };
    }
    case 'talk':
      return {
        speech_actions: [
          { channel: 'public', target_player_id: null, text: 'Hello.', speech_act: 'neutral' },
        ],
      };
    case 'reaction':
      return {};
    case 'reflect':
      return { memory_updates: ['noted'] };
    default:
      return { selected_action: { kind: 'pass' } };
  }
}

export const patch = (p: JsonObject) => ({ version: '0', type: 'state_patch', patch: p });
export const DONE = { version: '0', type: 'done', ok: true };
export const answer = (c: CaseName, extra: JsonObject = {}) => [
  patch({ decision: validDecision(c), ...extra }),
  DONE,
];

export type Fake = {
  exitCode?: number | null;
  signal?: string | null;
  stderr?: string;
  /** A framing failure after the events (bad JSON, invalid UTF-8…). */
  badLine?: Failure;
  /** A failure from outside the stream (timeout…). */
  fail?: Failure;
  latencyMs?: number;
  deadlineMs?: number;
  memory?: JsonObject;
};

const workDir = mkdtempSync(join(tmpdir(), 'agent-check-unit-'));

/**
 * An invocation of case `c` as if a tool had printed `events`: the values go through the real
 * collector (validation, merge, violations), the process facts are made up. For events without
 * an asset that needs the filesystem; invokeSettled() waits for asset checks.
 */
export function invoke(c: CaseName, events: readonly unknown[], fake: Fake = {}): Invocation {
  const { collector, facts } = fed(events, fake);
  return invocation(c, collector.finishNow(facts), fake);
}

/** invoke() for events with assets: their paths are checked asynchronously. */
export async function invokeSettled(c: CaseName, events: readonly unknown[], fake: Fake = {}): Promise<Invocation> {
  const { collector, facts } = fed(events, fake);
  return invocation(c, await collector.finish(facts), fake);
}

function fed(events: readonly unknown[], fake: Fake): { collector: InvocationCollector; facts: ProcessFacts } {
  const collector = new InvocationCollector({ workDir, knownUiEvents: KNOWN_UI_EVENTS });
  for (const e of events) if (collector.accept(e) === 'stop') break;
  if (fake.badLine) collector.reject(fake.badLine);
  if (fake.fail) collector.fail(fake.fail);
  const facts: ProcessFacts = {
    exitCode: fake.exitCode === undefined ? 0 : fake.exitCode,
    signal: fake.signal ?? null,
    stderr: fake.stderr ?? '',
    stderrTruncated: false,
    durationMs: fake.latencyMs ?? 5,
    stdoutBytes: 0,
  };
  return { collector, facts };
}

function invocation(c: CaseName, outcome: InvocationOutcome, fake: Fake): Invocation {
  return fromOutcome(outcome, {
    sample: sample(c),
    deadlineMs: fake.deadlineMs ?? 5_000,
    memory: fake.memory ?? {},
  });
}
