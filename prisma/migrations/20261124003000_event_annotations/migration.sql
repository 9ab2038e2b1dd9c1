-- AlterTable
ALTER TABLE "events" ADD COLUMN     "annotations" JSON;

-- Written by hand: the append function stores the envelope's annotations too — what the engine
-- derives for views at emit time (faces of cards turned up, arena slots, changed tells). They
-- are part of the event (and of its hash), so the log keeps them.
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

  INSERT INTO events (game_id, seq, event_id, schema_version, turn, phase, type, player_id, ts, payload, visibility, rng, annotations, prev_hash, hash)
  SELECT p_game, r.seq, r.event_id, r.schema_version, r.turn, r.phase, r.type, r.player_id, r.ts, r.payload, r.visibility, r.rng, r.annotations, r.prev_hash, r.hash
  FROM json_to_recordset(p_events) AS r(seq int, event_id text, schema_version text, turn int, phase text, type text,
    player_id text, ts timestamptz, payload json, visibility json, rng json, annotations json, prev_hash text, hash text);

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
