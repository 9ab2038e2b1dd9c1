/** Where a command writes: stdout carries its result (a table, a transcript, JSON); stderr the rest. */
export type CliIo = {
  out(text: string): void;
  err(text: string): void;
  /** Whether stderr is a terminal (progress bars are drawn only there). */
  errIsTTY: boolean;
  /**
   * Resolves once stdout has room again (its buffer drained): commands that stream a lot of output
   * await it between writes, so a slow reader slows them instead of filling memory. Absent: no wait.
   */
  outDrained?: () => Promise<void>;
};

/** A bad command line: reported as one `tiltyard: <reason>` line, exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/**
 * Exit codes (docs/providers.md "Degraded games and exit codes"): 3 — the command did what was
 * asked, but a game is degraded (an LLM seat ran out of budget and the engine's fallback played
 * for it), so its result measures no model.
 */
export const EXIT = { ok: 0, failure: 1, usage: 2, degraded: 3 } as const;
