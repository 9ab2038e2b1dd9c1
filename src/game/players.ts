import type { GameState, PlayerId, PlayerState } from './state.js';

/** Looks a seat up; an unknown id here is a broken invariant (inputs are validated before). */
export function player(state: GameState, id: PlayerId): PlayerState {
  for (const p of state.players) if (p.player_id === id) return p;
  throw new Error(`unknown player ${id}`);
}

export function findPlayer(state: GameState, id: unknown): PlayerState | undefined {
  return state.players.find((p) => p.player_id === id);
}

export const alivePlayers = (state: GameState): PlayerState[] => state.players.filter((p) => p.alive);

/** Alive seats in this round's initiative order. */
export const aliveInInitiative = (state: GameState): PlayerId[] =>
  state.initiative_order.filter((id) => player(state, id).alive);

export const cardName = (state: GameState, cardId: string): string => {
  const name = state.cards[cardId];
  if (name === undefined) throw new Error(`unknown card ${cardId}`);
  return name;
};
