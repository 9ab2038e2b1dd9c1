import type { CardFace } from '../../../src/view/index.js';

/**
 * One card: a face with its name (and its one-line effect shown on hover or focus), or a back.
 * Faces take the focus and speak their name, type and effect; backs say only what they are.
 */
export function CardView({ card, small = false }: { card: CardFace; small?: boolean }) {
  if (card.back) return <span class={`pcard back${small ? ' small' : ''}`} role="img" aria-label={card.label} data-back="" />;
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

/** A row of cards, labelled for what it is ("hand", "arena"). */
export function CardRow({ cards, label, empty, small = false }: { cards: CardFace[]; label: string; empty?: string; small?: boolean }) {
  return (
    <div class="cards-row" role="group" aria-label={label} data-row={label}>
      {cards.map((c) => (
        <CardView key={c.key} card={c} small={small} />
      ))}
      {cards.length === 0 && empty && <span class="muted">{empty}</span>}
    </div>
  );
}
