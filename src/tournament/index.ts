/** The pure tournament core: config, formats, ratings and standings. No I/O beyond resolving agent specs in config. */
export * from './types.js';
export { parseTournamentConfig, tournamentConfigSchema, TournamentConfigSchema, gameRules, defaultSwissRounds, DEFAULT_SEEDS, type AgentCheck, type TournamentConfigInput } from './config.js';
export { SCHEDULERS, nextGames } from './formats.js';
export { roundRobin, roundRobinSchedule, roundRobinTables } from './round-robin.js';
export { gauntlet, gauntletSchedule, gauntletTables } from './gauntlet.js';
export { swiss, swissRound, swissTables } from './swiss.js';
export { groupOf, capGames } from './duplicate.js';
export { deriveSeed } from './seeds.js';
export { fitRatings, PRIOR_MU, PRIOR_SIGMA, SCALE, type FittedRating } from './fit-standings.js';
export { fitPlackettLuce, type Fit, type FitGame } from './plackett-luce.js';
export { bootstrapMean, DEFAULT_RESAMPLES, type Interval } from './bootstrap.js';
export { standings, headToHead, type HeadToHead, type StandingsOptions } from './standings.js';
export { separated, DEFAULT_SEPARATION_MIN_GAMES } from './separation.js';
export { resultFromEvents } from './result-of.js';
export { tournamentReport, type Report, type ReportGame } from './report.js';
export { reportToCsv } from './report-csv.js';
export type { AgentResearch, PairResearch, OutcomeFigures } from '../runner/research-figures.js';
export type { ProviderUsage } from '../runner/research-tally.js';
