import type { FinalBlow, GameResult } from '../../../src/view/index.js';

type Props = { result: GameResult; names: Map<string, string>; seek: (seq: number) => void };

const REASON: Record<GameResult['reason'], string> = {
  last_seat_standing: 'last seat standing',
  all_eliminated: 'every seat went out, the winner last',
  round_cap: 'the round cap was reached',
};

const ordinal = (n: number): string => {
  const s = n % 100 >= 11 && n % 100 <= 13 ? 'th' : ({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[n % 10] ?? 'th';
  return `${n}${s}`;
};

function blowText(b: FinalBlow | null, name: (id: string) => string): string {
  if (!b) return '';
  if (b.kind === 'attack') return `, last blow: ${name(b.by)}${b.card ? `’s ${b.card}` : ''}`;
  if (b.kind === 'ritual') return `, last blow: ${name(b.by)}’s ritual ${b.card}`;
  if (b.kind === 'upkeep') return ', worn down at upkeep';
  return ', last blow: a settled commitment';
}

/**
 * The result of an ended game above the table, once the position reaches game_ended: who placed
 * where, who was still standing, and how and when each other seat went out (a button to that moment).
 */
export function ResultBanner({ result, names, seek }: Props) {
  const name = (id: string) => names.get(id) ?? id;
  const winners = result.seats.filter((s) => s.placement === 1);
  return (
    <section class="panel result" aria-labelledby="result-h" data-testid="result">
      <h2 id="result-h">
        {winners.length === 1 ? <>{name(winners[0]!.player_id)} wins</> : <>{winners.map((w) => name(w.player_id)).join(' and ')} share first place</>}
        <span class="muted"> · after {result.rounds} rounds · {REASON[result.reason]}</span>
      </h2>
      <ol class="placements">
        {result.seats.map((s) => (
          <li key={s.player_id} data-testid="result-seat" data-result-player={s.player_id} data-placement={s.placement}>
            <b>{ordinal(s.placement)}</b> {name(s.player_id)} —{' '}
            {s.out ? (
              <>
                {s.placement === 1 ? 'the last out, ' : 'out '}in round {s.out.turn}
                {blowText(s.out.blow, name)}{' '}
                <button type="button" class="ghost" onClick={() => seek(s.out!.seq)} data-testid="jump">
                  go to {name(s.player_id)}’s elimination
                </button>
              </>
            ) : (
              <>still standing with {s.lives} {s.lives === 1 ? 'life' : 'lives'}</>
            )}
          </li>
        ))}
      </ol>
    </section>
  );
}
