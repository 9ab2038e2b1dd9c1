import { interpolateCividis, interpolatePuOr } from 'd3-scale-chromatic';
import { gamePath } from '../lib/router.js';
import { inkOn } from '../lib/ink.js';
import type { AttackCell, HeadToHead } from './tournament-data.js';

const fixed = (x: number, d = 2) => x.toFixed(d);

/**
 * The head-to-head matrix: row entrant against column entrant, the games they shared and how often
 * the row placed above / level / below. Colour: the row's score (above + level / 2) / games, on a
 * colour-blind-safe diverging scale; the numbers carry the same information as text.
 */
export function HeadToHeadMatrix({ entrants, cells }: { entrants: string[]; cells: HeadToHead[] }) {
  const at = new Map(cells.map((c) => [`${c.a}\u0000${c.b}`, c]));
  return (
    <div class="scroll-x">
      <table class="matrix" data-testid="h2h">
        <caption class="muted">Row placed above – level – below column (games shared)</caption>
        <thead>
          <tr>
            <th scope="col">row \ column</th>
            {entrants.map((e) => (
              <th key={e} scope="col">
                {e}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {entrants.map((a) => (
            <tr key={a}>
              <th scope="row">{a}</th>
              {entrants.map((b) => {
                const c = a === b ? undefined : at.get(`${a}\u0000${b}`);
                if (!c || c.games === 0) return <td key={b} class="empty">{a === b ? '·' : '—'}</td>;
                const score = (c.above + c.level / 2) / c.games;
                // PuOr: purple for the row ahead (score 1), orange behind.
                const fill = interpolatePuOr(1 - score);
                return (
                  <td key={b} data-testid="h2h-cell" data-a={a} data-b={b} style={{ background: fill, color: inkOn(fill) }} title={`${a} vs ${b}: ${c.above} above, ${c.level} level, ${c.below} below in ${c.games} games`}>
                    {c.above}–{c.level}–{c.below}
                    <span class="sub"> ({c.games})</span>
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

type Sel = { agent: string; target: string } | null;

/**
 * The who-manipulated-whom matrix: row entrant's manipulation attempts on the column entrant,
 * successes / attempts, shaded by attempts (cividis). Each cell is a button: it selects the pair,
 * whose games and attacks are listed below.
 */
export function ManipulationMatrix({ entrants, cells, sel, onSelect }: { entrants: string[]; cells: AttackCell[]; sel: Sel; onSelect: (s: Sel) => void }) {
  const at = new Map(cells.map((c) => [`${c.agent}\u0000${c.target}`, c]));
  const most = Math.max(1, ...cells.map((c) => c.attempts));
  return (
    <div class="scroll-x">
      <table class="matrix" data-testid="manip">
        <caption class="muted">Row manipulated column: successes / attempts. Click a cell for the games and attacks behind it.</caption>
        <thead>
          <tr>
            <th scope="col">attacker \ target</th>
            {entrants.map((e) => (
              <th key={e} scope="col">
                {e}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {entrants.map((a) => (
            <tr key={a}>
              <th scope="row">{a}</th>
              {entrants.map((b) => {
                const c = at.get(`${a}\u0000${b}`);
                if (a === b) return <td key={b} class="empty">·</td>;
                const t = c ? 0.15 + (0.85 * c.attempts) / most : 0;
                const chosen = sel?.agent === a && sel.target === b;
                return (
                  <td key={b} style={c ? { background: interpolateCividis(t), color: inkOn(interpolateCividis(t)) } : undefined} class={chosen ? 'chosen' : c ? '' : 'empty'}>
                    <button
                      type="button"
                      class="cell-btn"
                      data-testid="manip-cell"
                      data-agent={a}
                      data-target={b}
                      data-attempts={c?.attempts ?? 0}
                      aria-pressed={chosen}
                      // Starts with the visible text (WCAG 2.5.3: a spoken "click 2/7" finds it).
                      aria-label={`${c ? `${c.successes}/${c.attempts}` : '0'}: ${a} on ${b}, ${c?.successes ?? 0} successes of ${c?.attempts ?? 0} attempts`}
                      onClick={() => onSelect(chosen ? null : { agent: a, target: b })}
                    >
                      {c ? `${c.successes}/${c.attempts}` : '0'}
                    </button>
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The games and attacks behind one cell, each attack a link to its game at the attack's seq. */
export function CellAttacks({ cell, sel }: { cell: AttackCell | undefined; sel: NonNullable<Sel> }) {
  return (
    <div data-testid="manip-detail" class="panel">
      <h3>
        {sel.agent} → {sel.target}: {cell ? `${cell.successes} successes, ${cell.partial} partial, of ${cell.attempts} attempts in ${cell.games.length} games` : 'no attempts'}
      </h3>
      {cell && (
        <>
          <p>
            Games:{' '}
            {cell.games.map((g, i) => (
              <span key={g}>
                {i > 0 && ' · '}
                <a href={gamePath(g)} data-testid="manip-game" class="mono">
                  {g}
                </a>
              </span>
            ))}
          </p>
          <div class="scroll">
            <table class="grid" data-testid="manip-attacks">
              <thead>
                <tr>
                  <th>game</th>
                  <th>round</th>
                  <th>plan</th>
                  <th>intent</th>
                  <th>outcome</th>
                </tr>
              </thead>
              <tbody>
                {cell.attacks.map((x) => (
                  <tr key={`${x.game_id}:${x.seq}`}>
                    <td>
                      <a href={`${gamePath(x.game_id)}?seq=${x.seq}`} data-testid="manip-attack" data-game-id={x.game_id} data-seq={x.seq}>
                        {x.game_id} @ {x.seq}
                      </a>
                    </td>
                    <td>{x.turn}</td>
                    <td>{x.manipulation_plan.replace(/_/g, ' ')}</td>
                    <td>{x.emotional_intent}</td>
                    <td class={x.outcome === 'success' ? 'ok-text' : x.outcome === 'failed' ? 'bad-text' : ''}>{x.outcome}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </div>
  );
}

export { fixed };
