import { networkAvailability, sandboxAvailability, which, type Availability, type NetworkAvailability, type SandboxTools } from './availability.js';
import { sandboxSettings, type SandboxSettings } from './settings.js';

/** What the settings and this machine decide for the next subprocess agent. */
export type SandboxDecision =
  | { kind: 'bwrap'; tools: SandboxTools; settings: SandboxSettings }
  /** Plain processes: TILTYARD_SANDBOX=off, and nothing else, leads here. */
  | { kind: 'off'; settings: SandboxSettings }
  /** No working bubblewrap: subprocess agents must not run. */
  | { kind: 'refused'; message: string; settings: SandboxSettings };

let warned = false;

/** Where the one loud warning goes (tests replace it to observe it). */
export const sandboxWarnings = { write: (text: string): void => void process.stderr.write(text) };

/** What TILTYARD_SANDBOX=off gives away, said on stderr and in agent-check. */
export const UNSANDBOXED =
  'subprocess agents run UNSANDBOXED (TILTYARD_SANDBOX=off): they can read this machine\'s files and the server\'s memory and environment (its tokens), reach its network and local services, fill its disk and leave processes behind';

/**
 * The warning TILTYARD_SANDBOX=off earns, once per process: at the start of a server or worker
 * (see `sandboxBanner`), else when the first subprocess agent is seated.
 */
export function warnUnsandboxed(): void {
  if (warned) return;
  warned = true;
  sandboxWarnings.write(`\n!!! tiltyard: ${UNSANDBOXED}. Only for agents you trust: unset TILTYARD_SANDBOX to confine them with bubblewrap.\n\n`);
}

/** How to get bubblewrap, for every message that needs it. */
export const INSTALL_BUBBLEWRAP = 'install bubblewrap (apt-get install bubblewrap; dnf install bubblewrap)';

/**
 * The sandbox policy, in one place: every spawn site (one-shot, persistent, plan tools) and every
 * seat asks it. Subprocess agents run in bubblewrap or not at all, unless TILTYARD_SANDBOX=off
 * says otherwise (which warns, once per process, loudly, on stderr).
 *
 * @example
 * const d = sandboxDecision();
 * if (d.kind === 'refused') throw new Error(d.message);
 */
export function sandboxDecision(settings: SandboxSettings = sandboxSettings(), available?: Availability): SandboxDecision {
  if (settings.mode === 'off') {
    warnUnsandboxed();
    return { kind: 'off', settings };
  }
  const found = available ?? sandboxAvailability();
  if (found.ok) return { kind: 'bwrap', tools: found.tools, settings };
  return {
    kind: 'refused',
    message: `subprocess agents run only in the bubblewrap sandbox, and ${found.reason}: ${INSTALL_BUBBLEWRAP}, or — only for agents you trust — set TILTYARD_SANDBOX=off to run them unconfined`,
    settings,
  };
}

/** Why a skill with the network opt-in cannot have it here, or null when it can (or the sandbox is off). */
export function networkRefusal(settings: SandboxSettings, available: NetworkAvailability = networkAvailability()): string | null {
  if (settings.mode === 'off' || available.ok) return null;
  return `the skill asks for the network (metadata.network: "true"), which the sandbox gives through its own network namespace and slirp4netns, and ${available.reason}: install it (apt-get install slirp4netns) or drop the opt-in`;
}

/** What a seat's agent needs from the sandbox. */
export type SeatNeeds = { network?: boolean; settings?: SandboxSettings };

/**
 * Throws the policy's refusal for a subprocess agent (no working bubblewrap, or the network opt-in
 * without slirp4netns); for seating agents, so a refused one is an error up front, not a failed game.
 */
export function assertCanSeatSubprocessAgents(needs: SeatNeeds = {}): void {
  const settings = needs.settings ?? sandboxSettings();
  const d = sandboxDecision(settings);
  if (d.kind === 'refused') throw new SandboxRefusedError(d.message);
  const network = needs.network ? networkRefusal(settings) : null;
  if (network) throw new SandboxRefusedError(network);
}

/**
 * One line for a server's start-up summary, from the settings and PATH (no trial sandbox: that
 * waits for the first subprocess agent). With TILTYARD_SANDBOX=off it also gives the warning.
 */
export function sandboxBanner(settings: SandboxSettings = sandboxSettings()): string {
  if (settings.mode === 'off') {
    warnUnsandboxed();
    return 'UNSANDBOXED (TILTYARD_SANDBOX=off): skill agents run as plain processes';
  }
  const bwrap = which('bwrap');
  const mb = Math.round(settings.diskBytes / 1024 / 1024);
  return bwrap
    ? `skill agents run in the bubblewrap sandbox (${bwrap}; ${mb} MiB of disk per work dir)`
    : `skill agents are refused: bubblewrap is not on PATH (${INSTALL_BUBBLEWRAP}); built-in and llm: agents play`;
}

/** A subprocess agent refused by the sandbox policy. */
export class SandboxRefusedError extends Error {
  override readonly name = 'SandboxRefusedError';
}
