import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * A rough guess of a file's duration in seconds from its tier, for files vitest has no timing of
 * yet (a fresh clone, a new file): the tiers that spawn processes and open databases take longest.
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
 * time (its results cache) or, without one, its tier's guess. Only the order changes: every
 * file still runs.
 */
export class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const seconds = (spec: TestSpecification): number => {
      const key = `${spec.project.name}:${relative(this.ctx.config.root, spec.moduleId)}`;
      const cached = this.ctx.cache.getFileTestResults(key)?.duration;
      if (cached !== undefined && cached > 0) return cached / 1000;
      return TIER_SECONDS.find(([tier]) => tier.test(spec.moduleId))?.[1] ?? 1;
    };
    const known = new Map(files.map((f) => [f, seconds(f)]));
    return Promise.resolve([...files].sort((a, b) => known.get(b)! - known.get(a)! || a.moduleId.localeCompare(b.moduleId)));
  }
}
