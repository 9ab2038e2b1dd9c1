import { z } from 'zod';

/** C0 controls and DEL: never part of an id, a token or a query value. */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

/** A high surrogate not followed by a low one, or a low one without its high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Why `text` cannot be an id or a short field at the edge, or null when it can: a NUL or another
 * control character (PostgreSQL refuses NUL in text, and no id holds one), or a lone UTF-16
 * surrogate (text that has no UTF-8 form, e.g. a JSON "\ud800").
 *
 * @example unsafeText('game_\u0000') // 'contains a control character (U+0000)'
 */
export function unsafeText(text: string): string | null {
  const control = CONTROL.exec(text);
  if (control) return `contains a control character (U+${control[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')})`;
  if (LONE_SURROGATE.test(text)) return 'is not valid Unicode (a lone surrogate: it has no UTF-8 form)';
  return null;
}

/** A string that passed unsafeText, for zod schemas at the edges (socket messages, request bodies). */
export const SafeString = z.string().superRefine((text, ctx) => {
  const why = unsafeText(text);
  if (why) ctx.addIssue({ code: 'custom', message: why });
});
