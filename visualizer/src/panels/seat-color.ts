/** Seat n (plr_n) → its colour variable (Okabe–Ito, seats 6 and 7 lightened to ≥ 4.5:1 on the panels); seats past 8 reuse the palette. */
export function seatColor(playerId: string): string {
  const n = Number(/(\d+)$/.exec(playerId)?.[1] ?? 1);
  return `var(--seat-${((n - 1) % 8) + 1})`;
}

/** Display names by player id, from a world view's players. */
export function namesOf(players: readonly { player_id: string; display_name: string }[]): Map<string, string> {
  return new Map(players.map((p) => [p.player_id, p.display_name || p.player_id]));
}

/** The same palette as hex, for canvas (uPlot cannot read CSS variables). */
export const SEAT_HEX = ['#e69f00', '#56b4e9', '#009e73', '#f0e442', '#cc79a7', '#5b8def', '#e4762e', '#bbbbbb'] as const;
export function seatHex(playerId: string): string {
  const n = Number(/(\d+)$/.exec(playerId)?.[1] ?? 1);
  return SEAT_HEX[(n - 1) % SEAT_HEX.length]!;
}
