import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The module graph of src/, read from the files' import lines (type imports included: a type-only
 * cycle still tangles what a reader must hold in mind). Generated code is left out.
 */
const SRC = resolve(import.meta.dirname, '../../src');
const IMPORT = /^\s*(?:import|export)\s[^'"]*?from\s+['"](\.[^'"]+)['"]/gm;

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const p = join(dir, d.name);
    if (d.isDirectory()) return d.name === 'generated' ? [] : files(p);
    return d.name.endsWith('.ts') ? [p] : [];
  });
}

function graph(): Map<string, string[]> {
  const g = new Map<string, string[]>();
  for (const f of files(SRC)) {
    const text = readFileSync(f, 'utf8');
    const deps = [...text.matchAll(IMPORT)].map((m) =>
      relative(SRC, resolve(dirname(f), m[1]!.replace(/\.js$/, '.ts'))),
    );
    g.set(relative(SRC, f), deps);
  }
  return g;
}

/** Every cycle's first occurrence, as the path that closes it (a → b → a). */
function cycles(g: Map<string, string[]>, within: (f: string) => boolean): string[] {
  const found: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (f: string): void => {
    state.set(f, 'open');
    path.push(f);
    for (const d of g.get(f) ?? []) {
      if (!within(d)) continue;
      if (state.get(d) === 'open') found.push([...path.slice(path.indexOf(d)), d].join(' → '));
      else if (!state.has(d)) visit(d);
    }
    path.pop();
    state.set(f, 'done');
  };
  for (const f of [...g.keys()].sort()) if (within(f) && !state.has(f)) visit(f);
  return found;
}

describe('the module graph', () => {
  const g = graph();

  it('reads the files it judges (a parser that found nothing would pass anything)', () => {
    expect(g.get('game/evolve.ts')).toContain('game/zones.ts');
  });

  it('given the engine (src/game), then no module imports itself through others', () => {
    expect(cycles(g, (f) => f.startsWith('game/'))).toEqual([]);
  });

  it('given the engine, then it imports nothing outside src/game and src/protocol', () => {
    const outside = [...g]
      .filter(([f]) => f.startsWith('game/'))
      .flatMap(([f, ds]) =>
        ds
          .filter((d) => !d.startsWith('game/') && !d.startsWith('protocol/'))
          .map((d) => `${f} → ${d}`),
      );
    expect(outside).toEqual([]);
  });

  it('given the agents (src/agents), then none imports the runner or the conformance kit above them', () => {
    // The runner seats agents, and agent-check (src/check) drives both: the arrows point down only.
    expect(g.get('check/games.ts')).toContain('runner/play-game.ts');
    const upward = [...g]
      .filter(([f]) => f.startsWith('agents/'))
      .flatMap(([f, ds]) =>
        ds.filter((d) => d.startsWith('runner/') || d.startsWith('check/')).map((d) => `${f} → ${d}`),
      );
    expect(upward).toEqual([]);
  });

  it('given the workers (src/scale) and the live loop (src/live), then neither imports the server', () => {
    // The live-game loop and the bus serve both the server and the workers, so they sit below both.
    expect(g.get('scale/play-job.ts')).toContain('live/live-game.ts');
    const upward = [...g]
      .filter(([f]) => f.startsWith('scale/') || f.startsWith('live/'))
      .flatMap(([f, ds]) => ds.filter((d) => d.startsWith('server/')).map((d) => `${f} → ${d}`));
    expect(upward).toEqual([]);
  });
});
