/** The pure game engine: initialState, decide, evolve, and the projections agents and viewers get. */
export { initialState, ConfigError } from './setup.js';
export { decide, evolve, fold, stepInPlace, answerInPlace, awaiting, EngineInput, type StepResult, type Rejection } from './engine.js';
export { requestFor } from './request.js';
export { reseedHidden } from './reseed.js';
export { viewEvent, viewState, worldView, privateView, type Viewer, type StateView } from './views.js';
export { legalActions } from './legal.js';
export { RulesConfig, StrictRulesConfig, DEFAULT_RULES, RULES_VERSION, RULES_VERSIONS, type RulesInput } from './rules.js';
export { GameConfig, SeatConfig, pinnedConfig, type GameConfigInput } from './config.js';
export { CATALOG, CATALOG_SIZE, cardDef, type CardDef } from './cards.js';
export { allCardLocations } from './zones.js';
export type { GameState, PlayerState } from './state.js';
