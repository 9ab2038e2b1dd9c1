/**
 * The tiers that only compute: unit, property and slow-band tests (no database, no server, no
 * browser). vitest.unit.config.ts runs them alone; vitest.config.ts runs them without isolation.
 */
export const MEMORY_TIERS = '{src,test}/**/*.{unit,prop,slow}.spec.ts';
