import type { CommitmentRow, PredictionTable } from '../../../src/view/index.js';

type Names = Map<string, string>;

const OUTCOME_CLASS: Record<string, string> = { kept: 'ok-text', came_true: 'ok-text', credible: 'ok-text', broken: 'bad-text', empty: 'bad-text', called: 'bad-text' };

/** Promises, threats, warnings… and how each settled (kept ✓ / broken ✗ also in words). */
export function LedgerPanel({ rows, names }: { rows: readonly CommitmentRow[]; names: Names }) {
  if (rows.length === 0) return <p class="muted">No commitments this view can see yet.</p>;
  const name = (id: string | null) => (id ? (names.get(id) ?? id) : '—');
  return (
    <div class="scroll" role="region" aria-label="Commitments" tabIndex={0}>
      <table class="grid" data-testid="ledger">
        <thead>
          <tr>
            <th>rd</th>
            <th>who</th>
            <th>kind</th>
            <th>to</th>
            <th>said</th>
            <th>outcome</th>
          </tr>
        </thead>
        <tbody>
          {[...rows].reverse().map((r) => (
            <tr key={r.commitment_id}>
              <td>{r.turn}</td>
              <td>{name(r.speaker)}</td>
              <td>
                {r.kind}
                {r.public ? '' : ' (private)'}
              </td>
              <td>{name(r.target)}</td>
              <td>{r.text ?? <span class="muted">hidden</span>}</td>
              <td class={r.outcome ? OUTCOME_CLASS[r.outcome] : undefined}>{r.outcome ? `${r.outcome === 'kept' || r.outcome === 'came_true' ? '✓ ' : r.outcome === 'broken' ? '✗ ' : ''}${r.outcome.replace('_', ' ')}` : 'open'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Behaviour-shift reads: accuracy per seat, then every read and how it scored. */
export function PredictionPanel({ table, names }: { table: PredictionTable; names: Names }) {
  const name = (id: string) => names.get(id) ?? id;
  const acc = Object.entries(table.accuracy);
  if (table.rows.length === 0) return <p class="muted">No predictions this view can see yet.</p>;
  return (
    <div data-testid="predictions">
      <ul class="tells">
        {acc.map(([id, a]) => (
          <li key={id}>
            {name(id)}: {a.correct}/{a.scored} right{a.rate !== null ? ` (${Math.round(a.rate * 100)}%)` : ''}
          </li>
        ))}
      </ul>
      <div class="scroll" role="region" aria-label="Every read" tabIndex={0}>
        <table class="grid">
          <thead>
            <tr>
              <th>rd</th>
              <th>who reads</th>
              <th>whom</th>
              <th>predicted</th>
              <th>observed</th>
              <th>right?</th>
            </tr>
          </thead>
          <tbody>
            {[...table.rows].reverse().map((r, i) => (
              <tr key={`${r.seq}-${i}`}>
                <td>{r.turn}</td>
                <td>{name(r.predictor)}</td>
                <td>{name(r.target)}</td>
                <td>{r.predicted}</td>
                <td>{r.observed ? r.observed.join(', ') || 'nothing' : `rounds ${r.from_turn}–${r.to_turn}`}</td>
                <td class={r.correct === true ? 'ok-text' : r.correct === false ? 'bad-text' : undefined}>{r.correct === null ? 'open' : r.correct ? '✓ yes' : '✗ no'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
