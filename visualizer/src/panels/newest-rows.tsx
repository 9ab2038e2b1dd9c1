import type { JSX } from 'preact';
import { useState } from 'preact/hooks';

/**
 * The newest rows of a long list, drawn a page at a time: a seek across the game replaces every
 * drawn row, so drawing only about what the scroll box shows keeps a seek cheap however long the
 * game. Rows are the items before `end` (the position on screen), newest first, each with its index
 * in the whole list as its key (a live line or a short step adds and drops rows, no rewrite).
 *
 * `noun` names the rows in the "show earlier" button ("lines", "attacks").
 *
 * @example const { rows, more } = useNewestRows(lines, count, 30, 'lines');
 */
export function useNewestRows<T>(items: readonly T[], end: number, page: number, noun: string): { rows: { item: T; key: number }[]; more: JSX.Element | null } {
  const [limit, setLimit] = useState(page);
  const start = Math.max(0, end - limit);
  const rows: { item: T; key: number }[] = [];
  for (let i = end - 1; i >= start; i--) rows.push({ item: items[i]!, key: i });
  const more =
    start > 0 ? (
      <button type="button" class="ghost more" onClick={() => setLimit((l) => l + page)} data-testid="show-earlier">
        {start <= page ? `show all ${start} earlier ${noun}` : `show ${page} more of the ${start} earlier ${noun}`}
      </button>
    ) : null;
  return { rows, more };
}
