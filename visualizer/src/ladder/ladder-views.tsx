import { gamePath } from '../lib/router.js';
import { PLOT_H, PLOT_W, type Axis, type Chart, type GameRow, type LeaderRow } from './ladder-model.js';

/** An entrant's colour in the chart and its legend: the seat palette by leaderboard place (every other line dashed, for colour-blind eyes). */
const colour = (index: number): string => `var(--seat-${(index % 8) + 1})`;

/** The rating axis above the bars: its ticks at their places (percent of the bar column). */
function AxisTicks({ axis }: { axis: Axis }) {
  return (
    <div class="ci-axis" aria-hidden="true">
      {axis.ticks.map((t) => (
        <span key={t.value} style={{ left: `${t.at}%` }}>
          {t.value}
        </span>
      ))}
    </div>
  );
}

/**
 * The leaderboard as a forest plot: each entrant's rating and 95 % interval in words and as a bar
 * on one shared axis, so overlapping bars read as "not told apart yet". Render-only.
 */
export function Leaderboard({ rows, axis }: { rows: readonly LeaderRow[]; axis: Axis }) {
  return (
    <div class="scroll-x" role="region" aria-label="Leaderboard" tabIndex={0}>
      <table class="grid ladder-board" data-testid="ladder-board">
        <thead>
          <tr>
            <th>#</th>
            <th>entrant</th>
            <th title="the rating: one Plackett–Luce fit over every done deal, with its 95 % bootstrap interval">rating [95 %]</th>
            <th class="ci-col">
              interval
              <AxisTicks axis={axis} />
            </th>
            <th>games</th>
            <th class="wins">wins</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.agent} data-testid="ladder-row" data-agent={r.agent} data-newcomer={r.newcomer ? 'true' : undefined} class={r.status !== 'active' ? 'absent' : undefined}>
              <td>{r.rank}</td>
              <td>
                {r.agent}
                {r.newcomer && (
                  <span class="badge newcomer" data-testid="newcomer" title="still being placed: the matchmaker seats it first until it has its placement games">
                    newcomer
                  </span>
                )}
                {r.status !== 'active' && <span class="badge">{r.status}</span>}
              </td>
              <td class="num rating">{r.rating}</td>
              <td class="ci-col">
                <div class="ci-track">
                  {r.bar && <span class="ci-bar" data-testid="ci-bar" style={{ left: `${r.bar.from}%`, width: `${Math.max(0.5, r.bar.to - r.bar.from)}%` }} />}
                  <span class="ci-dot" style={{ left: `${r.dot}%` }} />
                </div>
              </td>
              <td class="num">{r.games}</td>
              <td class="num wins">{r.wins}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Each entrant's rating after each done deal: one line per entrant, a legend in words beside it. Plain SVG, like the game page's win graph. */
export function RatingChart({ chart }: { chart: Chart }) {
  const mid = (chart.lo + chart.hi) / 2;
  return (
    <figure class="rating-chart" data-testid="rating-chart">
      <div class="rc-body" role="img" aria-label={`Each entrant's rating after each deal, deals ${chart.first + 1} to ${chart.last + 1}`}>
        <div class="win-y" aria-hidden="true">
          <span>{chart.hi}</span>
          <span>{mid}</span>
          <span>{chart.lo}</span>
        </div>
        <svg class="rc-plot" viewBox={`0 0 ${PLOT_W} ${PLOT_H}`} preserveAspectRatio="none">
          {[25, 50, 75].map((y) => (
            <line key={y} class="grid" x1="0" x2={PLOT_W} y1={y} y2={y} vector-effect="non-scaling-stroke" />
          ))}
          {chart.series.map((s) => (
            <path key={s.agent} data-testid="rating-line" data-agent={s.agent} d={s.d} class="seat-line" style={{ stroke: colour(s.index) }} stroke-dasharray={s.index % 2 ? '6 3' : undefined} vector-effect="non-scaling-stroke" />
          ))}
        </svg>
      </div>
      <div class="win-x" aria-hidden="true">
        <span>deal {chart.first + 1}</span>
        <span>deal {chart.last + 1}</span>
      </div>
      <figcaption>
        <ul class="rc-legend">
          {chart.series.map((s) => (
            <li key={s.agent}>
              <span class={`rc-swatch${s.index % 2 ? ' dashed' : ''}`} style={{ borderColor: colour(s.index) }} aria-hidden="true" />
              {s.agent}
            </li>
          ))}
        </ul>
      </figcaption>
    </figure>
  );
}

/** The latest games (LIVE while the deal is played), each linked to its game page. */
export function LadderGames({ games }: { games: readonly GameRow[] }) {
  if (!games.length) return <p class="muted">No games yet: run the ladder with <code>tiltyard ladder run</code> or <code>tiltyard serve --ladder</code>.</p>;
  return (
    <ul class="ladder-games" data-testid="ladder-games">
      {games.map((g) => (
        <li key={g.game_id}>
          <span class={`badge${g.live ? ' live' : ''}`}>{g.badge}</span>{' '}
          <a href={gamePath(g.game_id)} class="mono" data-testid="ladder-game" data-game-id={g.game_id}>
            {g.game_id}
          </a>{' '}
          <span class="muted">deal {g.deal}</span> · {g.seats}
        </li>
      ))}
    </ul>
  );
}
