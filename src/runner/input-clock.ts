/**
 * Where a persistent runner's input timestamps come from. Time is an input to the engine: each
 * decision's ts is recorded with it, so re-simulation reuses it and never reads a clock. A clock
 * gets the ts of the previous input (null before the first), so a resumed runner continues it.
 */
export type InputClock = (previous: string | null) => string;

/** Real time, as `Date#toISOString` writes it (the form the store requires). */
export const wallClock: InputClock = () => new Date().toISOString();

/** The first input of a logical-clock game, the epoch of runGame's logicalClock(). */
export const LOGICAL_EPOCH = new Date(Date.UTC(2026, 0, 1)).toISOString();

/**
 * One millisecond after the previous input: the same timestamps as runGame's logicalClock(), and
 * derived from the log alone, so an interrupted and resumed game stamps exactly what an
 * uninterrupted one does (reproducible logs, used by the crash test).
 */
export const logicalInputClock: InputClock = (previous) =>
  previous === null ? LOGICAL_EPOCH : new Date(Date.parse(previous) + 1).toISOString();

export const INPUT_CLOCKS = { wall: wallClock, logical: logicalInputClock } as const;
export type InputClockName = keyof typeof INPUT_CLOCKS;
