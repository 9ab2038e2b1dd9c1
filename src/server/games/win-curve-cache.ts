import type { WinReport } from '../../eval/win-report.js';

/**
 * Recently computed win-probability curves, keyed by game, view, whether the game was over and
 * the head the caller may see: a curve is a pure function of those (the log below a head never
 * changes), so the visualizer polling a game, or many anonymous viewers of one, fold it once per
 * new head. Bounded: the oldest key goes first.
 */
export class WinCurveCache {
  private readonly curves = new Map<string, WinReport>();

  constructor(private readonly capacity = 64) {}

  static key(gameId: string, viewKey: string, gameOver: boolean, head: number): string {
    return `${gameId}|${viewKey}|${gameOver ? 'over' : 'running'}|${head}`;
  }

  get(key: string): WinReport | undefined {
    return this.curves.get(key);
  }

  set(key: string, report: WinReport): void {
    this.curves.delete(key);
    this.curves.set(key, report);
    if (this.curves.size > this.capacity) this.curves.delete(this.curves.keys().next().value!);
  }
}
