import { heuristicAgent } from './heuristics/policy.js';
import { BASE_PERSONALITY } from './heuristics/personality.js';

/** `balanced`: weighs attack, defence and building evenly; keeps its word; reads tells for its plans. */
export const BALANCED = BASE_PERSONALITY;

export const balancedAgent = heuristicAgent(BALANCED);
