import compression from 'compression';

/**
 * Compresses every text answer of the HTTP server (the visualizer's page and hashed assets, JSON,
 * the events pages, /docs) with brotli or gzip, whichever the client prefers, above 1 KB: a
 * 1,000-event game page was ~900 KB uncompressed. `compression` (expressjs) negotiates
 * Accept-Encoding, sets `Vary: Accept-Encoding`, skips types that do not compress and answers that
 * already carry a Content-Encoding, and flushes as a response is written, so nothing is held back.
 * Brotli runs at quality 4 (the library's default for dynamic answers: most of the gain for a
 * fraction of the CPU of quality 11).
 *
 * socket.io is not affected: engine.io answers its long-polling and websocket upgrade requests
 * itself, before Express (see SpectateIoAdapter), with its own settings.
 *
 * BREACH (a compression length oracle) needs three things in one response body: a secret that
 * stays the same across many requests, text the attacker chooses and can vary per request, and an
 * attacker who sees the encrypted lengths of the victim's responses. Here:
 * - no credential is ever in a body: tokens come in the Authorization header and are never echoed
 *   (no CSRF tokens, no cookies, no session ids exist);
 * - the attacker-controlled text (agent names and speech) is in the game log, written once by
 *   playing the game: it cannot be varied per request, every probe would be a visible move in an
 *   append-only log, and a response for a given range of seqs is the same bytes every time;
 * - what is secret in a body (hidden cards, plans, private speech) is only ever sent to a view
 *   entitled to it (admin, a seat, a researcher after the end), so it is never mixed into an
 *   anonymous caller's responses, whose sizes are the only ones an outsider could drive.
 * So compression gives no oracle on secret data here. A route that one day echoes request input
 * next to a per-user secret must opt out (set `Content-Encoding: identity` on it).
 *
 * @example app.use(compress) // before the routes and static assets
 */
export const compress = compression({ threshold: 1024 });
