import { DEFAULT_RULES } from '../../../game/rules.js';

/**
 * The rules as published: a seat's view carries no rule numbers beyond its flags, so the agents
 * reason with the defaults (a game that overrides them plays against slightly miscalibrated agents).
 */
export const RULES = DEFAULT_RULES;

/** Incoming damage is multiplied by this at the given exposure. */
export const amplify = (exposure: number): number => 1 + RULES.damage_exposure_factor * exposure;
