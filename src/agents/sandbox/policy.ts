import { sandboxAvailability, type Availability, type SandboxTools } from './availability.js';
import { sandboxSettings, type SandboxSettings } from './settings.js';

/** What the settings and this machine decide for the next subprocess agent. */
export type SandboxDecision =
  | { kind: 'bwrap'; tools: SandboxTools; settings: SandboxSettings }
  /** Plain processes: `off` was asked for, or `auto` found no working bubblewrap (reason set). */
  | { kind: 'off'; reason: string | null; settings: SandboxSettings }
  /** `required` and no working bubblewrap: subprocess agents must not run. */
  | { kind: 'refused'; message: string; settings: SandboxSettings };

let warned = false;

/** Where the one loud warning goes (tests replace it to observe it). */
export const sandboxWarnings = { write: (text: string): void => void process.stderr.write(text) };

/**
 * The sandbox policy, in one place: every spawn site (one-shot, persistent, plan tools) and every
 * seat asks it. `auto` without a working bubblewrap warns once per process, loudly, on stderr.
 *
 * @example
 * const d = sandboxDecision();
 * if (d.kind === 'refused') throw new Error(d.message);
 */
export function sandboxDecision(settings: SandboxSettings = sandboxSettings(), available: Availability = sandboxAvailability()): SandboxDecision {
  if (settings.mode === 'off') return { kind: 'off', reason: null, settings };
  if (available.ok) return { kind: 'bwrap', tools: available.tools, settings };
  if (settings.mode === 'required')
    return {
      kind: 'refused',
      message: `TILTYARD_SANDBOX=required, but ${available.reason}: subprocess agents cannot be seated (install bubblewrap, e.g. apt-get install bubblewrap, or set TILTYARD_SANDBOX=off to run them unconfined)`,
      settings,
    };
  if (!warned) {
    warned = true;
    sandboxWarnings.write(
      `\n!!! tiltyard: ${available.reason}: subprocess agents run UNSANDBOXED — they can read this machine's files, ` +
        `the network and other processes. Install bubblewrap (apt-get install bubblewrap) or set TILTYARD_SANDBOX=off to silence this.\n\n`,
    );
  }
  return { kind: 'off', reason: available.reason, settings };
}

/** Throws the policy's refusal (TILTYARD_SANDBOX=required without bubblewrap); for seating agents. */
export function assertCanSeatSubprocessAgents(settings?: SandboxSettings): void {
  const d = sandboxDecision(settings);
  if (d.kind === 'refused') throw new SandboxRefusedError(d.message);
}

/** A subprocess agent refused by the sandbox policy. */
export class SandboxRefusedError extends Error {
  override readonly name = 'SandboxRefusedError';
}
