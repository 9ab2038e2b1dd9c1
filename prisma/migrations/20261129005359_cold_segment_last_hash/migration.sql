-- AlterTable
ALTER TABLE "cold_segments" ADD COLUMN     "last_hash" TEXT;

-- Written by hand: a whole game stored cold keeps each segment's last hash too (the segments JSON
-- carries it; a caller that sends none leaves it NULL, which the first read fills in).
CREATE OR REPLACE FUNCTION tiltyard_append_cold_v1(
  p_game text, p_prev text, p_last int, p_hash text, p_placements jsonb, p_snapshots text,
  p_segments json, p_actions_count int, p_actions_seal text, p_actions_data text
) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
  -- The guard a stale writer fails: the game must hold no events yet (head at genesis), as for
  -- a whole game appended hot.
  UPDATE games SET last_seq = p_last, last_hash = p_hash, updated_at = now(), status = 'ended',
    placements = COALESCE(p_placements, placements), ended_at = now(), compacted_at = now()
  WHERE game_id = p_game AND last_seq = 0 AND last_hash = p_prev AND compacted_at IS NULL;
  IF NOT FOUND THEN
    RETURN false;
  END IF;

  INSERT INTO cold_segments (game_id, first_seq, last_seq, last_turn, seal, last_hash, data)
  SELECT p_game, x.first_seq, x.last_seq, x.last_turn, x.seal, x.last_hash, decode(x.data, 'base64')
  FROM json_to_recordset(p_segments) AS x(first_seq int, last_seq int, last_turn int, seal text, last_hash text, data text);

  IF p_actions_count > 0 THEN
    INSERT INTO cold_actions (game_id, count, seal, data)
    VALUES (p_game, p_actions_count, p_actions_seal, decode(p_actions_data, 'base64'));
  END IF;

  IF p_snapshots IS NOT NULL THEN
    INSERT INTO snapshots (game_id, seq, state, state_hash, rng)
    SELECT p_game, f[1]::int, f[2]::json, f[3], f[4]::jsonb
    FROM string_to_table(p_snapshots, E'\n') AS line, string_to_array(line, E'\t') AS f
    ON CONFLICT DO NOTHING;
  END IF;

  RETURN true;
END
$$;
