/**
 * A throughput figure that stays honest at any speed: per second while at least one item a
 * second goes by, per minute while at least one a minute does, else seconds per item. A skill
 * that takes 35 s a game reads "35 s/game", never "0.0 games/s".
 *
 * @example formatRate(3, 105_000, 'game') // "1.7 games/min"
 */
export function formatRate(count: number, ms: number, unit: string, units = `${unit}s`): string {
  if (count <= 0 || ms <= 0) return `– ${units}/s`;
  const perSec = count / (ms / 1000);
  if (perSec >= 1) return `${perSec >= 100 ? Math.round(perSec).toLocaleString('en-US') : perSec.toFixed(1)} ${units}/s`;
  if (perSec * 60 >= 1) return `${(perSec * 60).toFixed(1)} ${units}/min`;
  const each = ms / 1000 / count;
  return `${each >= 100 ? Math.round(each) : each.toFixed(1)} s/${unit}`;
}
