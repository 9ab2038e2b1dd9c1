import type { GameEvent, SpeechAct } from '../protocol/index.js';

type Outcome = NonNullable<Extract<GameEvent, { type: 'ledger_settled' }>['payload']['settlements']>[number]['outcome'];

/** A commitment (promise, concession, threat, warning, bluff) and, once settled, how. */
export type CommitmentRow = {
  commitment_id: string;
  seq: number;
  turn: number;
  kind: SpeechAct;
  speaker: string;
  target: string | null;
  public: boolean;
  text: string | null;
  outcome: Outcome | null;
  settled_seq: number | null;
};

/**
 * The commitment ledger as this view knows it. Which statements are commitments is private to
 * their speaker until the game ends, so a seat sees its own, admins (and researchers after the
 * end) all, spectators none.
 */
export function commitmentLedger(events: readonly GameEvent[]): CommitmentRow[] {
  const rows = new Map<string, CommitmentRow>();
  for (const e of events) {
    if (e.type === 'speech_posted') {
      const p = e.payload;
      if (!p.commitment_id || !p.speech_act) continue;
      rows.set(p.commitment_id, { commitment_id: p.commitment_id, seq: e.seq, turn: e.turn, kind: p.speech_act, speaker: p.player_id, target: p.target_player_id, public: p.channel === 'public', text: p.text ?? null, outcome: null, settled_seq: null });
    } else if (e.type === 'ledger_settled') {
      for (const s of e.payload.settlements ?? e.own?.settlements ?? []) {
        const row = rows.get(s.commitment_id);
        if (!row) continue;
        row.outcome = s.outcome;
        row.settled_seq = e.seq;
      }
    }
  }
  return [...rows.values()];
}
