-- Every game's events and actions as rows, whether hot (events, actions) or compacted and thawed
-- for SQL by `tiltyard store thaw` (thawed_events, thawed_actions). A game is in one or the
-- other, never both: the store thaws only compacted games, whose rows have left events/actions.
-- PostgreSQL pushes a query's predicates into both branches, so `WHERE game_id = … AND turn = …`
-- uses each table's (game_id, turn, phase) and (game_id, player_id, turn) indexes.
CREATE VIEW "events_all" AS
  SELECT "game_id", "seq", "event_id", "schema_version", "turn", "phase", "type", "player_id", "ts",
         "payload", "visibility", "rng", "annotations", "prev_hash", "hash"
    FROM "events"
  UNION ALL
  SELECT "game_id", "seq", "event_id", "schema_version", "turn", "phase", "type", "player_id", "ts",
         "payload", "visibility", "rng", "annotations", "prev_hash", "hash"
    FROM "thawed_events";

CREATE VIEW "actions_all" AS
  SELECT "game_id", "seq_before", "player_id", "attempt", "turn", "phase", "window", "raw",
         "validated", "accepted", "rejection_code", "ts"
    FROM "actions"
  UNION ALL
  SELECT "game_id", "seq_before", "player_id", "attempt", "turn", "phase", "window", "raw",
         "validated", "accepted", "rejection_code", "ts"
    FROM "thawed_actions";
