import { describe, expect, it } from 'vitest';
import { liveLine, progressBar } from '../../src/cli/progress.js';
import { formatRate } from '../../src/cli/rate.js';

describe('formatRate: honest at any speed', () => {
  it('per second, per minute, or seconds per item', () => {
    expect(formatRate(100, 2_000, 'game')).toBe('50.0 games/s');
    expect(formatRate(12_345, 1_000, 'event')).toBe('12,345 events/s');
    // The Python skill: 3 games in 105 s is not "0.0 games/s".
    expect(formatRate(3, 105_000, 'game')).toBe('1.7 games/min');
    expect(formatRate(1, 300_000, 'game')).toBe('300 s/game');
    expect(formatRate(2, 150_000, 'game')).toBe('75.0 s/game');
    expect(formatRate(0, 1_000, 'game')).toBe('– games/s');
  });
});

const tty = () => {
  const io = { stdout: '', stderr: '', errIsTTY: true, out: (t: string) => void (io.stdout += t), err: (t: string) => void (io.stderr += t) };
  return io;
};

describe('progress on stderr', () => {
  it('a bar waits, then shows the rate so far, and clears itself', () => {
    let t = 0;
    const io = tty();
    const bar = progressBar(io, 'simulate', 'game', () => t)!;
    t = 100;
    bar.update(1, 10);
    expect(io.stderr).toBe(''); // too soon to need a bar
    t = 70_000;
    bar.update(2, 10);
    expect(io.stderr).toContain('simulate [######........................]  20% 2/10  70.0 s · 1.7 games/min');
    bar.end();
    expect(io.stderr.endsWith('\r\x1b[K')).toBe(true);
  });

  it('nothing at all when stderr is not a terminal', () => {
    const io = { ...tty(), errIsTTY: false };
    expect(progressBar(io, 'x')).toBeNull();
    expect(liveLine(io, 'x')).toBeNull();
  });

  it('a live line shows its text with the time elapsed', () => {
    let t = 0;
    const io = tty();
    const line = liveLine(io, 'opening', () => t)!;
    t = 1_000;
    line.set('playing game_1 · seq 4');
    expect(io.stderr).toBe('\rplaying game_1 · seq 4 · 1.0 s\x1b[K');
    line.end();
    line.set('late');
    expect(io.stderr.endsWith('\r\x1b[K')).toBe(true);
  });
});

describe('simulate\'s summary with a slow agent', () => {
  it('says games per minute, never "0.0 games/s"', async () => {
    const { simulate } = await import('../../src/runner/simulate.js');
    const { formatSummary } = await import('../../src/cli/summary.js');
    const r = await simulate({ games: 1, seed: 1 });
    // As if one game took 40 s (a Python skill through a slow interpreter start).
    const text = formatSummary({ ...r, wallMs: 40_000 });
    expect(text).toMatch(/throughput +[\d,.]+ events\/s +1\.5 games\/min/);
    expect(text).not.toContain('0.0 games/s');
  });
});
