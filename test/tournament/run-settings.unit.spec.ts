import { describe, expect, it } from 'vitest';
import { resumeSettings, storedRunSettings } from '../../src/tournament/run-settings.js';

describe('a tournament resumed with the settings it was created with', () => {
  it('given stored settings and no flags, then they are kept and nothing is stored again', () => {
    expect(resumeSettings('trn_1', { clock: 'logical', commit: 'step' }, {})).toEqual({ ok: true, settings: { clock: 'logical', commit: 'step' }, missing: {} });
  });

  it('given a flag that agrees with what is stored, then it is accepted', () => {
    expect(resumeSettings('trn_1', { clock: 'logical', commit: 'step' }, { clock: 'logical' })).toMatchObject({ ok: true, settings: { clock: 'logical', commit: 'step' } });
  });

  it('given a flag that contradicts what is stored, then it is refused naming both values', () => {
    const out = resumeSettings('trn_1', { clock: 'logical', commit: 'step' }, { commit: 'auto' });
    expect(out).toEqual({ ok: false, message: expect.stringMatching(/^tournament trn_1 runs with --commit step .* cannot use --commit auto/) });
  });

  it('given a tournament stored before its settings were, then the flags (else the defaults) run it and are to be stored', () => {
    expect(resumeSettings('trn_1', {}, { clock: 'logical' })).toEqual({ ok: true, settings: { clock: 'logical', commit: 'auto' }, missing: { clock: 'logical', commit: 'auto' } });
  });

  it('reads only the settings out of stored options, each that parses (a server tournament has none)', () => {
    expect(storedRunSettings({ clock: 'logical', commit: 'sometimes', pace_ms: 0 })).toEqual({ clock: 'logical' });
    expect(storedRunSettings({ pace_ms: 0, spectators: 'public' })).toEqual({});
    expect(storedRunSettings(null)).toEqual({});
  });
});
