import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Each file's duration in seconds as a CI run measured it (scripts/test-seconds.mjs writes it from
 * .ci/out/vitest.json): a fresh clone has no vitest cache, and a tier's guess can be 10× off (a
 * property file of a minute guessed at 5 s started last and ended the run alone).
 */
function measured(root: string): Record<string, number> {
  try {
    return JSON.parse(readFileSync(join(root, 'test', 'file-seconds.json'), 'utf8')) as Record<string, number>;
  } catch {
    return {};
  }
}

/**
 * A rough guess of a file's duration in seconds from its tier, for files with no timing at all
 * (a new file): the tiers that spawn processes and open databases take longest.
 */
const TIER_SECONDS: ReadonlyArray<[RegExp, number]> = [
  [/\.e2e\.spec\./, 60],
  [/\.(int|contract)\.spec\./, 20],
  [/\.slow\.spec\./, 20],
  [/\.prop\.spec\./, 5],
];

/**
 * Starts the longest files first so that the workers finish together instead of one of them
 * running a two-minute file alone at the end. A file's duration is the one vitest measured last
 * time (its results cache) or, without one, the one a CI run measured (test/file-seconds.json),
 * or else its tier's guess. Only the order changes: every file still runs.
 */
export class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const table = measured(this.ctx.config.root);
    const seconds = (spec: TestSpecification): number => {
      const path = relative(this.ctx.config.root, spec.moduleId);
      const cached = this.ctx.cache.getFileTestResults(`${spec.project.name}:${path}`)?.duration;
      if (cached !== undefined && cached > 0) return cached / 1000;
      if (table[path] !== undefined) return table[path];
      return TIER_SECONDS.find(([tier]) => tier.test(spec.moduleId))?.[1] ?? 1;
    };
    const known = new Map(files.map((f) => [f, seconds(f)]));
    return Promise.resolve([...files].sort((a, b) => known.get(b)! - known.get(a)! || a.moduleId.localeCompare(b.moduleId)));
  }
}
