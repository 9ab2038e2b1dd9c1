export * from './graph.js';
export * from './executor.js';
export * from './replan.js';
export { backoffDelayMs } from './backoff.js';
