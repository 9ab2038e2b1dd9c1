import { describe, expect, it } from 'vitest';
import {
  CHECK_NAMES,
  raw,
  skipped,
  type CheckName,
  type CheckRun,
} from '../../src/check/finding.js';
import { assertionsOf, mergeFindings } from '../../src/check/report.js';

describe('report', () => {
  it('merges one problem seen in several windows into one finding naming them, without a window', () => {
    const merged = mergeFindings([
      raw(
        'protocol',
        'error',
        'protocol/bad_json',
        'line 1 is not JSON',
        'one object per line',
        'intent',
      ),
      raw(
        'protocol',
        'error',
        'protocol/bad_json',
        'line 1 is not JSON',
        'one object per line',
        'talk',
      ),
      raw(
        'protocol',
        'error',
        'protocol/bad_json',
        'line 1 is not JSON',
        'one object per line',
        'talk',
      ),
    ]);
    expect(merged).toEqual([
      {
        check: 'protocol',
        severity: 'error',
        message: 'line 1 is not JSON (3 times, in intent, talk)',
        hint: 'one object per line',
      },
    ]);
  });

  it('keeps the window when all repeats are in one window, and drops the internal key', () => {
    const merged = mergeFindings([
      raw('legal', 'error', 'a/b', 'no', 'h', 'action'),
      raw('legal', 'error', 'a/b', 'no', 'h', 'action'),
    ]);
    expect(merged).toEqual([
      { check: 'legal', severity: 'error', window: 'action', message: 'no (2 times)', hint: 'h' },
    ]);
  });

  it('lists errors first, then in check order', () => {
    const merged = mergeFindings([
      raw('stderr', 'warning', 's', 'w', 'h'),
      raw('games', 'error', 'g', 'e2', 'h'),
      raw('protocol', 'error', 'p', 'e1', 'h'),
    ]);
    expect(merged.map((f) => f.message)).toEqual(['e1', 'e2', 'w']);
  });

  it('one assertion per check: fail on errors, pass with warnings counted, skip with the reason', () => {
    const runs = new Map<CheckName, CheckRun>([
      [
        'protocol',
        { check: 'protocol', findings: [raw('protocol', 'error', 'p', 'x', 'h')], skipped: null },
      ],
      [
        'stderr',
        { check: 'stderr', findings: [raw('stderr', 'warning', 's', 'x', 'h')], skipped: null },
      ],
      ['memory', skipped('memory', 'not judged: the agent keeps no memory')],
      ['legal', { check: 'legal', findings: [], skipped: null }],
    ]);
    const findings = mergeFindings([...runs.values()].flatMap((r) => r.findings));
    const a = assertionsOf(runs, findings, { legal: '6 window cases', stderr: '6 window cases' });
    expect(a.map((x) => x.name)).toEqual(CHECK_NAMES);
    const by = Object.fromEntries(a.map((x) => [x.name, x]));
    expect(by['protocol']).toEqual({ name: 'protocol', status: 'fail', details: '1 error' });
    expect(by['stderr']).toEqual({
      name: 'stderr',
      status: 'pass',
      details: '6 window cases; 1 warning',
    });
    expect(by['memory']).toEqual({
      name: 'memory',
      status: 'skip',
      details: 'not judged: the agent keeps no memory',
    });
    expect(by['legal']).toEqual({ name: 'legal', status: 'pass', details: '6 window cases' });
    expect(by['games']).toEqual({ name: 'games', status: 'skip', details: 'not run' });
  });
});
