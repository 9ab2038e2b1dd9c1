-- Written by hand: what prisma/schema.prisma cannot express.

-- The event store's append, one call per engine step (src/store/append.ts). A function rather
-- than one big statement because its plans are cached per session: on PGlite parsing and
-- planning a multi-CTE statement every time cost more than the inserts themselves.
--
-- Moves the head of the log from (p_expected, p_prev) to (p_last, p_hash) — the optimistic
-- concurrency guard: a stale or concurrent writer matches no row (the second of two concurrent
-- writers waits on the row lock, then finds last_seq moved) and gets false with nothing written.
-- Otherwise inserts every event of the batch with one set-based INSERT from a JSON array, the
-- snapshot if any, and the step's agent decisions, all in the caller's single statement.
CREATE OR REPLACE FUNCTION tiltyard_append_v1(
  p_game text, p_expected int, p_prev text, p_last int, p_hash text, p_events json,
  p_status text, p_placements jsonb, p_snapshot json, p_actions json
) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
  UPDATE games SET last_seq = p_last, last_hash = p_hash, updated_at = now(),
    status = COALESCE(p_status, status),
    placements = COALESCE(p_placements, placements),
    ended_at = CASE WHEN p_status = 'ended' THEN now() ELSE ended_at END
  WHERE game_id = p_game AND last_seq = p_expected AND last_hash = p_prev;
  IF NOT FOUND THEN
    RETURN false;
  END IF;

  INSERT INTO events (game_id, seq, event_id, schema_version, turn, phase, type, player_id, ts, payload, visibility, rng, prev_hash, hash)
  SELECT p_game, r.seq, r.event_id, r.schema_version, r.turn, r.phase, r.type, r.player_id, r.ts, r.payload, r.visibility, r.rng, r.prev_hash, r.hash
  FROM json_to_recordset(p_events) AS r(seq int, event_id text, schema_version text, turn int, phase text, type text,
    player_id text, ts timestamptz, payload json, visibility json, rng json, prev_hash text, hash text);

  IF p_snapshot IS NOT NULL THEN
    INSERT INTO snapshots (game_id, seq, state, state_hash, rng)
    VALUES (p_game, (p_snapshot->>'seq')::int, p_snapshot->'state', p_snapshot->>'state_hash', (p_snapshot->'rng')::jsonb)
    ON CONFLICT DO NOTHING;
  END IF;

  IF p_actions IS NOT NULL THEN
    INSERT INTO actions (game_id, seq_before, player_id, attempt, turn, phase, "window", raw, validated, accepted, rejection_code, ts)
    SELECT p_game, a.seq_before, a.player_id, a.attempt, a.turn, a.phase, a."window", a.raw::jsonb, a.validated::jsonb,
           a.accepted, a.rejection_code, a.ts
    FROM json_to_recordset(p_actions) AS a(seq_before int, player_id text, attempt int, turn int, phase text,
         "window" text, raw text, validated text, accepted boolean, rejection_code text, ts timestamptz)
    ON CONFLICT DO NOTHING;
  END IF;

  RETURN true;
END
$$;

-- The lifecycle values the store writes (src/store/types.ts GAME_STATUSES).
ALTER TABLE games ADD CONSTRAINT games_status_check CHECK (status IN ('created', 'running', 'ended', 'aborted'));
ALTER TABLE tournaments ADD CONSTRAINT tournaments_status_check CHECK (status IN ('created', 'running', 'ended', 'aborted'));
