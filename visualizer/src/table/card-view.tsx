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

const cards = (n: number): string => `${n} ${n === 1 ? 'card' : 'cards'}`;

/**
 * A hand the view does not hold: a fan of card backs drawn as one element (one back per card, by
 * its width), since every seek redraws every seat and six hands of separate backs cost real time.
 * Labelled "hand N" in words: the cards in play beside it are face-up chips, and a count next to
 * chips read as if it counted them.
 */
export function HandBacks({ count }: { count: number }) {
  return (
    <div class="cards-row hand" role="group" aria-label={`hand: ${cards(count)}, face down`} data-row="hand, face down">
      <span class="row-label" aria-hidden="true">
        hand {count}
      </span>
      {count > 0 ? <span class="backs" role="img" aria-label={`${cards(count)} in hand, face down`} data-count={count} style={{ width: `${count * 10 - 2}px` }} /> : <span class="muted">empty</span>}
    </div>
  );
}

/** What each row is called on screen and to assistive tech. */
const ROW_WORDS: Record<string, string> = { hand: 'hand', arena: 'in play' };

/**
 * A row of cards, labelled for what it is ("hand", "arena"): the hand as upright cards, the cards
 * in play as flat chips, each row with its name and count in words.
 */
export function CardRow({ cards: faces, label, empty }: { cards: CardFace[]; label: string; empty?: string }) {
  const words = ROW_WORDS[label] ?? label;
  return (
    <div class={`cards-row ${label}`} role="group" aria-label={`${words}: ${cards(faces.length)}`} data-row={label}>
      <span class="row-label" aria-hidden="true">
        {words} {faces.length}
      </span>
      {faces.map((c) => (
        <CardView key={c.key} card={c} />
      ))}
      {faces.length === 0 && empty && <span class="muted">{empty}</span>}
    </div>
  );
}
