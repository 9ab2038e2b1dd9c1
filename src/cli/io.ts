/** Where a command writes: stdout carries its result (a table, a transcript, JSON); stderr the rest. */
export type CliIo = {
  out(text: string): void;
  err(text: string): void;
  /** Whether stderr is a terminal (progress bars are drawn only there). */
  errIsTTY: boolean;
};

/** A bad command line: reported as one `tiltyard: <reason>` line, exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export const EXIT = { ok: 0, failure: 1, usage: 2 } as const;
