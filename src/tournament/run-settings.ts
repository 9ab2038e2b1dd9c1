import { z } from 'zod';

/**
 * How a CLI tournament's games are played, beyond its config (which already holds the format,
 * seeds, compact windows and rules): stored with the tournament (TournamentRecord.options) when
 * it is created, so that `tournament resume` plays the rest of it exactly as the first run would
 * have. With the logical clock and the same commit policy, a resumed tournament's logs are byte
 * for byte those of an uninterrupted run; with another clock they are not.
 */
export const RunSettings = z.object({
  clock: z.enum(['wall', 'logical']),
  commit: z.enum(['auto', 'step']),
});
export type RunSettings = z.infer<typeof RunSettings>;

const DEFAULTS: RunSettings = { clock: 'wall', commit: 'auto' };
const KEYS = Object.keys(RunSettings.shape) as (keyof RunSettings)[];

/**
 * The settings stored in a tournament's options, each that parses (none for a tournament stored
 * before they were, or one the server created).
 *
 * @example storedRunSettings({ clock: 'logical', pace_ms: 0 }) // { clock: 'logical' }
 */
export function storedRunSettings(options: Record<string, unknown> | null): Partial<RunSettings> {
  const out: Partial<RunSettings> = {};
  for (const key of KEYS) {
    const parsed = RunSettings.shape[key].safeParse(options?.[key]);
    if (parsed.success) Object.assign(out, { [key]: parsed.data });
  }
  return out;
}

export type ResumeSettings =
  | {
      ok: true;
      settings: RunSettings;
      /** What the tournament did not store yet (one created before settings were stored): store it now, so every later resume agrees. */
      missing: Partial<RunSettings>;
    }
  | { ok: false; message: string };

/**
 * What `tournament resume` runs with: every stored setting; a flag only where nothing is stored,
 * else the default. A flag that contradicts a stored setting is refused, naming both values: a
 * resume that quietly switched clocks or commit policy would break the logs' reproducibility.
 *
 * @example resumeSettings('trn_1', { clock: 'logical', commit: 'step' }, { clock: 'wall' }) // { ok: false, message: 'tournament trn_1 runs with --clock logical …' }
 */
export function resumeSettings(tournamentId: string, stored: Partial<RunSettings>, flags: Partial<RunSettings>): ResumeSettings {
  const settings = { ...DEFAULTS };
  const missing: Partial<RunSettings> = {};
  for (const key of KEYS) {
    const kept = stored[key];
    const asked = flags[key];
    if (kept !== undefined && asked !== undefined && asked !== kept)
      return { ok: false, message: `tournament ${tournamentId} runs with --${key} ${kept} (stored when it was created), so resume cannot use --${key} ${asked}: leave --${key} out and it is kept` };
    const value = kept ?? asked ?? DEFAULTS[key];
    Object.assign(settings, { [key]: value });
    if (kept === undefined) Object.assign(missing, { [key]: value });
  }
  return { ok: true, settings, missing };
}
