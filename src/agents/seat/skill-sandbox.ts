import type { SandboxSpec } from '../sandbox/index.js';
import type { Skill } from '../skills/load-skill.js';

/**
 * The sandbox a skill's processes get: its own folder read-only (besides the system's and its
 * work dir), the network only when its metadata asks, and the memory it asks for; traced into
 * `trace` when given (agent-check).
 */
export function skillSandbox(skill: Skill, trace?: string): SandboxSpec {
  const spec: SandboxSpec = { readOnly: [skill.dir], network: skill.sandbox.network };
  if (trace !== undefined) spec.trace = trace;
  if (skill.sandbox.memoryBytes !== null) spec.memoryBytes = skill.sandbox.memoryBytes;
  return spec;
}
