export * from './settings.js';
export * from './availability.js';
export * from './policy.js';
export * from './bwrap-argv.js';
export * from './confine.js';
export * from './limit-hits.js';
export * from './syscall-trace.js';
export * from './trace-attempts.js';
