/** Types for scripts/test-prereqs.mjs (its unit test imports it). */
export declare const NEEDS: ReadonlyArray<{ pkg: string; program: string; why: string }>;
export declare function found(program: string, path?: string): boolean;
export declare function decide(
  missing: readonly string[],
  context: { root: boolean; apt: boolean },
): { action: 'none' } | { action: 'install' | 'tell'; packages: string[]; command: string };
