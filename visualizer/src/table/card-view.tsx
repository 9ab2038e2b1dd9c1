import type { CardFace } from '../../../src/view/index.js';

/**
 * One card: a face with its name (and its one-line effect shown on hover or focus), or a back.
 * Faces take the focus and speak their name, type and effect; backs say only what they are.
 */
export function CardView({ card }: { card: CardFace }) {
  if (card.back) return <span class="pcard back" role="img" aria-label={card.label} data-back="" />;
  return (
    <span class={`pcard t-${card.type}`} tabIndex={0} role="img" aria-label={card.label} data-card={card.key} data-name={card.name}>
      <span class="nm" aria-hidden="true">
        {card.name}
      </span>
      {card.line && (
        <span class="fx" aria-hidden="true" data-testid="card-effect">
          <b>{card.name}</b> <span class="muted">{card.type}</span>
          <br />
          {card.line}
        </span>
      )}
    </span>
  );
}

/**
 * A hand the view does not hold: a fan of card backs drawn as one element (one back per card, by
 * its width), since every seek redraws every seat and six hands of separate backs cost real time.
 */
export function HandBacks({ count }: { count: number }) {
  return (
    <div class="cards-row" role="group" aria-label="hand, face down" data-row="hand, face down">
      {count > 0 ? <span class="backs" role="img" aria-label={`${count} ${count === 1 ? 'card' : 'cards'} in hand, face down`} data-count={count} style={{ width: `${count * 10 - 2}px` }} /> : <span class="muted">no cards in hand</span>}
    </div>
  );
}

/** A row of cards, labelled for what it is ("hand", "arena"). */
export function CardRow({ cards, label, empty }: { cards: CardFace[]; label: string; empty?: string }) {
  return (
    <div class="cards-row" role="group" aria-label={label} data-row={label}>
      {cards.map((c) => (
        <CardView key={c.key} card={c} />
      ))}
      {cards.length === 0 && empty && <span class="muted">{empty}</span>}
    </div>
  );
}
