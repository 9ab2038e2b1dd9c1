-- Written by hand: tiltyard_append_game_v1 reads the snapshots array with json_to_recordset, one
-- pass over it, where each of `s->>'seq'`, `s->'state'`, `s->>'state_hash'` and `s->'rng'`
-- re-parsed the element (json is text), so every snapshot was parsed about five times. Same
-- signature, same rows.
CREATE OR REPLACE FUNCTION tiltyard_append_game_v1(
  p_game text, p_prev text, p_last int, p_hash text, p_events json, p_status text,
  p_placements jsonb, p_snapshots json, p_actions json
) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
  IF NOT tiltyard_append_v1(p_game, 0, p_prev, p_last, p_hash, p_events, p_status, p_placements, NULL, p_actions) THEN
    RETURN false;
  END IF;
  INSERT INTO snapshots (game_id, seq, state, state_hash, rng)
  SELECT p_game, s.seq, s.state, s.state_hash, s.rng
  FROM json_to_recordset(p_snapshots) AS s(seq int, state json, state_hash text, rng jsonb)
  ON CONFLICT DO NOTHING;
  RETURN true;
END
$$;
