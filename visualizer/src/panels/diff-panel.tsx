import { useMemo, useState } from 'preact/hooks';
import { diffViews } from '../../../src/view/index.js';
import type { View } from './types.js';

type Props = { cursor: number; head: number; stateAt: (seq: number) => View; first: number };

/** Diff two points: pick seq A and B (or take the current position), list what changed between them. */
export function DiffPanel({ cursor, head, stateAt, first }: Props) {
  const [a, setA] = useState(String(Math.max(first, cursor - 20)));
  const [b, setB] = useState(String(cursor));
  const [pair, setPair] = useState<[number, number] | null>(null);
  const clamp = (x: string) => Math.max(first, Math.min(head, Math.round(Number(x) || 0)));
  const entries = useMemo(() => (pair ? diffViews(stateAt(pair[0]), stateAt(pair[1])) : null), [pair]);
  return (
    <div data-testid="diff">
      <form
        class="controls"
        onSubmit={(e) => {
          e.preventDefault();
          setPair([clamp(a), clamp(b)]);
        }}
      >
        <label>
          A <input type="number" min={first} max={head} value={a} onInput={(e) => setA((e.target as HTMLInputElement).value)} style={{ width: '6em' }} data-testid="diff-a" />
        </label>
        <button type="button" class="ghost" onClick={() => setA(String(cursor))}>
          A = here
        </button>
        <label>
          B <input type="number" min={first} max={head} value={b} onInput={(e) => setB((e.target as HTMLInputElement).value)} style={{ width: '6em' }} data-testid="diff-b" />
        </label>
        <button type="button" class="ghost" onClick={() => setB(String(cursor))}>
          B = here
        </button>
        <button type="submit" data-testid="diff-run">
          Compare
        </button>
      </form>
      {entries && pair && (
        <>
          <p class="muted">
            {entries.length} changes from seq {pair[0]} to seq {pair[1]}
          </p>
          <ul class="diff-list" data-testid="diff-list" aria-label="Changes" tabIndex={0}>
            {entries.map((d, i) => (
              <li key={`${d.path}-${i}`}>{d.text}</li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}
