import type { AttackRow } from '../../../src/view/index.js';
import { KeyValues } from './key-values.js';
import { seatColor } from './seat-color.js';
import { useNewestRows } from './newest-rows.js';

type Props = { rows: readonly AttackRow[]; names: Map<string, string>; selected: string | null; select: (id: string | null) => void; seek: (seq: number) => void };

const outcomeText = (r: AttackRow): string => {
  const res = r.resolution;
  if (!res) return 'pending';
  if (res.fizzled) return 'fizzled';
  if (res.outcome) return `${res.outcome}${res.slipped ? ', slipped' : ''}`;
  return res.slipped ? 'slipped' : 'resolved';
};

/** Rows drawn at first (and per "show earlier"): a little more than the scroll box shows. */
const PAGE = 15;

/** Every attack (newest first); a click opens the inspector: the plan beside its resolution. */
export function AttackPanel({ rows, names, selected, select, seek }: Props) {
  const row = rows.find((r) => r.action_id === selected) ?? null;
  const name = (id: string) => names.get(id) ?? id;
  // The newest first, a page of them: a long game has hundreds, and a seek redraws what is drawn.
  const { rows: list, more } = useNewestRows(rows, rows.length, PAGE, 'attacks');
  return (
    <div>
      {row && (
        <section class="inspector panel" aria-label="Attack inspector" data-testid="inspector">
          <div>
            <h3>
              Plan · <span style={{ color: seatColor(row.actor) }}>{name(row.actor)}</span> → <span style={{ color: seatColor(row.target) }}>{name(row.target)}</span>
            </h3>
            <p class="muted">
              round {row.turn} · {row.card?.name ?? 'hidden card'} · <button type="button" class="ghost" onClick={() => seek(row.seq)}>go to seq {row.seq}</button>
            </p>
            <div data-testid="inspector-plan">{row.plan ? <KeyValues value={row.plan} /> : <p class="muted">No plan visible to this view.</p>}</div>
          </div>
          <div>
            <h3>Resolution</h3>
            {row.resolution ? (
              <>
                <p class="muted">
                  {outcomeText(row)} · <button type="button" class="ghost" onClick={() => seek(row.resolution!.seq)}>go to seq {row.resolution.seq}</button>
                </p>
                <div data-testid="inspector-resolution">
                  <KeyValues
                    value={{
                      // Card moves are bookkeeping; the deltas are the story.
                      tactical: { ...row.resolution.tactical, card_moves: undefined },
                      affective: row.resolution.affective,
                      manipulation_success: row.resolution.manipulation_success,
                      outcome: row.resolution.outcome,
                      observed_shift: row.resolution.observed_shift,
                      slipped: row.resolution.slipped,
                      contest: row.resolution.manipulation,
                      reaction: row.reaction_card?.name ?? null,
                      notes: row.resolution.rules_notes,
                    }}
                  />
                </div>
              </>
            ) : (
              <p class="muted" data-testid="inspector-resolution">
                Not resolved yet at this point.
              </p>
            )}
          </div>
          <button type="button" class="ghost close" onClick={() => select(null)} aria-label="Close the inspector">
            ✕
          </button>
        </section>
      )}
      {list.length === 0 ? (
        <p class="muted">No attacks yet.</p>
      ) : (
        <div class="scroll">
          <table class="grid fixed" data-testid="attacks">
            <thead>
              <tr>
                <th>rd</th>
                <th>attacker → target</th>
                <th>card</th>
                <th>outcome</th>
              </tr>
            </thead>
            <tbody>
              {list.map(({ item: r }) => (
                <tr key={r.action_id} class={`clickable${r.action_id === selected ? ' sel' : ''}`} data-testid="attack-row" onClick={() => select(r.action_id)}>
                  <td>{r.turn}</td>
                  <td>
                    <button type="button" class="ghost linkish" aria-label={`${name(r.actor)} → ${name(r.target)}: inspect the attack of round ${r.turn}`} onClick={(e) => (e.stopPropagation(), select(r.action_id))}>
                      <span style={{ color: seatColor(r.actor) }}>{name(r.actor)}</span> → <span style={{ color: seatColor(r.target) }}>{name(r.target)}</span>
                    </button>
                  </td>
                  <td>{r.card?.name ?? 'face-down'}</td>
                  <td class={r.resolution?.manipulation_success ? 'ok-text' : r.resolution?.slipped ? 'bad-text' : undefined}>{outcomeText(r)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {more}
        </div>
      )}
    </div>
  );
}
