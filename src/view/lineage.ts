/**
 * A game's lineage in words, for the game page and `tiltyard games <id>` alike: where a fork
 * branched, whether its draws differ from its parent's, who sat there, and how it went.
 */

/** A fork as GET /games/:id lists it under its parent (`forks`), as the caller may see it. */
export type ForkSummary = {
  game_id: string;
  /** The fork point: the fork's events 1..seq are its parent's. */
  seq: number;
  /** The round of the event at the fork point; null when it could not be read. */
  round: number | null;
  /** True when the fork kept its parent's deck and PRNG (`same_deck`): the same draws as the parent. */
  same_deck: boolean;
  /** The secret the fork reseeded from (or a legacy PRNG reseed), to whom may see it: admins, and everyone once the fork has ended. */
  reseed?: number;
  status: 'created' | 'running' | 'ended' | 'aborted' | 'failed';
  seats: readonly { seat: number; player_id: string; agent: string; display_name?: string }[];
  /** Null until the caller may see the fork's end. */
  placements: readonly { player_id: string; placement: number }[] | null;
};

/** "round 4 (seq 160)", or "seq 160" when the round is unknown. */
export const branchPoint = (seq: number, round: number | null | undefined): string => (round === null || round === undefined ? `seq ${seq}` : `round ${round} (seq ${seq})`);

/**
 * What a fork's deck does after its fork point: "new draws (reseed 7)", "new draws (reseed secret
 * until it ends)", "the same draws", or for a fork made before secrets "the same deck, a new PRNG
 * (reseed 7)". Lineage that does not say `same_deck` (older records) reads a reseed as new draws.
 *
 * @example drawsPhrase({ same_deck: false }) // 'new draws (reseed secret until it ends)'
 */
export function drawsPhrase(fork: { same_deck?: boolean; reseed?: number | undefined }): string {
  const { same_deck, reseed } = fork;
  if (same_deck === true) return reseed === undefined ? 'the same draws' : `the same deck, a new PRNG (reseed ${reseed})`;
  if (same_deck === false && reseed === undefined) return 'new draws (reseed secret until it ends)';
  return reseed === undefined ? 'the same draws' : `new draws (reseed ${reseed})`;
}

/** "Ada (balanced)", or the agent alone when the seat has no other name. */
function seatName(s: ForkSummary['seats'][number]): string {
  return s.display_name && s.display_name !== s.agent ? `${s.display_name} (${s.agent})` : s.agent;
}

const and = (xs: readonly string[]): string => (xs.length <= 1 ? (xs[0] ?? '') : `${xs.slice(0, -1).join(', ')} and ${xs.at(-1)!}`);

/**
 * How a fork stands, as one phrase: "Ada (balanced) won", "Ada and Bo shared first place",
 * "still playing", "queued", "aborted", "failed" (ended with no placements the caller may see:
 * "ended").
 *
 * @example forkOutcome({ status: 'ended', placements: [{ player_id: 'plr_2', placement: 1 }], seats }) // 'turtle won'
 */
export function forkOutcome(fork: Pick<ForkSummary, 'status' | 'seats' | 'placements'>): string {
  if (fork.status === 'created') return 'queued';
  if (fork.status === 'running') return 'still playing';
  if (fork.status !== 'ended') return fork.status;
  const first = (fork.placements ?? []).filter((p) => p.placement === 1).map((p) => fork.seats.find((s) => s.player_id === p.player_id));
  const names = first.flatMap((s) => (s ? [seatName(s)] : []));
  if (names.length === 0) return 'ended';
  return names.length === 1 ? `${names[0]!} won` : `${and(names)} shared first place`;
}

/** The fork's agents by seat: "balanced, aggressor, aggressor, random". */
export const forkAgents = (fork: Pick<ForkSummary, 'seats'>): string =>
  [...fork.seats]
    .sort((a, b) => a.seat - b.seat)
    .map((s) => s.agent)
    .join(', ');
