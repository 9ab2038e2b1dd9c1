/**
 * The HTTP API's conventions and the socket.io spectator protocol, as the OpenAPI document's
 * description shows them (OpenAPI has no words for a socket.io namespace). The protocol's source
 * of truth is src/server/spectate/messages.ts: keep this text in step with it.
 */
export const SPECTATE_PROTOCOL = `
## Authentication

Send \`Authorization: Bearer <token>\` (or \`x-tiltyard-token: <token>\`). No token: an anonymous
spectator (public views, behind the game's spectator delay if it has one). A researcher token sees
the public table live and every private detail once the game has ended; an admin token sees
everything, live, and may ask for one seat's view (\`view=plr_2\`). A token nobody configured is
refused (401); a view above the caller's role is refused (403). A human seat's token (from
\`POST /games\`'s \`human_seats\`) reads that seat's view only — its events, snapshots, replay file
and win chances (public form), and its \`/spectate\` join — and any other view is a 403
(\`auth/forbidden\` on the socket).

## Errors

Every 4xx/5xx is JSON \`{statusCode, error, message}\`; the message names the offending field.

## Spectating live: socket.io namespace \`/spectate\`

Connect with socket.io-client to \`<server>/spectate\`; a token may go in the handshake
(\`auth: {token}\`) or in each message. \`view\` is spectator, broadcast (broadcast games only),
researcher, admin or plr_N.

Limits per client address (the peer, or the X-Forwarded-For hop named by a proxy in
TILTYARD_TRUST_PROXY): at most TILTYARD_SOCKETS_PER_IP connections at once (default 20), and
TILTYARD_SOCKETS_MAX on the server (default 2000); past them the connection fails with
\`connect_error\` whose message says why and whose \`data.code\` is \`connect/address_limit\` or
\`connect/server_full\`. A connection follows one game at a time. Joins: TILTYARD_JOINS_PER_MIN
per address (default 120 a minute, a quarter of that at once) and 10 at once then 60 a minute
per connection; past them a join is refused with \`join/rate_limited\` (the message says when to
retry) and the current subscription goes on.

Client → server:
- **join** \`{gameId, afterSeq?, view?, token?}\` — follow one game (a new join replaces the
  current one once accepted). \`afterSeq\` resumes after the last seq the client holds; without it
  the client starts at the head it may see. \`view\`: spectator, researcher, admin or a seat id,
  allowed per role as in the REST API.
- **leave** — stop following the game.
- **lobby** \`{token?}\` — hear games and tournaments start and end.
- **heartbeat_ack** — any message shows the client is alive; this one is meant for it.

Server → client:
- **snapshot** \`{game_id, seq, view, state, state_hash}\` — the viewer's projected state after
  \`seq\` (the same projection and hash as \`GET /games/{id}/snapshot\`): \`state_hash\` is the sha256
  (hex) of the RFC 8785 canonical JSON of \`state\`.
- then the **backlog**: every event after \`seq\` up to the head, then the live stream, all as
  **event** \`{game_id, seq, event, committed_at, sent_at}\` — one projected event each, in seq
  order, exactly once. Anonymous spectators of a game with a \`spectator_delay_ms\` get each event
  that long after it committed. On a broadcast game (\`options.spectators\`), anonymous joins get
  the \`broadcast\` view by default (anyone may ask for it there): every seat's hands, plans,
  private speech and emotions, never the seed, PRNG or deck order, and each event only once the
  round after its own has fully ended (or the game has ended) and the delay has passed.
- **win_probability** \`{game_id, seq, view, model, form, p}\` — each seat's chance to win after
  event \`seq\` (\`p\` by player id, summing to 1; seats out 0, the winners share 1 after the end),
  sent after the events of each step the client is sent and once on joining. It is folded from the
  events this view was sent and nothing else, so it is exactly as late as they are (the delay and
  the broadcast's hold-back apply) and equals \`GET /games/{id}/win-probability\` for the same view
  at that seq. \`form\`: \`public\` (read off the public table: anonymous spectators of a public
  game, researchers while it runs, seat views) or \`omniscient\` (every seat's hand and feelings
  too: admins, the broadcast view, researchers once the game is over). Computed once per view
  after the step has been sent, never holding up the game.
- **state_hash** \`{game_id, seq, view, state_hash}\` — after every event whose seq is a multiple
  of TILTYARD_HASH_EVERY: the hash of the projected state there, to detect drift.
- **heartbeat** \`{ts, seq}\` — every TILTYARD_HEARTBEAT_MS; a client silent for
  TILTYARD_STALE_MS is disconnected.
- **resync** \`{game_id, seq, reason}\` — the client fell too far behind: join again with
  \`afterSeq: seq\`.
- **lobby_joined** \`{role}\`, then **game_started** \`{type, game_id, agents, at}\` and
  **game_ended** \`{type, game_id, placements, at}\` (anonymous spectators hear game ends after the
  game's spectator delay), and **game_failed** \`{type, game_id, reason, at}\` when a game's
  runner failed 3 times in a row: its status is \`failed\` and it is not resumed.
- Tournaments, in the same lobby: **tournament_started** \`{type, tournament_id, name, format,
  entrants, seats, resumed, at}\` (\`resumed\`: a restarted server picked it up again);
  **tournament_game_ended** \`{type, tournament_id, game_id, key, agents, placements, progress:
  {played, scheduled, running}, at}\` once one of its games ended (\`agents\` and \`placements\` in
  seat order, 1 = won); **tournament_ended** \`{type, tournament_id, status, played, leader, at}\`.
  Each of its games also starts and ends as any game does (**game_started** / **game_ended**, then
  join it by \`game_id\`). Only ended games are ever described; anonymous spectators hear game
  and tournament ends after the tournament's spectator delay.
- **error** \`{code, message}\` — a refused request (codes: join/invalid, join/seq_out_of_range,
  join/rate_limited, lobby/invalid, game/not_found, auth/unauthorized, auth/forbidden, server/unavailable,
  game/integrity: the game's stored log failed its integrity check, so none of it is sent and the stream
  stops (docs/security.md, "Stored data proves itself"),
  tournament/duplicate_set_running: a game of a tournament's duplicate deal whose set is not over,
  which spectators and researchers may join once the whole set has ended); nothing else changed.
`.trim();
